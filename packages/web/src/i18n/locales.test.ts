import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import zh from './locales/zh.json';
import hk from './locales/hk.json';
import kr from './locales/kr.json';
import jp from './locales/jp.json';
import { LANGUAGES, type Language } from './languages.ts';

const LOCALES: Record<Language, unknown> = { en, zh, hk, kr, jp };

/** Every leaf of a nested message object as [dotted key, text]. */
function leaves(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) =>
    leaves(child, prefix === '' ? key : `${prefix}.${key}`),
  );
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1] ?? '').sort();
}

const english = new Map(leaves(en));

describe('locale files', () => {
  it('covers every language the picker offers', () => {
    expect(Object.keys(LOCALES).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const language of LANGUAGES) {
    describe(language, () => {
      const messages = new Map(leaves(LOCALES[language]));

      it('has exactly the keys of en.json', () => {
        const missing = [...english.keys()].filter((key) => !messages.has(key));
        const extra = [...messages.keys()].filter((key) => !english.has(key));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      });

      it('has a non-empty string for every key', () => {
        const bad = [...messages].filter(([, text]) => typeof text !== 'string' || text.trim() === '');
        expect(bad).toEqual([]);
      });

      it('keeps the placeholders of each English message', () => {
        const mismatched = [...english]
          .filter(
            ([key, text]) =>
              placeholders(String(text)).join() !== placeholders(String(messages.get(key) ?? '')).join(),
          )
          .map(([key]) => key);
        expect(mismatched).toEqual([]);
      });
    });
  }

  // Product names (Fairex, ICO, DeFi) stay the same in every language, but a locale that matches
  // English almost everywhere is a copy, not a translation.
  for (const language of LANGUAGES.filter((code) => code !== 'en')) {
    it(`${language} is translated, not copied from English`, () => {
      const messages = new Map(leaves(LOCALES[language]));
      const same = [...english].filter(([key, text]) => messages.get(key) === text).map(([key]) => key);
      expect(same.length / english.size).toBeLessThan(0.1);
    });
  }

  it('writes Hong Kong Chinese in Traditional characters', () => {
    const hkText = leaves(hk)
      .map(([, text]) => String(text))
      .join('');
    // Simplified forms that have a distinct Traditional form used in these messages.
    for (const simplified of ['币', '杠', '户', '录', '设', '钱', '价', '这', '页']) {
      expect(hkText).not.toContain(simplified);
    }
  });
});
