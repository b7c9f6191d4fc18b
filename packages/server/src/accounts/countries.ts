// The country list of the area-code pickers: every region libphonenumber knows a calling code for, named
// in the request language by Intl.DisplayNames (the ICU data Node carries), sorted by that name.
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import type { Language } from '@fairex/shared';
import type { Country } from '@fairex/shared/api/account.ts';

export type { Country };

const LOCALES: Record<Language, string> = { zh: 'zh-Hans', hk: 'zh-Hant-HK', en: 'en', kr: 'ko', jp: 'ja' };

const cache = new Map<Language, readonly Country[]>();

function namer(locale: string): (region: string) => string {
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  return (region) => names.of(region) ?? region;
}

export function countryList(language: Language): readonly Country[] {
  const cached = cache.get(language);
  if (cached) return cached;
  const localName = namer(LOCALES[language]);
  const chinese = namer(LOCALES.zh);
  const english = namer(LOCALES.en);
  const collator = new Intl.Collator(LOCALES[language]);
  const list = getCountries()
    .map((region) => ({
      country_id: region,
      area_code: getCountryCallingCode(region),
      name: localName(region),
      name_cn: chinese(region),
      name_en: english(region),
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
  cache.set(language, list);
  return list;
}
