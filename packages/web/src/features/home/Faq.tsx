import { useState } from 'react';
import { Collapse } from 'antd';
import type { NewsListItem } from '../../data/news.ts';
import { SafeHtml } from '../news/SafeHtml.tsx';

/** The FAQ accordion: one answer open at a time (spec 01 section 1); answers are stored HTML, cleaned. */
export function Faq({ title, items }: { title: string; items: readonly NewsListItem[] }) {
  const [open, setOpen] = useState<string | null>(null);
  if (items.length === 0) return null;
  return (
    <section className="fx-home-faq" aria-labelledby="fx-home-faq-title">
      <div className="fx-container fx-home-faq-inner">
        <h2 id="fx-home-faq-title" className="fx-section-title">
          {title}
        </h2>
        <Collapse
          accordion
          bordered={false}
          expandIconPlacement="end"
          className="fx-home-faq-list"
          data-testid="faq"
          activeKey={open ?? undefined}
          onChange={(key) => setOpen(Array.isArray(key) ? (key[0] ?? null) : (key ?? null))}
          items={items.map((item) => ({
            key: String(item.id),
            label: <span data-testid="faq-question">{item.title}</span>,
            children: (
              <SafeHtml html={item.content ?? ''} className="fx-home-faq-answer" testId="faq-answer" />
            ),
          }))}
        />
      </div>
    </section>
  );
}
