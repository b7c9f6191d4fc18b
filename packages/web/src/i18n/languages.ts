import type { Language } from '@fairex/shared/languages.ts';

// Interface languages. The short code (shared with the server) is what the API expects in its `lang`
// parameter and what the product stores under the `lang` key; the locale tag drives number and date
// formats (so `hk` uses Traditional Chinese strings with Hong Kong formats) and is stored under `locale`.
export { DEFAULT_LANGUAGE, LANGUAGES, isLanguage, type Language } from '@fairex/shared/languages.ts';

export interface LanguageInfo {
  /** BCP 47 tag used for Intl formatting and the document's lang attribute. */
  locale: string;
  /** The language's name in itself, shown in the picker. */
  nativeName: string;
}

export const LANGUAGE_INFO: Record<Language, LanguageInfo> = {
  en: { locale: 'en-US', nativeName: 'English' },
  zh: { locale: 'zh-CN', nativeName: '简体中文' },
  hk: { locale: 'zh-HK', nativeName: '繁體中文' },
  kr: { locale: 'ko-KR', nativeName: '한국어' },
  jp: { locale: 'ja-JP', nativeName: '日本語' },
};

/** Finds the language for a stored locale tag, for browsers that kept only `locale`. */
export function languageFromLocale(locale: string | null): Language | null {
  if (locale === null) return null;
  const match = Object.entries(LANGUAGE_INFO).find(
    ([, info]) => info.locale.toLowerCase() === locale.toLowerCase(),
  );
  return match === undefined ? null : (match[0] as Language);
}
