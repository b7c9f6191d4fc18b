import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Steps, Tag } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import type { P2pAd, P2pConfig, P2pMerchantStats, P2pMethod, P2pOrderStatus } from '../../data/p2p.ts';
import { dateTimeOf } from '../../components/trading/display.ts';
import { formatFixed, groupThousands } from '../../format/index.ts';
import { countdownText, splitDuration, stepOf } from './p2p-math.ts';

// The parts the P2P screens share: a clock, the countdown to the payment window's end, the order stepper,
// payment method tags, the merchant's statistics line and the ad card of the ad book.

/**
 * A dialog's send: `busy` while `action` runs, and the failure's message as `error` (cleared at each send);
 * `setError` also shows a problem found before sending.
 */
export function useSend() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, send };
}

/** The current time, ticking every `intervalMs` (for countdowns). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Time left until a recorded deadline; turns red in the last minute. */
export function Countdown({ deadline, testId }: { deadline: number; testId?: string }) {
  const now = useNow(1000);
  const left = deadline - now;
  return (
    <span
      className={left < 60_000 ? 'fx-p2p-countdown is-urgent' : 'fx-p2p-countdown'}
      data-testid={testId ?? 'p2p-countdown'}
      role="timer"
    >
      <ClockCircleOutlined /> {countdownText(left)}
    </span>
  );
}

/** Pay, release, done: where an order stands (an appeal or a cancellation marks its step red). */
export function StatusStepper({ status, mySide }: { status: P2pOrderStatus; mySide: 'buy' | 'sell' }) {
  const { t } = useTranslation();
  const { step, error } = stepOf(status);
  const last = status === 'cancelled' ? t('p2p.status.cancelled') : t('p2p.step.done');
  return (
    <Steps
      size="small"
      responsive={false}
      titlePlacement="vertical"
      className="fx-p2p-steps"
      current={step}
      status={error ? 'error' : step === 2 ? 'finish' : 'process'}
      items={[
        { title: mySide === 'buy' ? t('p2p.step.pay') : t('p2p.step.awaitPayment') },
        {
          title:
            status === 'appealed'
              ? t('p2p.status.appealed')
              : mySide === 'buy'
                ? t('p2p.step.awaitRelease')
                : t('p2p.step.release'),
        },
        { title: last },
      ]}
    />
  );
}

const METHOD_COLOURS: Record<P2pMethod, string> = { bank: 'gold', ali_pay: 'blue', we_chat: 'green' };

export function MethodTag({ method }: { method: P2pMethod }) {
  const { t } = useTranslation();
  return (
    <Tag color={METHOD_COLOURS[method]} className="fx-p2p-method" data-testid={`p2p-method-${method}`}>
      {t(`p2p.method.${method}`)}
    </Tag>
  );
}

/** Completed orders, the 30-day completion rate and the average release time, from recorded orders. */
export function MerchantLine({ stats }: { stats: P2pMerchantStats }) {
  const { t } = useTranslation();
  const release = stats.avg_release_seconds === null ? null : splitDuration(stats.avg_release_seconds);
  return (
    <span className="fx-p2p-merchant-line">
      <span>{t('p2p.stats.completed', { n: stats.completed })}</span>
      <span className="fx-p2p-dot" aria-hidden="true">
        ·
      </span>
      <span>
        {stats.completion_rate_30d === null
          ? t('p2p.stats.noRate')
          : t('p2p.stats.rate', { rate: formatFixed(stats.completion_rate_30d, 2) })}
      </span>
      <span className="fx-p2p-dot" aria-hidden="true">
        ·
      </span>
      <span>
        {release === null
          ? t('p2p.stats.noRelease')
          : t('p2p.stats.release', { minutes: release.minutes, seconds: release.seconds })}
      </span>
      <span className="fx-p2p-dot" aria-hidden="true">
        ·
      </span>
      <span data-testid="p2p-merchant-positive">
        {stats.positive_rate === null
          ? t('p2p.stats.noRatings')
          : t('p2p.stats.positive', { rate: formatFixed(stats.positive_rate, 2), n: stats.feedback_count })}
      </span>
    </span>
  );
}

/** An avatar letter for a merchant's nickname. */
export function Avatar({ name }: { name: string }) {
  return (
    <span className="fx-p2p-avatar" aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

export interface AdCardProps {
  ad: P2pAd;
  /** The taker's side: buy on a sell ad. */
  takerSide: 'buy' | 'sell';
  /** The viewer's own ad cannot be taken. */
  own: boolean;
  onTake: (ad: P2pAd) => void;
  /** When the reference a floating ad follows was set (ms), null when unknown. */
  referenceTime?: number | null;
}

/** When the reference price an ad's asset and fiat follow was set, from the P2P configuration. */
export function referenceTimeOf(config: P2pConfig | undefined, ad: Pick<P2pAd, 'currency_id' | 'fiat'>) {
  return (
    config?.references.find((item) => item.currency_id === ad.currency_id && item.fiat === ad.fiat)?.time ??
    null
  );
}

/**
 * A floating ad's rule and its reference's age: "Reference +1.5% · reference set 2026-12-07 10:00:00". A
 * floating price is only as fresh as the reference the back office last set, so the date is always shown.
 */
export function FloatingNote({ ad, referenceTime }: { ad: P2pAd; referenceTime: number | null | undefined }) {
  const { t } = useTranslation();
  if (ad.price_type !== 'floating' || ad.float_percent === null) return null;
  const percent = ad.float_percent.startsWith('-') ? ad.float_percent : `+${ad.float_percent}`;
  return (
    <span className="fx-p2p-float" data-testid="p2p-float-note">
      {' '}
      {t('p2p.floating', { percent })}
      {referenceTime !== null && referenceTime !== undefined && (
        <> · {t('p2p.referenceSet', { time: dateTimeOf(referenceTime) })}</>
      )}
    </span>
  );
}

/** The "demo" tag of a demo account (DEMO=on, the seeded merchant), with what it means on hover. */
export function DemoTag() {
  const { t } = useTranslation();
  return (
    <Tag color="gold" className="fx-p2p-demo-tag" title={t('p2p.demoHint')} data-testid="p2p-demo-tag">
      {t('p2p.demoTag')}
    </Tag>
  );
}

/** One ad of the book: merchant and statistics, price, what is left, per-order limits, methods, action. */
export function AdCard({ ad, takerSide, own, onTake, referenceTime }: AdCardProps) {
  const { t } = useTranslation();
  return (
    <article className="fx-p2p-ad" data-testid={`p2p-ad-${ad.id}`}>
      <div className="fx-p2p-ad-merchant">
        <Avatar name={ad.merchant.nickname} />
        <div>
          <div className="fx-p2p-ad-name">
            {ad.merchant.nickname}
            {ad.merchant.demo === true && <DemoTag />}
            {ad.acceptor && (
              <Tag color="purple" className="fx-p2p-acceptor-tag">
                {t('p2p.acceptor')}
              </Tag>
            )}
          </div>
          <MerchantLine stats={ad.merchant} />
        </div>
      </div>
      <div className="fx-p2p-ad-price">
        <span className="fx-p2p-label">{t('p2p.price')}</span>
        <strong data-testid="p2p-ad-price">
          {ad.price} <small>{ad.fiat}</small>
        </strong>
        <FloatingNote ad={ad} referenceTime={referenceTime} />
      </div>
      <div className="fx-p2p-ad-limits">
        <div>
          <span className="fx-p2p-label">{t('p2p.available')}</span> {groupThousands(ad.available)}{' '}
          {ad.currency_name}
        </div>
        <div>
          <span className="fx-p2p-label">{t('p2p.limits')}</span> {groupThousands(ad.min_fiat)} -{' '}
          {groupThousands(ad.max_fiat)} {ad.fiat}
        </div>
        <div className="fx-p2p-label">{t('p2p.windowMinutes', { minutes: ad.window_minutes })}</div>
      </div>
      <div className="fx-p2p-ad-methods">
        {ad.methods.map((method) => (
          <MethodTag key={method} method={method} />
        ))}
      </div>
      <div className="fx-p2p-ad-action">
        <Button
          type="primary"
          className={takerSide === 'buy' ? 'fx-p2p-buy' : 'fx-p2p-sell'}
          disabled={own || ad.status !== 'online'}
          onClick={() => onTake(ad)}
          data-testid={`p2p-take-${ad.id}`}
        >
          {own
            ? t('p2p.ownAd')
            : takerSide === 'buy'
              ? t('p2p.buyAsset', { asset: ad.currency_name })
              : t('p2p.sellAsset', { asset: ad.currency_name })}
        </Button>
      </div>
    </article>
  );
}
