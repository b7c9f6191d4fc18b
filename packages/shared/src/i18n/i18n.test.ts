import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.ts';
import { catalogues, fieldName, translate } from './index.ts';
import { en } from './messages/en.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
const HAN = /\p{Script=Han}/u;

describe('message catalogues', () => {
  it.each(LANGUAGES)(
    '%s has exactly the English keys, each non-empty with the same placeholders',
    (language) => {
      const catalogue = catalogues[language];
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
      for (const [key, english] of Object.entries(en)) {
        const text = catalogue[key as keyof typeof en];
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(english));
      }
    },
  );

  it('is really translated: the script of each language appears', () => {
    const sentence = 'auth.login_required' as const;
    expect(catalogues.zh[sentence]).toMatch(HAN);
    expect(catalogues.hk[sentence]).toMatch(HAN);
    expect(catalogues.kr[sentence]).toMatch(/\p{Script=Hangul}/u);
    expect(catalogues.jp[sentence]).toMatch(/\p{Script=Hiragana}|\p{Script=Katakana}/u);
    // Hong Kong text is Traditional: 登入 and 請, not the Simplified 登录 and 请.
    expect(catalogues.hk[sentence]).toContain('請');
    expect(catalogues.zh[sentence]).toContain('请');
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      if (key.startsWith('field.') && en[key] === 'ID') continue;
      for (const language of ['zh', 'hk', 'kr', 'jp'] as const) {
        expect(catalogues[language][key], `${language} ${key} equals English`).not.toBe(en[key]);
      }
    }
  });
});

describe('translate', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'validation.integer_range', { field: 'Page', min: 1, max: 10 })).toBe(
      'Page must be a whole number from 1 to 10.',
    );
    expect(translate('en', 'validation.required')).toBe('{field} is required.');
    expect(translate('zh', 'validation.decimal_scale', { field: '价格', scale: 2 })).toBe(
      '价格最多允许 2 位小数。',
    );
  });

  it('names fields in the language, falling back to the field name', () => {
    expect(fieldName('jp', 'price')).toBe('価格');
    expect(fieldName('en', 'from_field')).toBe('Source wallet');
    expect(fieldName('en', 'no_such_field')).toBe('no_such_field');
  });
});
