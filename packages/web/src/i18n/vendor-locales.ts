import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale/index.js';
import type { Language } from './languages.ts';

// antd's and dayjs's own strings (date pickers, pagination, relative times) follow the language too.
// Each is loaded on demand like the product's own messages.

const antdLocales: Record<Language, () => Promise<{ default: Locale }>> = {
  en: () => import('antd/es/locale/en_US.js'),
  zh: () => import('antd/es/locale/zh_CN.js'),
  hk: () => import('antd/es/locale/zh_HK.js'),
  kr: () => import('antd/es/locale/ko_KR.js'),
  jp: () => import('antd/es/locale/ja_JP.js'),
};

const dayjsLocales: Record<Language, { name: string; load: () => Promise<unknown> }> = {
  en: { name: 'en', load: () => Promise.resolve() },
  zh: { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn.js') },
  hk: { name: 'zh-hk', load: () => import('dayjs/locale/zh-hk.js') },
  kr: { name: 'ko', load: () => import('dayjs/locale/ko.js') },
  jp: { name: 'ja', load: () => import('dayjs/locale/ja.js') },
};

export async function loadAntdLocale(language: Language): Promise<Locale> {
  return (await antdLocales[language]()).default;
}

export async function applyDayjsLocale(language: Language): Promise<void> {
  const { name, load } = dayjsLocales[language];
  await load();
  dayjs.locale(name);
}
