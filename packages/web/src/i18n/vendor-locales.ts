import type { Locale } from 'antd/es/locale/index.js';
import type { Language } from './languages.ts';

// antd's own strings (pagination, empty states, dialogs) follow the language too, loaded on demand like the
// product's own messages. No screen writes a date with dayjs in words (relative times use the platform's
// Intl.RelativeTimeFormat); only antd's date pickers take their week days and month names from dayjs, so a
// screen with a date picker loads dayjs's locale of the language (loadDayjsLocale), and no other page does.

const antdLocales: Record<Language, () => Promise<{ default: Locale }>> = {
  en: () => import('antd/es/locale/en_US.js'),
  zh: () => import('antd/es/locale/zh_CN.js'),
  hk: () => import('antd/es/locale/zh_HK.js'),
  kr: () => import('antd/es/locale/ko_KR.js'),
  jp: () => import('antd/es/locale/ja_JP.js'),
};

export async function loadAntdLocale(language: Language): Promise<Locale> {
  return (await antdLocales[language]()).default;
}

// dayjs's locale files register themselves on the dayjs instance antd's pickers use.
const dayjsLocales: Record<Exclude<Language, 'en'>, () => Promise<unknown>> = {
  zh: () => import('dayjs/locale/zh-cn.js'),
  hk: () => import('dayjs/locale/zh-hk.js'),
  kr: () => import('dayjs/locale/ko.js'),
  jp: () => import('dayjs/locale/ja.js'),
};

/** Makes antd's date pickers write week days and months in `language` (English is built into dayjs). */
export async function loadDayjsLocale(language: Language): Promise<void> {
  if (language !== 'en') await dayjsLocales[language]();
}
