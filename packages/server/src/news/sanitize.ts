// Cleans the HTML of news items before it is stored. The rule is an allowlist: the tags and attributes a
// written article needs, links to http(s), mailto and this site, images from https. Everything else goes:
// scripts and styles with their contents, event handlers, frames, forms, SVG and MathML, inline styles,
// and every other URL scheme (javascript:, vbscript:, data:). The browser cleans again before display, so
// a row written by some other path still cannot run anything.
import sanitizeHtml from 'sanitize-html';
import { HTML_ALLOWED_ATTRIBUTES, HTML_ALLOWED_TAGS } from '@fairex/shared';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...HTML_ALLOWED_TAGS],
  allowedAttributes: {
    ...Object.fromEntries(Object.entries(HTML_ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
    // target and rel are set by transformTags below, never taken from the author.
    a: [...(HTML_ALLOWED_ATTRIBUTES.a ?? []), 'target', 'rel'],
  },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // A disallowed tag goes, its text stays; script, style and the like go with their contents.
  disallowedTagsMode: 'discard',
  nestingLimit: 64,
  parseStyleAttributes: false,
  transformTags: {
    a: (tagName, attribs) => {
      // Only these survive; an author's own target or rel is replaced.
      const kept: sanitizeHtml.Attributes = {};
      if (attribs.href !== undefined) kept.href = attribs.href;
      if (attribs.title !== undefined) kept.title = attribs.title;
      // Links that leave the site open apart and give the other site no handle on this one.
      if (/^\s*https?:/i.test(kept.href ?? '')) {
        kept.target = '_blank';
        kept.rel = 'noopener noreferrer nofollow';
      }
      return { tagName, attribs: kept };
    },
  },
};

/** The HTML with only the allowed tags, attributes and URL schemes left. */
export function sanitizeNewsHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

// C0 and C1 control characters other than tab, line feed and carriage return.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * A title or abstract as plain text: control characters removed, runs of white space made one space.
 * Plain text is shown as text (React escapes it), so it keeps characters such as < and & as they are.
 */
export function cleanPlainText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim();
}
