import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLanguage, storeLanguage, storedLanguage, switchLanguage } from './index.ts';
import { pageControl } from '../app/page-reload.ts';

describe('language storage', () => {
  let reload = vi.spyOn(pageControl, 'reload');

  beforeEach(() => {
    localStorage.clear();
    reload.mockRestore();
    reload = vi.spyOn(pageControl, 'reload').mockImplementation(() => undefined);
  });

  it('defaults to English', () => {
    expect(storedLanguage()).toBe('en');
  });

  it('reads the stored lang key', () => {
    localStorage.setItem('lang', 'kr');
    expect(storedLanguage()).toBe('kr');
  });

  it('falls back to the stored locale tag when lang is missing or unknown', () => {
    localStorage.setItem('lang', 'xx');
    localStorage.setItem('locale', 'zh-HK');
    expect(storedLanguage()).toBe('hk');
  });

  it('stores both the language code and its locale tag', () => {
    storeLanguage('jp');
    expect(localStorage.getItem('lang')).toBe('jp');
    expect(localStorage.getItem('locale')).toBe('ja-JP');
  });

  it('switching language stores it and reloads the page', () => {
    expect(currentLanguage()).toBe('en');
    switchLanguage('zh');
    expect(localStorage.getItem('lang')).toBe('zh');
    expect(localStorage.getItem('locale')).toBe('zh-CN');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('choosing the language already shown does nothing', () => {
    switchLanguage('en');
    expect(localStorage.getItem('lang')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });
});
