import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseOutlined, DownloadOutlined, SwapOutlined, UploadOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { groupThousands } from '../../format/index.ts';
import { timeAgo } from '../news/format-time.ts';
import { useActivityFeed, type Activity, type ActivityKind } from '../../data/home.ts';
import './activity-toast.css';

/** Spec 01 section 1: a toast is shown for 5 s, and the next one follows after 1 to 10 s. */
export const TOAST_SHOWN_MS = 5_000;
export const TOAST_GAP_MIN_MS = 1_000;
export const TOAST_GAP_MAX_MS = 10_000;

/** The pause before the next toast, from a random draw in [0, 1): only the timing is random. */
export function toastGapMs(draw: number): number {
  return (
    TOAST_GAP_MIN_MS +
    Math.floor(Math.min(Math.max(draw, 0), 0.999999) * (TOAST_GAP_MAX_MS - TOAST_GAP_MIN_MS + 1))
  );
}

export function activityKey(activity: Activity): string {
  return `${activity.kind}|${activity.account}|${activity.amount}|${activity.currency}|${activity.time}`;
}

/** The next activity not shown yet, oldest first, so that the toasts tell what happened in order. */
export function nextUnshown(list: readonly Activity[], shown: ReadonlySet<string>): Activity | null {
  for (let index = list.length - 1; index >= 0; index -= 1) {
    const activity = list[index];
    if (activity !== undefined && !shown.has(activityKey(activity))) return activity;
  }
  return null;
}

const ICONS: Record<ActivityKind, ReactNode> = {
  deposit: <DownloadOutlined />,
  withdrawal: <UploadOutlined />,
  trade: <SwapOutlined />,
};

/**
 * The footer's activity toast, made honest: each toast is a real recent deposit, withdrawal or trade on
 * this exchange (account masked, amount rounded, by the server), shown once. When nothing has happened,
 * nothing is shown. Closing it stops the toasts for the rest of the visit.
 */
export function ActivityToast() {
  const { t } = useTranslation();
  const feed = useActivityFeed();
  const shown = useRef(new Set<string>());
  const [current, setCurrent] = useState<Activity | null>(null);
  const [closed, setClosed] = useState(false);
  const list = feed.data;

  // Between toasts: wait 1-10 s, then show the next unshown activity, if any.
  useEffect(() => {
    if (closed || current !== null || list === undefined || nextUnshown(list, shown.current) === null) return;
    const timer = window.setTimeout(() => {
      const next = nextUnshown(list, shown.current);
      if (next === null) return;
      shown.current.add(activityKey(next));
      setCurrent(next);
    }, toastGapMs(Math.random()));
    return () => window.clearTimeout(timer);
  }, [closed, current, list]);

  // A toast stays 5 s.
  useEffect(() => {
    if (current === null) return;
    const timer = window.setTimeout(() => setCurrent(null), TOAST_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [current]);

  if (closed || current === null) return null;
  const amount = groupThousands(current.amount);
  const text = t(`footer.activity.${current.kind}`, {
    account: current.account,
    amount,
    currency: current.currency,
    symbol: current.symbol ?? '',
  });
  return (
    <div
      className="fx-activity-toast"
      role="status"
      aria-live="polite"
      data-testid="activity-toast"
      data-kind={current.kind}
    >
      <span className="fx-activity-icon" aria-hidden="true">
        {ICONS[current.kind]}
      </span>
      <span className="fx-activity-body">
        <span className="fx-activity-text">{text}</span>
        <span className="fx-activity-meta">
          {t('footer.activity.label')} · {timeAgo(current.time, Date.now())}
        </span>
      </span>
      <button
        type="button"
        className="fx-activity-close"
        aria-label={t('footer.activity.close')}
        onClick={() => setClosed(true)}
      >
        <CloseOutlined />
      </button>
    </div>
  );
}
