import { describe, expect, it } from 'vitest';
import { normalizeApiBase, onApiBase } from './api-base.ts';

describe('the API base', () => {
  it('is the page origin unless a build sets VITE_API_BASE', () => {
    expect(normalizeApiBase(undefined)).toBe('');
    expect(normalizeApiBase('  ')).toBe('');
    expect(onApiBase('', '/api/user/info?lang=en')).toBe('/api/user/info?lang=en');
  });

  it('puts server-relative addresses on the configured origin, and leaves others alone', () => {
    const base = normalizeApiBase('https://api.example.com/');
    expect(base).toBe('https://api.example.com');
    expect(onApiBase(base, '/api/user/info?lang=en')).toBe('https://api.example.com/api/user/info?lang=en');
    expect(onApiBase(base, '/uploads/a.png')).toBe('https://api.example.com/uploads/a.png');
    expect(onApiBase(base, 'https://cdn.example.com/logo.png')).toBe('https://cdn.example.com/logo.png');
    expect(onApiBase(base, '//cdn.example.com/logo.png')).toBe('//cdn.example.com/logo.png');
    expect(onApiBase(base, 'data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });

  it('refuses a base that is not an http(s) address', () => {
    expect(() => normalizeApiBase('api.example.com')).toThrow(/VITE_API_BASE/);
    expect(() => normalizeApiBase('ftp://api.example.com')).toThrow(/VITE_API_BASE/);
  });
});
