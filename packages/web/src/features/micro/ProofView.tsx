import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Modal } from 'antd';
import type { MicroProof } from '@fairex/shared';
import { formatRecordTime, shortHash } from '../price-record/record-format.ts';
import { verifyProof, type Verification } from '../price-record/canonical.ts';
import { fetchMicroProof } from '../../data/micro.ts';
import { recompute } from './micro-math.ts';
import { SimulatedBadgeText } from '../../components/SimulatedPrices.tsx';
import { heldCheckpoint, useLogConsistency, useRefreshWhilePending } from '../transparency/LogViews.tsx';
import { checkSampleInLog } from '../transparency/checks.ts';

// "Verify": a settled order's two recorded samples, their place in the price record (the chain from the open
// sample to the head that came with the proof, each hash recomputed in this browser), each sample's place
// in the exchange's transparency log (checked against the checkpoint this browser holds, once the log has
// been checked against what this browser saw before), the rule, and the result recomputed here.

export function ProofView({ orderId, onClose }: { orderId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const proof = useQuery({
    queryKey: ['micro', 'proof', orderId],
    queryFn: ({ signal }) => fetchMicroProof(orderId as number, signal),
    enabled: orderId !== null,
    retry: false,
  });
  const verification = useQuery({
    queryKey: ['micro', 'proof-check', orderId, proof.data?.proof?.head.hash],
    queryFn: () => verifyProof({ symbol: proof.data!.symbol, ...proof.data!.proof! }),
    enabled: proof.data?.proof != null,
  });
  return (
    <Modal
      open={orderId !== null}
      onCancel={onClose}
      footer={null}
      width={720}
      title={t('micro.proofTitle', { id: orderId ?? '' })}
    >
      {proof.isPending && <div>{t('micro.loading')}</div>}
      {proof.error && <div role="alert">{proof.error.message}</div>}
      {proof.data && <ProofBody proof={proof.data} verification={verification.data} />}
    </Modal>
  );
}

type SampleInLog = NonNullable<MicroProof['open']>;

/**
 * One recorded sample in the log. Its hash is the one the chain check above recomputes (when the chain
 * holds it); here the log must name that hash for the sample in an entry included in the held checkpoint.
 */
function LogLine({ symbol, label, sample }: { symbol: string; label: string; sample: SampleInLog }) {
  const { t } = useTranslation();
  const consistency = useLogConsistency();
  const held = heldCheckpoint(consistency.data);
  const check = useQuery({
    queryKey: ['micro', 'log', symbol, sample.seq, sample.hash, held?.size ?? 0, held?.root ?? ''],
    queryFn: ({ signal }) => checkSampleInLog(symbol, sample.seq, sample.hash, held!, signal),
    enabled: held !== null,
    retry: false,
  });
  const result = check.data;
  useRefreshWhilePending(result?.result === 'pending');
  let text: string;
  if (consistency.data !== undefined && consistency.data.status !== 'ok') text = t('micro.logBlocked');
  else if (check.isError) text = `${label}: ${check.error.message}`;
  else if (result === undefined) text = t('micro.logChecking');
  else if (result.result === 'included')
    text = t('micro.logIncluded', { label, index: result.index, size: result.size });
  else if (result.result === 'before-log') text = t('micro.logBeforeLog', { label });
  else if (result.result === 'pending') text = t('micro.logPending', { label });
  else text = t('micro.logMismatch', { label });
  return (
    <li data-testid="micro-proof-log" data-result={result?.result ?? 'checking'}>
      {text}
    </li>
  );
}

function ProofBody({ proof, verification }: { proof: MicroProof; verification: Verification | undefined }) {
  const { t } = useTranslation();
  const mine = recompute(proof);
  const agrees = mine.outcome === proof.outcome && mine.payout === proof.payout;
  const sample = (label: string, value: MicroProof['open']) => (
    <tr>
      <th>{label}</th>
      <td>{value === null ? '-' : value.seq}</td>
      <td>{value === null ? '-' : formatRecordTime(value.time)}</td>
      <td>{value?.price ?? '-'}</td>
      <td>{value === null ? '-' : value.stale ? t('micro.stale') : t('micro.fresh')}</td>
      <td className="fx-micro-hash">{value === null ? '-' : shortHash(value.hash)}</td>
    </tr>
  );
  // Older proofs (served before v2) carry no settles_on: rule v1 settled on the mark.
  const onIndex =
    (proof.settles_on ?? (proof.rule_version === 'fairex-micro-v1' ? 'mark' : 'index')) === 'index';
  return (
    <div className="fx-micro-proof" data-testid="micro-proof">
      <SimulatedBadgeText simulated={proof.simulated_prices === true} />
      <p>
        {t('micro.proofOrder', {
          symbol: proof.symbol,
          direction: t(proof.type === 1 ? 'micro.up' : 'micro.down'),
          number: proof.number,
          currency: proof.currency_name,
          seconds: proof.seconds,
        })}
      </p>
      <p>
        {t('micro.proofTimes', {
          accepted: formatRecordTime(proof.accepted_time),
          expiry: formatRecordTime(proof.expiry_time),
        })}
      </p>
      <table className="fx-micro-proof-table">
        <thead>
          <tr>
            <th />
            <th>{t('micro.seq')}</th>
            <th>{t('micro.time')}</th>
            <th>{t(onIndex ? 'micro.indexPrice' : 'micro.markPrice')}</th>
            <th>{t('micro.state')}</th>
            <th>{t('micro.hash')}</th>
          </tr>
        </thead>
        <tbody>
          {sample(t('micro.openSample'), proof.open)}
          {sample(t('micro.endSample'), proof.end)}
        </tbody>
      </table>
      <p className="fx-micro-rule">
        <strong>{proof.rule_version}</strong>: {onIndex ? t('micro.ruleOpen') : t('micro.settlesOnMark')}{' '}
        {t('micro.ruleTie')} {t('micro.ruleVoid')}
      </p>
      <p data-testid="micro-proof-result">
        {t('micro.serverResult', { outcome: t(`micro.outcome.${proof.outcome}`), payout: proof.payout })}{' '}
        {t('micro.recomputed', { outcome: t(`micro.outcome.${mine.outcome}`), payout: mine.payout })}{' '}
        <strong>{agrees ? t('micro.agrees') : t('micro.differs')}</strong>
      </p>
      <p data-testid="micro-proof-chain">
        {proof.proof === null
          ? t('micro.noHeadYet')
          : verification === undefined
            ? t('micro.checking')
            : verification.result === 'verified'
              ? t('micro.chainVerified', { links: verification.links, head: verification.head.seq })
              : t('micro.chainMismatch', { seq: verification.seq })}
      </p>
      <ul className="fx-micro-proof-log">
        {proof.open !== null && (
          <LogLine symbol={proof.symbol} label={t('micro.openSample')} sample={proof.open} />
        )}
        {proof.end !== null && (
          <LogLine symbol={proof.symbol} label={t('micro.endSample')} sample={proof.end} />
        )}
      </ul>
    </div>
  );
}
