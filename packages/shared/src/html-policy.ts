// The one allowlist for news and page HTML, used by the server's cleaning when content is stored and by the
// browser's cleaning before display, so the two can never drift apart: the tags a written article needs, and
// per tag the attributes it may carry. URL rules (http(s), mailto and this site; images from https only)
// are applied by each side's sanitiser.

export const HTML_ALLOWED_TAGS: readonly string[] = [
  'h2',
  'h3',
  'h4',
  'p',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'blockquote',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'a',
  'code',
  'pre',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'img',
  'figure',
  'figcaption',
  'span',
  'div',
];

/** Attributes an author may write, per tag. Links' target and rel are set by the sanitisers, never taken. */
export const HTML_ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'width', 'height'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  ol: ['start'],
};
