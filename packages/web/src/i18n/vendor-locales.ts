import type { Locale } from 'antd/es/locale/index.js';
import type { Language } from './languages.ts';

// antd's own strings (pagination, empty states, dialogs) follow the language too, loaded on demand like the
// product's own messages. No screen writes a date with dayjs in words (relative times use the platform's
// Intl.RelativeTimeFormat), so dayjs needs no locale and is not loaded by pages that do not use it.

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
