import { describe, expect, it } from 'vitest';
import { FORBIDDEN_IN_CLEAN_HTML as FORBIDDEN, XSS_PAYLOADS } from '@fairex/shared/html-policy-cases.ts';
import { sanitizeHtml } from './sanitize-html.ts';

// The payloads the server's sanitiser is tested with: stored HTML that slipped past the server (or was
// written around it) must still not run anything in the browser.

describe('sanitizeHtml (browser)', () => {
  it.each(XSS_PAYLOADS)('removes everything executable from %s', (payload) => {
    const clean = sanitizeHtml(payload);
    for (const pattern of FORBIDDEN) expect(clean, `${payload} -> ${clean}`).not.toMatch(pattern);
  });

  it('leaves nothing that runs when the result is put into a page', () => {
    const host = document.createElement('div');
    host.innerHTML = XSS_PAYLOADS.map(sanitizeHtml).join('');
    for (const element of host.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames()) expect(attribute.startsWith('on')).toBe(false);
    }
    expect(host.querySelector('script, iframe, object, embed, svg, style, form')).toBeNull();
  });

  it('keeps the markup an article needs and marks outside links', () => {
    const clean = sanitizeHtml(
      '<h3>Title</h3><p>Text <strong>bold</strong></p><table><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
        '<a href="/noticeList">notices</a><a href="https://example.com">out</a><img src="https://cdn.example/a.png" alt="a">',
    );
    expect(clean).toContain('<h3>Title</h3><p>Text <strong>bold</strong></p>');
    expect(clean).toContain('<td colspan="2">1</td>');
    expect(clean).toContain('<a href="/noticeList">notices</a>');
    expect(clean).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">out</a>',
    );
    expect(clean).toContain('<img src="https://cdn.example/a.png" alt="a">');
  });
});
