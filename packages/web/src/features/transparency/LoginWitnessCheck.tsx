import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useMessage } from '../../app/message.tsx';
import { formatRecordTime } from '../price-record/record-format.ts';
import { checkMyLiabilities } from './checks.ts';
import { CONSISTENCY_KEY, CONSISTENCY_STALE_MS, ensureConsistent } from './keeper.ts';

// The check LoginWitness.tsx loads for a signed-in reader. It runs once per user and browser session (the
// page reloads after a login, so the mark lives in session storage), and stays silent when there is
// nothing to say: no snapshot yet, nothing to prove, not yet in a held checkpoint, or the log unreachable.

const MARK = 'fairex_log_checked';
const FAILURE_SECONDS = 12;

function checkedFor(userId: string): boolean {
  try {
    return globalThis.sessionStorage.getItem(MARK) === userId;
  } catch {
    return false;
  }
}

function markChecked(userId: string): void {
  try {
    globalThis.sessionStorage.setItem(MARK, userId);
  } catch {
    // Without session storage the check simply runs again on the next page.
  }
}

export default function LoginWitnessCheck({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (checkedFor(userId)) return undefined;
    const controller = new AbortController();
    void (async () => {
      // The same run as the page's own views, when they ask at the same time.
      const consistency = await queryClient.fetchQuery({
        queryKey: CONSISTENCY_KEY,
        queryFn: ({ signal }) => ensureConsistent(undefined, signal),
        staleTime: CONSISTENCY_STALE_MS,
        retry: false,
      });
      markChecked(userId);
      // The toasts are drawn outside the router, so the link is a plain one.
      const more = <a href="/transparency">{t('witness.more')}</a>;
      if (consistency.status !== 'ok') {
        if (consistency.status === 'unsupported') return;
        void message.open({
          type: 'error',
          content: (
            <span data-testid="login-witness" data-result="log">
              {t('witness.log')} {more}
            </span>
          ),
          duration: FAILURE_SECONDS,
        });
        return;
      }
      const mine = await checkMyLiabilities(consistency.checkpoint, controller.signal);
      if (mine.result === 'verified') {
        void message.open({
          type: 'success',
          content: (
            <span data-testid="login-witness" data-result="verified">
              {t('witness.verified', { date: formatRecordTime(mine.time) })}
            </span>
          ),
        });
      } else if (mine.result === 'failed') {
        void message.open({
          type: 'error',
          content: (
            <span data-testid="login-witness" data-result="failed">
              {t('witness.failed')} {more}
            </span>
          ),
          duration: FAILURE_SECONDS,
        });
      }
    })().catch(() => undefined);
    return () => controller.abort();
  }, [userId, t, message, queryClient]);
  return null;
}
