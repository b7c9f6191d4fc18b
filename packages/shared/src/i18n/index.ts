// Server message catalogue and translation.
import type { Language } from '../languages.ts';
import { DEFAULT_LANGUAGE } from '../languages.ts';
import type { MessageKey, Messages } from './messages/en.ts';
import { en } from './messages/en.ts';
import { hk } from './messages/hk.ts';
import { jp } from './messages/jp.ts';
import { kr } from './messages/kr.ts';
import { zh } from './messages/zh.ts';

export type { MessageKey, Messages };

export const catalogues: Record<Language, Messages> = { en, zh, hk, kr, jp };

export type MessageParams = Record<string, string | number | bigint>;

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(en, value);
}

/** The message in `language` with {placeholders} filled in; English when a language is missing. */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const template = catalogues[language]?.[key] ?? catalogues[DEFAULT_LANGUAGE][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The display name of an input field: its catalogue entry when there is one, else the field name itself. */
export function fieldName(language: Language, field: string): string {
  const key = `field.${field}`;
  return isMessageKey(key) ? translate(language, key) : field;
}
