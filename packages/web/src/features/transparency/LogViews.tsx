import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Spin } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { formatRecordTime } from '../price-record/record-format.ts';
import {
  CONSISTENCY_KEY,
  CONSISTENCY_STALE_MS,
  ensureConsistent,
  type Consistency,
  type HeldCheckpoint,
} from './keeper.ts';
import { checkMyLiabilities } from './checks.ts';
import './transparency.css';

// The pieces the pages share: the keeper's check as a query (one per page load, shared by every component
// that needs it), the warning a failed check shows, the card that shows what this browser holds, and the
// user's own liabilities check.

/** The keeper's check of the exchange's log; every proof on the page waits for it. */
export function useLogConsistency() {
  return useQuery({
    queryKey: CONSISTENCY_KEY,
    queryFn: ({ signal }) => ensureConsistent(undefined, signal),
    staleTime: CONSISTENCY_STALE_MS,
    retry: false,
  });
}

/** How often a check waiting for a newer checkpoint asks for one. */
export const PENDING_REFRESH_MS = 3_000;

/**
 * While something waits for a checkpoint that covers it, the log is checked again every few seconds: a new
 * checkpoint, once proven consistent, becomes the held one and the waiting check runs against it.
 */
export function useRefreshWhilePending(pending: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: CONSISTENCY_KEY }),
      PENDING_REFRESH_MS,
    );
    return () => clearInterval(timer);
  }, [pending, queryClient]);
}

/** The held checkpoint when the log is consistent with what this browser saw; null otherwise. */
export function heldCheckpoint(consistency: Consistency | undefined): HeldCheckpoint | null {
  return consistency?.status === 'ok' ? consistency.checkpoint : null;
}

/** A link that downloads `text` as a file, made from a Blob for as long as it is shown. */
export function TextDownload({
  text,
  fileName,
  label,
  testId,
}: {
  text: string;
  fileName: string;
  label: string;
  testId?: string;
}) {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') {
      // Without object URLs (an old or restricted browser) the text goes in the link itself.
      setHref(`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`);
      return undefined;
    }
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [text]);
  if (href === null) return null;
  return (
    <a className="fx-log-download" href={href} download={fileName} data-testid={testId}>
      <DownloadOutlined /> {label}
    </a>
  );
}

/** The warning when the log does not check out; nothing while it does. */
export function ConsistencyWarning({ consistency }: { consistency: Consistency }) {
  const { t } = useTranslation();
  switch (consistency.status) {
    case 'ok':
      return null;
    case 'fork':
      return (
        <Alert
          type="error"
          showIcon
          data-testid="log-fork-warning"
          title={t('transparency.forkTitle')}
          description={
            <>
              <p>
                {t('transparency.forkBody', {
                  held: consistency.held.size,
                  served: consistency.served.size,
                })}
              </p>
              <div className="fx-log-downloads">
                <TextDownload
                  text={consistency.held.note}
                  fileName={`checkpoint-held-${consistency.held.size}.txt`}
                  label={t('transparency.downloadHeld', { size: consistency.held.size })}
                  testId="log-download-held"
                />
                <TextDownload
                  text={consistency.served.note}
                  fileName={`checkpoint-served-${consistency.served.size}.txt`}
                  label={t('transparency.downloadServed', { size: consistency.served.size })}
                  testId="log-download-served"
                />
              </div>
            </>
          }
        />
      );
    case 'key-changed':
      return (
        <Alert
          type="error"
          showIcon
          data-testid="log-key-warning"
          title={t('transparency.keyChangedTitle')}
          description={
            <>
              <p className="fx-log-wrap">
                {t('transparency.keyChangedBody', {
                  held: consistency.heldKey,
                  served: consistency.servedKey,
                })}
              </p>
              {consistency.held !== null && (
                <TextDownload
                  text={consistency.held.note}
                  fileName={`checkpoint-held-${consistency.held.size}.txt`}
                  label={t('transparency.downloadHeld', { size: consistency.held.size })}
                  testId="log-download-held"
                />
              )}
            </>
          }
        />
      );
    case 'invalid':
      return (
        <Alert
          type="error"
          showIcon
          data-testid="log-invalid-warning"
          title={t('transparency.invalidTitle')}
        />
      );
    case 'unsupported':
      return (
        <Alert type="warning" showIcon data-testid="log-unsupported" title={t('transparency.unsupported')} />
      );
  }
}

/** The state of the keeper's check as one block: checking, a load error, a warning, or nothing. */
export function ConsistencyStatus({ query }: { query: ReturnType<typeof useLogConsistency> }) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <div className="fx-log-muted" data-testid="log-checking">
        <Spin size="small" /> {t('transparency.checking')}
      </div>
    );
  }
  if (query.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('transparency.loadError')}
        description={query.error.message}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('transparency.retry')}
          </Button>
        }
      />
    );
  }
  return <ConsistencyWarning consistency={query.data} />;
}

/** What this browser holds of the log: the key, the checkpoint (size, root, time) and the last check. */
export function KeeperCard({ query }: { query: ReturnType<typeof useLogConsistency> }) {
  const { t } = useTranslation();
  const consistency = query.data;
  return (
    <section
      className="fx-price-record-card fx-log-card"
      aria-labelledby="fx-log-keeper"
      data-testid="log-keeper"
    >
      <h2 id="fx-log-keeper">{t('transparency.keeperTitle')}</h2>
      <ConsistencyStatus query={query} />
      {consistency?.status === 'ok' && (
        <>
          <p className="fx-log-status" data-testid="log-consistent">
            {consistency.from === null
              ? t('transparency.firstSeen')
              : consistency.from === consistency.checkpoint.size
                ? t('transparency.same', { size: consistency.checkpoint.size })
                : t('transparency.grew', { from: consistency.from, to: consistency.checkpoint.size })}
          </p>
          <dl className="fx-log-facts">
            <dt>{t('transparency.logKey')}</dt>
            <dd>
              <code className="fx-log-wrap" data-testid="log-key">
                {consistency.key.text}
              </code>
            </dd>
            <dt>{t('transparency.checkpointHeld')}</dt>
            <dd data-testid="log-checkpoint">
              <span>
                {t('transparency.size')}:{' '}
                <strong data-testid="log-checkpoint-size">{consistency.checkpoint.size}</strong>
              </span>
              <span>
                {t('transparency.root')}: <code className="fx-log-wrap">{consistency.checkpoint.root}</code>
              </span>
              <span>
                {t('transparency.madeAt')}: {formatRecordTime(consistency.checkpoint.time)}
              </span>
              <span>
                {t('transparency.verifiedAt')}: {formatRecordTime(consistency.checkpoint.verifiedAt)}
              </span>
              {consistency.cosigners.length > 0 && (
                <span>{t('transparency.cosigned', { names: consistency.cosigners.join(', ') })}</span>
              )}
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}

/**
 * The signed-in user's balances in the latest liabilities snapshot, checked in this browser against the
 * held checkpoint: verified, the warning, nothing to prove, or no snapshot yet.
 */
export function MyLiabilities() {
  const { t } = useTranslation();
  const consistency = useLogConsistency();
  const held = heldCheckpoint(consistency.data);
  const check = useQuery({
    queryKey: ['transparency', 'my-liabilities', held?.size ?? 0, held?.root ?? ''],
    queryFn: ({ signal }) => checkMyLiabilities(held!, signal),
    enabled: held !== null,
    retry: false,
  });
  const result = check.data;
  return (
    <div
      className="fx-log-mine"
      data-testid="my-liabilities"
      data-result={check.isError ? 'error' : (result?.result ?? 'checking')}
    >
      <h2 className="fx-wallet-panel-title">{t('transparency.myTitle')}</h2>
      {held === null ? (
        <ConsistencyStatus query={consistency} />
      ) : check.isPending ? (
        <div className="fx-log-muted">
          <Spin size="small" /> {t('transparency.myChecking')}
        </div>
      ) : check.isError ? (
        <Alert
          type="warning"
          showIcon
          title={t('transparency.loadError')}
          description={check.error.message}
        />
      ) : result?.result === 'verified' ? (
        <Alert
          type="success"
          showIcon
          title={t('transparency.myVerified', { date: formatRecordTime(result.time) })}
          description={
            <>
              <p>{t('transparency.myVerifiedDetail')}</p>
              <p className="fx-log-muted">{t('transparency.myAmounts')}</p>
              <ul className="fx-log-amounts">
                {result.amounts
                  .filter((item) => item.amount !== 0n)
                  .map((item) => (
                    <li key={item.column}>
                      <span>{item.column}</span> <code>{item.amount.toString()}</code>
                    </li>
                  ))}
              </ul>
            </>
          }
        />
      ) : result?.result === 'failed' ? (
        <Alert
          type="error"
          showIcon
          title={t('transparency.myFailed', { reason: t(`transparency.reason.${result.reason}`) })}
        />
      ) : result?.result === 'nothing' ? (
        <Alert
          type="info"
          showIcon
          title={t('transparency.myNothing', { date: formatRecordTime(result.time) })}
        />
      ) : result?.result === 'pending' ? (
        <Alert type="info" showIcon title={t('transparency.pending')} />
      ) : (
        <Alert type="info" showIcon title={t('transparency.none')} />
      )}
    </div>
  );
}
