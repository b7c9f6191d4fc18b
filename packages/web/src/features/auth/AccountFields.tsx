import type { FormInstance, FormRule } from 'antd';
import { Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { AreaCodeSelect, DEFAULT_COUNTRY_ID, areaCodeOf } from './AreaCodeSelect.tsx';
import type { AccountKind, AccountTarget, Country } from '../../data/auth.ts';
import {
  ACCOUNT_MAX_LENGTH,
  isEmail,
  isLoginMobile,
  isLooseEmail,
  isMobileFor,
  isRecoveryMobile,
} from './validation.ts';
import './auth.css';

export interface AccountValues {
  email?: string;
  countryId?: string;
  mobile?: string;
}

/**
 * 'login': the login dialog's rules (loose e-mail; mobile numeric and longer than 6).
 * 'strict': registration and binding (the server's e-mail pattern; the mobile pattern of the area).
 * 'recovery': password recovery (spec 02 section 5: a mainland mobile 1[3-8] and nine digits, or an
 * e-mail; otherwise the "does not conform" tip).
 */
export type AccountRules = 'login' | 'strict' | 'recovery';

export function emailRules(t: TFunction, rules: AccountRules): FormRule[] {
  return [
    { required: true, whitespace: true, message: t('auth.emailRequired') },
    {
      validator: async (_rule, value: string | undefined) => {
        if (!value?.trim()) return;
        if (rules === 'login' ? isLooseEmail(value) : isEmail(value)) return;
        throw new Error(rules === 'recovery' ? t('auth.recoveryAccountInvalid') : t('auth.emailInvalid'));
      },
    },
  ];
}

export function mobileRules(t: TFunction, rules: AccountRules, areaCode: () => string): FormRule[] {
  return [
    { required: true, whitespace: true, message: t('auth.mobileRequired') },
    {
      validator: async (_rule, value: string | undefined) => {
        const text = value?.trim() ?? '';
        if (text === '') return;
        if (rules === 'login') {
          if (!/^\d+$/.test(text)) throw new Error(t('auth.mobileInvalid'));
          if (!isLoginMobile(text)) throw new Error(t('auth.mobileLength'));
          return;
        }
        if (rules === 'recovery') {
          if (!isRecoveryMobile(areaCode(), text)) throw new Error(t('auth.recoveryAccountInvalid'));
          return;
        }
        if (!isMobileFor(areaCode(), text)) throw new Error(t('auth.mobileInvalid'));
      },
    },
  ];
}

interface AccountFieldsProps {
  kind: AccountKind;
  form: FormInstance;
  countries: readonly Country[] | undefined;
  rules: AccountRules;
  /** Show the country name in the picker (pages) rather than the code alone (dialogs). */
  wideCountry?: boolean;
  autoFocus?: boolean;
}

/** The e-mail input, or the area-code picker and the mobile input, with the rules of the form they are in. */
export function AccountFields({
  kind,
  form,
  countries,
  rules,
  wideCountry = false,
  autoFocus = false,
}: AccountFieldsProps) {
  const { t } = useTranslation();
  if (kind === 'email') {
    return (
      <Form.Item
        name="email"
        label={t('auth.email')}
        rules={emailRules(t, rules)}
        normalize={(value: string) => value.trimStart()}
      >
        <Input
          placeholder={t('auth.emailPlaceholder')}
          maxLength={ACCOUNT_MAX_LENGTH}
          autoComplete="email"
          inputMode="email"
          autoFocus={autoFocus}
          data-testid="account-email"
        />
      </Form.Item>
    );
  }
  const areaCode = () => areaCodeOf(countries, form.getFieldValue('countryId') as string | undefined);
  return (
    <Form.Item label={t('auth.mobile')} required>
      <Space.Compact block>
        <Form.Item name="countryId" noStyle initialValue={DEFAULT_COUNTRY_ID}>
          <AreaCodeSelect showName={wideCountry} />
        </Form.Item>
        <Form.Item name="mobile" noStyle rules={mobileRules(t, rules, areaCode)} dependencies={['countryId']}>
          <Input
            placeholder={t('auth.mobilePlaceholder')}
            maxLength={20}
            autoComplete="tel-national"
            inputMode="numeric"
            autoFocus={autoFocus}
            data-testid="account-mobile"
          />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}

/** The account the form's values name. */
export function targetOf(
  kind: AccountKind,
  values: AccountValues,
  countries: readonly Country[] | undefined,
): AccountTarget {
  if (kind === 'email') return { kind: 'email', email: (values.email ?? '').trim() };
  return {
    kind: 'mobile',
    areaCode: areaCodeOf(countries, values.countryId),
    mobile: (values.mobile ?? '').trim(),
  };
}

/** Validates the account fields alone (before sending a code) and returns the account, or null. */
export async function validatedTarget(
  form: FormInstance,
  kind: AccountKind,
  countries: readonly Country[] | undefined,
): Promise<AccountTarget | null> {
  try {
    const values = (await form.validateFields(
      kind === 'email' ? ['email'] : ['countryId', 'mobile'],
    )) as AccountValues;
    return targetOf(kind, values, countries);
  } catch {
    return null;
  }
}
