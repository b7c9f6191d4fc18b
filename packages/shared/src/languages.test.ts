import { describe, expect, it } from 'vitest';
import { resolveLanguage } from './languages.ts';

describe('resolveLanguage', () => {
  it.each([
    ['zh', 'zh'],
    ['hk', 'hk'],
    ['en', 'en'],
    ['kr', 'kr'],
    ['jp', 'jp'],
    ['EN', 'en'],
    ['en-US', 'en'],
    ['zh-CN', 'zh'],
    ['zh_TW', 'hk'],
    ['zh-Hant', 'hk'],
    ['ko', 'kr'],
    ['ja-JP', 'jp'],
    ['fr', undefined],
    ['', undefined],
    [['en'], undefined],
    ['x'.repeat(100), undefined],
  ])('%j -> %s', (input, expected) => {
    expect(resolveLanguage(input)).toBe(expected);
  });
});
