// The stored-HTML sanitiser against a list of known XSS payloads: whatever comes in, nothing that runs may
// come out, and the article's ordinary markup must survive.
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_IN_CLEAN_HTML as FORBIDDEN, XSS_PAYLOADS } from '@fairex/shared/html-policy-cases.ts';
import { cleanPlainText, sanitizeNewsHtml } from './sanitize.ts';

describe('sanitizeNewsHtml', () => {
  it.each(XSS_PAYLOADS)('removes everything executable from %s', (payload) => {
    const clean = sanitizeNewsHtml(payload);
    for (const pattern of FORBIDDEN) expect(clean, `${payload} -> ${clean}`).not.toMatch(pattern);
  });

  it('keeps the markup an article needs', () => {
    const article =
      '<h3>Title</h3><p>Text with <strong>bold</strong>, <em>italic</em> and <code>code</code>.</p>' +
      '<ul><li>one</li></ul><ol start="2"><li>two</li></ol><blockquote>quote</blockquote>' +
      '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
      '<img src="https://cdn.example/a.png" alt="chart" width="10" height="10" />' +
      '<a href="/noticeList">notices</a> <a href="mailto:help@example.com">mail</a>';
    expect(sanitizeNewsHtml(article)).toBe(article);
  });

  it('opens outside links apart and replaces an author’s own target and rel', () => {
    expect(sanitizeNewsHtml('<a href="https://example.com" target="_self" rel="opener">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(sanitizeNewsHtml('<a href="/market" target="_blank">x</a>')).toBe('<a href="/market">x</a>');
  });

  it('keeps the text of removed tags but not the contents of scripts and styles', () => {
    expect(sanitizeNewsHtml('<font color="red">kept</font><script>lost()</script>')).toBe('kept');
  });
});

describe('cleanPlainText', () => {
  it('removes control characters and folds white space, leaving < and & as text', () => {
    expect(cleanPlainText('  a\u0000b \n\t c <b> & d\u009f ')).toBe('ab c <b> & d');
  });
});
