import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotificationOutlined, RightOutlined } from '@ant-design/icons';
import { NEWS_CATEGORY, noticePath, useNewsList } from '../../data/news.ts';
import { formatNewsTime } from './format-time.ts';
import './news.css';

const SHOWN = 5;
const ROTATE_MS = 4_000;

/**
 * One line of the latest notices for the trading screens: the newest first, then each in turn, with a
 * link to all of them. Nothing is drawn while there are no notices (or they could not be loaded).
 */
export function NoticesStrip({ className }: { className?: string }) {
  const { t } = useTranslation();
  const list = useNewsList(NEWS_CATEGORY.notices, { limit: SHOWN });
  const items = list.data?.items ?? [];
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (items.length < 2 || paused) return;
    const timer = window.setInterval(() => setIndex((current) => (current + 1) % items.length), ROTATE_MS);
    return () => window.clearInterval(timer);
  }, [items.length, paused]);

  const item = items[index % Math.max(items.length, 1)];
  if (item === undefined) return null;
  return (
    <div
      className={className === undefined ? 'fx-notices-strip' : `fx-notices-strip ${className}`}
      data-testid="notices-strip"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <NotificationOutlined className="fx-notices-strip-icon" aria-hidden="true" />
      <span className="fx-notices-strip-label">{t('news.stripLabel')}</span>
      <Link
        key={item.id}
        to={noticePath(item.id)}
        className="fx-notices-strip-title"
        data-testid="notices-strip-item"
      >
        {item.title}
      </Link>
      <span className="fx-notices-strip-time">{formatNewsTime(item.updateTime)?.slice(0, 10)}</span>
      <Link to="/noticeList" className="fx-notices-strip-more">
        {t('news.more')} <RightOutlined />
      </Link>
    </div>
  );
}
