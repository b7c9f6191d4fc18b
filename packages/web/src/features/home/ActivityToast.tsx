import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { DownloadOutlined, SwapOutlined, UploadOutlined, UserAddOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { groupThousands } from '../../format/index.ts';
import { useActivitySummary, type ActivityCount, type ActivitySummary } from '../../data/activity.ts';
import './activity-toast.css';

interface Figure {
  key: 'trades' | 'traders' | 'deposits' | 'withdrawals';
  /** A count, or the minimum the server withheld it below ("fewer than 20"). */
  count: number | { fewerThan: number };
  icon: ReactNode;
}

/**
 * The figures worth showing: those the server gave and that are above zero (or withheld below its minimum,
 * shown as "fewer than 20"), in a fixed order.
 */
export function activityFigures(summary: ActivitySummary | undefined): Figure[] {
  if (summary === undefined) return [];
  const all: Array<[Figure['key'], ActivityCount, ReactNode]> = [
    ['trades', summary.tradesLastHour, <SwapOutlined key="trades" />],
    ['traders', summary.tradersLastHour, <UserAddOutlined key="traders" />],
    ['deposits', summary.depositsLastHour, <DownloadOutlined key="deposits" />],
    ['withdrawals', summary.withdrawalsLastHour, <UploadOutlined key="withdrawals" />],
  ];
  return all.flatMap(([key, count, icon]) =>
    count !== null && (typeof count !== 'number' || count > 0) ? [{ key, count, icon }] : [],
  );
}

/**
 * The home footer's line of recent activity: aggregate figures of the last hour, counted by the server
 * ("Trades 12 · Deposits 3"), never one user's activity. Only on the home page and inside the footer,
 * so it never covers a working screen; nothing at all when the hour was quiet.
 */
export function ActivityToast() {
  const { pathname } = useLocation();
  if (pathname !== '/') return null;
  return <ActivityLine />;
}

function ActivityLine() {
  const { t } = useTranslation();
  const figures = activityFigures(useActivitySummary().data);
  if (figures.length === 0) return null;
  return (
    <div className="fx-container">
      <p className="fx-activity-line" role="status" data-testid="activity-toast">
        <span className="fx-activity-title">{t('footer.activity.label')}</span>
        {figures.map((figure) => (
          <span key={figure.key} className="fx-activity-figure" data-testid={`activity-${figure.key}`}>
            <span className="fx-activity-icon" aria-hidden="true">
              {figure.icon}
            </span>
            {t(`footer.activity.${figure.key}`)}{' '}
            <strong>
              {typeof figure.count === 'number'
                ? groupThousands(String(figure.count))
                : t('home.stats.fewerThan', { min: figure.count.fewerThan })}
            </strong>
          </span>
        ))}
      </p>
    </div>
  );
}
