import { use } from 'react';
import { currentLanguage, i18next } from '../i18n/index.ts';
import type { Language } from '../i18n/languages.ts';
import type en from './locales/en.json';

// The console's texts live in their own i18next namespace, `admin`, loaded with the console's chunk for the
// reader's language only. Keeping them out of the site's message files keeps them out of every visitor's
// download, and keeps the site's typed key union small enough for the compiler (with them in it, some of
// the site's own t() calls exceeded TypeScript's instantiation limit). The keys are typed from en.json here.

export type AdminMessages = typeof en;

type Paths<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${Paths<T[K]>}`;
}[keyof T & string];

export type AdminKey = Paths<AdminMessages>;
export type AdminT = (key: AdminKey, params?: Record<string, string | number | undefined>) => string;

const loaders: Record<Language, () => Promise<{ default: AdminMessages }>> = {
  en: () => import('./locales/en.json'),
  zh: () => import('./locales/zh.json'),
  hk: () => import('./locales/hk.json'),
  kr: () => import('./locales/kr.json'),
  jp: () => import('./locales/jp.json'),
};

export const ADMIN_NAMESPACE = 'admin';

let loading: Promise<void> | undefined;

/** Loads the console's texts for the page's language once (a language change reloads the page). */
export function loadAdminMessages(): Promise<void> {
  loading ??= loaders[currentLanguage()]().then((module) => {
    i18next.addResourceBundle(i18next.language, ADMIN_NAMESPACE, module.default, true, true);
  });
  return loading;
}

/** Suspends until the console's texts are there. */
export function useAdminMessages(): void {
  use(loadAdminMessages());
}

/** A translation of a console text, outside React (the API client's messages). */
const translate = i18next.t.bind(i18next) as unknown as (
  key: string,
  options: Record<string, unknown>,
) => string;

export const adminT: AdminT = (key, params) => translate(key, { ...params, ns: ADMIN_NAMESPACE });

/** The console's translation function. The texts are loaded before any console screen renders. */
export function useAdminT(): AdminT {
  return adminT;
}
