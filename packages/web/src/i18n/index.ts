import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type en from './locales/en.json';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_INFO,
  isLanguage,
  languageFromLocale,
  type Language,
} from './languages.ts';
import { readStored, writeStored } from '../data/storage.ts';
import { reloadPage } from '../app/page-reload.ts';

export type Messages = typeof en;

// One dynamic import per language and part (message-parts.ts): a visitor downloads only the language they
// read, and the screens part only with a screen that uses it.
const coreLoaders: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('virtual:fairex-messages/en/core'),
  zh: () => import('virtual:fairex-messages/zh/core'),
  hk: () => import('virtual:fairex-messages/hk/core'),
  kr: () => import('virtual:fairex-messages/kr/core'),
  jp: () => import('virtual:fairex-messages/jp/core'),
};

const screenLoaders: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('virtual:fairex-messages/en/screens'),
  zh: () => import('virtual:fairex-messages/zh/screens'),
  hk: () => import('virtual:fairex-messages/hk/screens'),
  kr: () => import('virtual:fairex-messages/kr/screens'),
  jp: () => import('virtual:fairex-messages/jp/screens'),
};

/**
 * The core part of a language's messages, for the start; the screens part follows with its screens. Typed as
 * the whole so that i18next's key types stay those of the locale file.
 */
export function loadMessages(language: Language): Promise<Messages> {
  return coreLoaders[language]().then((module) => module.default as Messages);
}

let screenMessages: Promise<void> | null = null;

/** Adds the screens part of the current language's messages, once; a screen's route awaits it. */
export function loadScreenMessages(): Promise<void> {
  screenMessages ??= (async () => {
    const language = currentLanguage();
    const { default: messages } = await screenLoaders[language]();
    i18next.addResourceBundle(LANGUAGE_INFO[language].locale, 'translation', messages, true, true);
  })().catch((error: unknown) => {
    screenMessages = null;
    throw error;
  });
  return screenMessages;
}

/** The language the visitor chose earlier (`lang`, or the older `locale` key), else the default. */
export function storedLanguage(): Language {
  const lang = readStored('lang');
  if (isLanguage(lang)) return lang;
  return languageFromLocale(readStored('locale')) ?? DEFAULT_LANGUAGE;
}

export function storeLanguage(language: Language): void {
  writeStored('lang', language);
  writeStored('locale', LANGUAGE_INFO[language].locale);
}

let activeLanguage: Language = DEFAULT_LANGUAGE;

/** The language the running page was started in; the API client sends it as `lang`. */
export function currentLanguage(): Language {
  return activeLanguage;
}

/**
 * Starts i18next with one language's messages. The locale tag is i18next's language so that its
 * number and date interpolation formats follow the locale (Hong Kong formats for `hk`).
 */
export async function initI18n(language: Language, messages: Messages): Promise<typeof i18next> {
  activeLanguage = language;
  const locale = LANGUAGE_INFO[language].locale;
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    load: 'currentOnly',
    resources: { [locale]: { translation: messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}

export { i18next };

/** Spec 01 section 4: a language change stores the choice and reloads the page in that language. */
export function switchLanguage(language: Language): void {
  if (language === activeLanguage) return;
  storeLanguage(language);
  reloadPage();
}
