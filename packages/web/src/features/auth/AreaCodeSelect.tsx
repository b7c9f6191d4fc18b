import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import { useCountries, type Country } from '../../data/auth.ts';

/** Spec 01 section 9: the default area code is +1 (the United States and Canada share it). */
export const DEFAULT_COUNTRY_ID = 'US';

/** The calling code of a country id, from the loaded list; +1 until the list is there. */
export function areaCodeOf(countries: readonly Country[] | undefined, countryId: string | undefined): string {
  return countries?.find((country) => country.country_id === countryId)?.area_code ?? '1';
}

interface AreaCodeSelectProps {
  value?: string;
  onChange?: (countryId: string) => void;
  /** Show the country name beside the code (the register page); the dialogs show the code alone. */
  showName?: boolean;
  testId?: string;
}

/** A searchable country picker; the value is the country id, the label its calling code. */
export function AreaCodeSelect({
  value,
  onChange,
  showName = false,
  testId = 'area-code',
}: AreaCodeSelectProps) {
  const { t } = useTranslation();
  const { data: countries, isLoading } = useCountries();
  const options = useMemo(
    () =>
      (countries ?? []).map((country) => ({
        value: country.country_id,
        label: showName ? `${country.name} +${country.area_code}` : `+${country.area_code}`,
        search:
          `${country.name} ${country.name_en} ${country.name_cn} +${country.area_code} ${country.country_id}`.toLowerCase(),
        name: country.name,
        code: country.area_code,
      })),
    [countries, showName],
  );
  return (
    <Select
      value={value ?? DEFAULT_COUNTRY_ID}
      onChange={onChange}
      loading={isLoading}
      showSearch={{
        filterOption: (input, option) => (option?.search ?? '').includes(input.trim().toLowerCase()),
      }}
      options={options}
      optionRender={(option) => (
        <span className="fx-area-option">
          <span>{option.data.name}</span>
          <span className="fx-area-code">+{option.data.code}</span>
        </span>
      )}
      popupMatchSelectWidth={showName ? true : 280}
      aria-label={t('auth.areaCode')}
      data-testid={testId}
      className={showName ? 'fx-area-select is-wide' : 'fx-area-select'}
    />
  );
}
