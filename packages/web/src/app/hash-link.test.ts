import { describe, expect, it } from 'vitest';
import { normalizeHashLink, pathFromHashLink } from './hash-link.ts';

describe('template hash links', () => {
  it('reads a #/ hash as the path it stands for, query included', () => {
    expect(pathFromHashLink('#/components/register?extension_code=ABC')).toBe(
      '/components/register?extension_code=ABC',
    );
  });

  it('leaves ordinary fragments alone', () => {
    expect(pathFromHashLink('#faq')).toBeNull();
    expect(pathFromHashLink('')).toBeNull();
  });

  it('rewrites the address bar before the router starts', () => {
    window.history.replaceState(null, '', '/#/dealCenter?symbol=BTC');
    normalizeHashLink(window.location, window.history);
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/dealCenter?symbol=BTC',
    );
    window.history.replaceState(null, '', '/');
  });
});
