import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { HTML_ALLOWED_ATTRIBUTES, HTML_ALLOWED_TAGS } from '@fairex/shared/html-policy.ts';

// The browser's own cleaning of news HTML before it is shown. The server already cleaned it when it was
// stored; this second pass means that a row written by any other path (a database edit, an older
// version, a bug) still cannot run anything here. The allowlist matches the server's: the tags an
// article needs, links to http(s), mailto and this site, images from https only.

// DOMPurify takes one attribute list for all tags; the per-tag policy is the union of the shared lists.
const ALLOWED_ATTR = [...new Set(Object.values(HTML_ALLOWED_ATTRIBUTES).flat())];

const CONFIG: Config = {
  ALLOWED_TAGS: [...HTML_ALLOWED_TAGS],
  ALLOWED_ATTR,
  // http(s), mailto, and paths on this site ("/noticeList", not "//elsewhere").
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/(?!\/))/i,
  // DOMPurify holds every attribute outside this list to the URI rule above; these carry plain values.
  ADD_URI_SAFE_ATTR: ['width', 'height', 'colspan', 'rowspan', 'scope', 'start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_TRUSTED_TYPE: false,
};

let purifier: DOMPurify | null = null;

function instance(): DOMPurify {
  if (purifier !== null) return purifier;
  const created = createDOMPurify(window);
  created.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'IMG') {
      // DOMPurify lets data: images through by default; only https images are shown.
      const src = node.getAttribute('src') ?? '';
      if (!/^https:\/\//i.test(src)) node.removeAttribute('src');
    }
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (/^https?:/i.test(href)) {
        // Outside links open apart and get no handle on this page.
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    }
  });
  purifier = created;
  return created;
}

/** The HTML with only the allowed tags, attributes and URL schemes left, ready for innerHTML. */
export function sanitizeHtml(html: string): string {
  return instance().sanitize(html, CONFIG) as string;
}
