import { useMemo, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { sanitizeHtml } from './sanitize-html.ts';

/**
 * News HTML, cleaned in the browser before it is set. Links to paths on this site navigate inside the
 * app instead of reloading the page.
 */
export function SafeHtml({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  const navigate = useNavigate();
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href') ?? '';
    if (anchor && href.startsWith('/') && !href.startsWith('//') && anchor.target === '') {
      event.preventDefault();
      void navigate(href);
    }
  };
  return (
    // A link activated by keyboard also fires click, so the handler serves both.
    <div
      className={className}
      data-testid={testId}
      onClick={onClick}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
