import { useTranslation } from 'react-i18next';
import { useConnectionStatus, useFeedStale } from '../data/feeds.ts';
import './connection.css';

/**
 * Whether the figures of a live screen are moving: live, connecting, offline (reconnecting) or paused
 * while the tab is hidden. Every screen with pushed figures shows it, and greys those figures out while
 * `data-stale` is true (see `staleClass`).
 */
export function ConnectionBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  const status = useConnectionStatus();
  const stale = useFeedStale();
  return (
    <span
      className={className === undefined ? 'fx-connection' : `fx-connection ${className}`}
      data-status={status}
      data-stale={stale}
      data-testid="connection-status"
      role="status"
    >
      <span className="fx-connection-dot" aria-hidden="true" />
      {t(stale && status === 'connecting' ? 'market.connection.offline' : `market.connection.${status}`)}
    </span>
  );
}

/** The class that greys a block of live figures out while the feed is stale ('' while it is fresh). */
export function staleClass(stale: boolean): string {
  return stale ? 'fx-stale' : '';
}
