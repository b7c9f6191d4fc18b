import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircleFilled } from '@ant-design/icons';
import type { NewsListItem } from '../../data/news.ts';

/** Spec 01 section 1: the carousel moves on every 1500 ms and loops. */
export const CAROUSEL_ADVANCE_MS = 1_500;
const VISIBLE = 3;

/**
 * The looping carousel of the home page. The template filled it with testimonials by invented people;
 * here it holds the exchange's own commitments, which it can stand behind, stored as content so that an
 * operator can replace them with real, consented testimonials. Hovering or focusing it holds it still.
 */
export function Commitments({ title, items }: { title: string; items: readonly NewsListItem[] }) {
  const { t } = useTranslation();
  const [start, setStart] = useState(0);
  const [held, setHeld] = useState(false);

  useEffect(() => {
    if (items.length <= 1 || held) return;
    const timer = window.setInterval(
      () => setStart((current) => (current + 1) % items.length),
      CAROUSEL_ADVANCE_MS,
    );
    return () => window.clearInterval(timer);
  }, [items.length, held]);

  if (items.length === 0) return null;
  const shown = Array.from(
    { length: Math.min(VISIBLE, items.length) },
    (_, offset) => items[(start + offset) % items.length],
  );
  return (
    <section className="fx-home-commitments" aria-labelledby="fx-home-commitments-title">
      <div className="fx-container">
        <h2 id="fx-home-commitments-title" className="fx-section-title">
          {title}
        </h2>
        <div
          className="fx-home-carousel"
          data-testid="commitments"
          data-start={start}
          aria-roledescription={t('home.commitments.carousel')}
          onMouseEnter={() => setHeld(true)}
          onMouseLeave={() => setHeld(false)}
          onFocus={() => setHeld(true)}
          onBlur={() => setHeld(false)}
        >
          {shown.map((item, offset) =>
            item === undefined ? null : (
              <figure
                key={`${start}-${item.id}`}
                className="fx-home-quote"
                data-offset={offset}
                data-testid="commitment"
              >
                <CheckCircleFilled className="fx-home-quote-mark" aria-hidden="true" />
                <blockquote className="fx-home-quote-text">{item.abstract}</blockquote>
                <figcaption className="fx-home-quote-title">{item.title}</figcaption>
              </figure>
            ),
          )}
        </div>
        <div className="fx-home-carousel-dots" role="tablist" aria-label={title}>
          {items.map((item, index) => (
            <button
              key={item.id}
              type="button"
              role="tab"
              aria-selected={index === start}
              aria-label={item.title}
              className={index === start ? 'fx-home-dot is-active' : 'fx-home-dot'}
              onClick={() => setStart(index)}
            />
          ))}
        </div>
      </div>
    </section>
  );
}
