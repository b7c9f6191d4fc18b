// The interface languages of the specifications. The codes are the product's own: hk is Traditional
// Chinese as used in Hong Kong, kr Korean, jp Japanese.
export const LANGUAGES = ['zh', 'hk', 'en', 'kr', 'jp'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

// Standard tags that clients and browsers send, mapped to the product's codes.
const ALIASES: Record<string, Language> = {
  cn: 'zh',
  'zh-cn': 'zh',
  'zh-hans': 'zh',
  'zh-sg': 'zh',
  tw: 'hk',
  'zh-hk': 'hk',
  'zh-tw': 'hk',
  'zh-mo': 'hk',
  'zh-hant': 'hk',
  ko: 'kr',
  'ko-kr': 'kr',
  ja: 'jp',
  'ja-jp': 'jp',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The product language for a code or tag ("hk", "zh-TW", "en-US", "ko"), or undefined when unknown. */
export function resolveLanguage(value: unknown): Language | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 16) return undefined;
  const tag = value.trim().toLowerCase().replace('_', '-');
  if (isLanguage(tag)) return tag;
  const alias = ALIASES[tag];
  if (alias) return alias;
  const primary = tag.split('-')[0];
  if (primary === 'en') return 'en';
  return primary === 'zh' ? 'zh' : undefined;
}
