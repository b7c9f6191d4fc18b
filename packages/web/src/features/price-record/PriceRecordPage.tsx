import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Select, Spin, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import { CopyOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useCopyText } from '../account/CopyButton.tsx';
import { useMarketChannels, useSocketEvent } from '../../data/feeds.ts';
import { useBoardQuotations, symbolOf } from '../../data/market.ts';
import {
  fetchPriceHeads,
  fetchPriceProof,
  fetchPriceSamples,
  readHead,
  type PriceHead,
  type PriceSample,
} from '../../data/price-record.ts';
import { groupThousands, NO_VALUE } from '../../format/index.ts';
import { chainHash, verifyProof, type Verification } from './canonical.ts';
import { formatRecordTime, fromTimeInput, shortHash, toTimeInput } from './record-format.ts';
import './price-record.css';
import { SimulatedPricesBadge } from '../../components/SimulatedPrices.tsx';
import {
  KeeperCard,
  heldCheckpoint,
  useLogConsistency,
  useRefreshWhilePending,
} from '../transparency/LogViews.tsx';
import { checkSampleInLog, type SampleLogCheck } from '../transparency/checks.ts';
import type { HeldCheckpoint } from '../transparency/keeper.ts';

// The public price record (/priceRecord): how the index and mark prices are made, what this browser holds
// of the exchange's transparency log (checked for consistency with what it saw before, before any proof
// is shown), the latest heads of every market (live on `price_head`), and a look-up of the samples around
// a time. A sample is verified in this browser: its hash is recomputed from its fields, the log entry the
// server names must carry that hash, and the entry must be included in the checkpoint this browser holds.
// The hash chain up to the head that came with the proof is recomputed too, but that head is only the
// chain's end, not evidence of publication. The state of the look-up lives in the address (symbol, at,
// seq), so a proof can be shared as a link.

export const HEADS_SHOWN = 20;
/** The look-up shows this long on each side of the chosen time. */
export const LOOKUP_HALF_WINDOW_MS = 30_000;
/** Heads come on the socket; this repairs any that were missed while the connection was down. */
const HEADS_REFRESH_MS = 60_000;
const SAMPLES_PER_PAGE = 15;

const HEADS_KEY = ['price-record', 'heads'] as const;

function headKey(head: Pick<PriceHead, 'symbol' | 'seq'>): string {
  return `${head.symbol}#${head.seq}`;
}

/** The heads with a new one in front, newest first, without repeats, at most HEADS_SHOWN. */
export function withHead(heads: readonly PriceHead[] | undefined, head: PriceHead): PriceHead[] {
  const others = (heads ?? []).filter((item) => headKey(item) !== headKey(head));
  return [head, ...others].sort((a, b) => b.time - a.time || b.seq - a.seq).slice(0, HEADS_SHOWN);
}

export default function PriceRecordPage() {
  const { t } = useTranslation();
  const quotations = useBoardQuotations();
  const symbols = useMemo(
    () => (quotations.data ?? []).filter((item) => item.is_display === 1).map(symbolOf),
    [quotations.data],
  );
  const heads = useHeads(symbols);
  const consistency = useLogConsistency();
  return (
    <div className="fx-price-record" data-testid="price-record-page">
      <div className="fx-container fx-price-record-inner">
        <header className="fx-price-record-head">
          <h1 className="fx-price-record-title">{t('priceRecord.title')}</h1>
          <SimulatedPricesBadge />
          <p className="fx-price-record-intro">{t('priceRecord.intro')}</p>
        </header>
        <KeeperCard query={consistency} />
        <section className="fx-price-record-card" aria-labelledby="fx-price-recipe">
          <h2 id="fx-price-recipe">{t('priceRecord.recipeTitle')}</h2>
          <p>{t('priceRecord.recipeIndex')}</p>
          <p>{t('priceRecord.recipeMark')}</p>
          <p>{t('priceRecord.recipeHash')}</p>
          <p>{t('priceRecord.recipeLog')}</p>
        </section>
        <HeadsCard heads={heads} />
        <LookupCard
          heads={heads.data ?? []}
          listed={symbols}
          loadingMarkets={quotations.isPending}
          consistency={consistency}
        />
      </div>
    </div>
  );
}

/** The latest heads of every market; a head published on a listed market's channel is added at once. */
function useHeads(symbols: readonly string[]) {
  const queryClient = useQueryClient();
  useMarketChannels(symbols);
  const heads = useQuery({
    queryKey: HEADS_KEY,
    queryFn: ({ signal }) => fetchPriceHeads({ limit: HEADS_SHOWN }, signal),
    refetchInterval: HEADS_REFRESH_MS,
  });
  // A head the server publishes (`price_head`) goes to the top of the list at once.
  useSocketEvent('price_head', (payload) => {
    const head = readHead(payload);
    if (head !== null) queryClient.setQueryData<PriceHead[]>(HEADS_KEY, (current) => withHead(current, head));
  });
  return heads;
}

function CopyHash({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const copy = useCopyText();
  return (
    <span className="fx-price-hash">
      <Tooltip title={hash}>
        <code data-hash={hash}>{shortHash(hash)}</code>
      </Tooltip>
      <Button
        size="small"
        type="text"
        icon={<CopyOutlined />}
        aria-label={t('priceRecord.copy')}
        title={t('priceRecord.copy')}
        onClick={() => void copy(hash)}
      />
    </span>
  );
}

function HeadsCard({ heads }: { heads: ReturnType<typeof useHeads> }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<PriceHead> = [
    { title: t('priceRecord.market'), dataIndex: 'symbol', key: 'symbol' },
    { title: t('priceRecord.seq'), dataIndex: 'seq', key: 'seq', align: 'right' },
    {
      title: t('priceRecord.time'),
      dataIndex: 'time',
      key: 'time',
      render: (time: number) => formatRecordTime(time),
    },
    {
      title: t('priceRecord.hash'),
      dataIndex: 'hash',
      key: 'hash',
      render: (hash: string) => <CopyHash hash={hash} />,
    },
  ];
  return (
    <section className="fx-price-record-card" aria-labelledby="fx-price-heads" data-testid="price-heads">
      <header className="fx-price-record-card-head">
        <h2 id="fx-price-heads">{t('priceRecord.headsTitle')}</h2>
        <Tag color="processing">{t('priceRecord.live')}</Tag>
      </header>
      {heads.isError ? (
        <LoadError message={heads.error.message} onRetry={() => void heads.refetch()} />
      ) : (
        <Table<PriceHead>
          size="small"
          rowKey={headKey}
          columns={columns}
          dataSource={heads.data ?? []}
          loading={heads.isPending}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('priceRecord.headsEmpty') }}
          onRow={(head) => ({ 'data-testid': 'price-head-row', 'data-symbol': head.symbol }) as object}
        />
      )}
    </section>
  );
}

function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      title={t('priceRecord.loadError')}
      description={message}
      action={
        <Button size="small" onClick={onRetry}>
          {t('priceRecord.retry')}
        </Button>
      }
    />
  );
}

function readWhole(text: string | null): number | null {
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : null;
}

function LookupCard({
  heads,
  listed,
  loadingMarkets,
  consistency,
}: {
  heads: readonly PriceHead[];
  listed: readonly string[];
  loadingMarkets: boolean;
  consistency: ReturnType<typeof useLogConsistency>;
}) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const symbols = useMemo(
    () => [...new Set([...listed, ...heads.map((head) => head.symbol)])].sort(),
    [listed, heads],
  );

  const symbol = params.get('symbol');
  const at = readWhole(params.get('at'));
  const seq = readWhole(params.get('seq'));
  const [draftSymbol, setDraftSymbol] = useState<string | null>(symbol);
  const [draftTime, setDraftTime] = useState(() => toTimeInput(at ?? Date.now() - 60_000));
  const chosenSymbol = draftSymbol ?? symbols[0] ?? null;
  const draftMs = fromTimeInput(draftTime);

  const show = () => {
    if (chosenSymbol === null || draftMs === null) return;
    setParams({ symbol: chosenSymbol, at: String(draftMs) });
  };
  const verify = (sample: PriceSample) =>
    setParams({ symbol: sample.symbol, at: String(at ?? sample.time), seq: String(sample.seq) });

  return (
    <section className="fx-price-record-card" aria-labelledby="fx-price-lookup" data-testid="price-lookup">
      <h2 id="fx-price-lookup">{t('priceRecord.lookupTitle')}</h2>
      <p className="fx-price-record-hint">{t('priceRecord.lookupHint')}</p>
      <form
        className="fx-price-lookup-form"
        onSubmit={(event) => {
          event.preventDefault();
          show();
        }}
      >
        <label className="fx-price-field">
          <span>{t('priceRecord.market')}</span>
          <Select
            value={chosenSymbol ?? undefined}
            onChange={(value: string) => setDraftSymbol(value)}
            options={symbols.map((item) => ({ value: item, label: item }))}
            loading={loadingMarkets}
            showSearch
            data-testid="lookup-market"
            aria-label={t('priceRecord.market')}
          />
        </label>
        <label className="fx-price-field">
          <span>{t('priceRecord.time')}</span>
          <Input
            type="datetime-local"
            step={1}
            value={draftTime}
            onChange={(event) => setDraftTime(event.target.value)}
            status={draftMs === null ? 'error' : ''}
            data-testid="lookup-time"
          />
        </label>
        <Button
          type="primary"
          htmlType="submit"
          disabled={chosenSymbol === null || draftMs === null}
          data-testid="lookup-submit"
        >
          {t('priceRecord.show')}
        </Button>
      </form>
      {symbol !== null && at !== null && (
        <SamplesTable symbol={symbol} at={at} selectedSeq={seq} onVerify={verify} />
      )}
      {symbol !== null && seq !== null && (
        <ProofPanel symbol={symbol} seq={seq} at={at} heads={heads} consistency={consistency} />
      )}
    </section>
  );
}

function sourcesText(sample: PriceSample, none: string): string {
  if (sample.sources.length === 0) return none;
  return sample.sources.map((source) => `${source.name} ${groupThousands(source.price)}`).join(' · ');
}

function SamplesTable({
  symbol,
  at,
  selectedSeq,
  onVerify,
}: {
  symbol: string;
  at: number;
  selectedSeq: number | null;
  onVerify: (sample: PriceSample) => void;
}) {
  const { t } = useTranslation();
  const samples = useSamples(symbol, at);
  // The page that holds the chosen sample is shown, so a shared link opens on it.
  const [page, setPage] = useState(1);
  const selectedIndex = samples.data?.findIndex((sample) => sample.seq === selectedSeq) ?? -1;
  useEffect(() => {
    if (selectedIndex >= 0) setPage(Math.floor(selectedIndex / SAMPLES_PER_PAGE) + 1);
  }, [selectedIndex]);
  const price = (text: string | null) => (text === null ? NO_VALUE : groupThousands(text));
  const columns: TableColumnsType<PriceSample> = [
    { title: t('priceRecord.seq'), dataIndex: 'seq', key: 'seq', align: 'right' },
    { title: t('priceRecord.time'), dataIndex: 'time', key: 'time', render: formatRecordTime },
    { title: t('priceRecord.index'), dataIndex: 'index_price', key: 'index', align: 'right', render: price },
    { title: t('priceRecord.mark'), dataIndex: 'mark_price', key: 'mark', align: 'right', render: price },
    {
      title: t('priceRecord.sources'),
      key: 'sources',
      render: (_, sample) => (
        <span className="fx-price-sources">{sourcesText(sample, t('priceRecord.none'))}</span>
      ),
    },
    {
      title: t('priceRecord.state'),
      dataIndex: 'stale',
      key: 'stale',
      render: (stale: boolean) =>
        stale ? <Tag color="warning">{t('priceRecord.stale')}</Tag> : <Tag>{t('priceRecord.fresh')}</Tag>,
    },
    {
      title: t('priceRecord.hash'),
      dataIndex: 'hash',
      key: 'hash',
      render: (hash: string) => <CopyHash hash={hash} />,
    },
    {
      title: '',
      key: 'verify',
      render: (_, sample) => (
        <Button
          size="small"
          icon={<SafetyCertificateOutlined />}
          onClick={() => onVerify(sample)}
          data-testid={`sample-verify-${sample.seq}`}
        >
          {t('priceRecord.verify')}
        </Button>
      ),
    },
  ];
  if (samples.isError)
    return <LoadError message={samples.error.message} onRetry={() => void samples.refetch()} />;
  return (
    <Table<PriceSample>
      className="fx-price-samples"
      size="small"
      rowKey="seq"
      columns={columns}
      dataSource={samples.data ?? []}
      loading={samples.isPending}
      pagination={{
        pageSize: SAMPLES_PER_PAGE,
        current: page,
        onChange: setPage,
        hideOnSinglePage: true,
        showSizeChanger: false,
      }}
      scroll={{ x: 'max-content' }}
      rowClassName={(sample) => (sample.seq === selectedSeq ? 'is-selected' : '')}
      locale={{ emptyText: t('priceRecord.samplesEmpty') }}
      onRow={(sample) => ({ 'data-testid': 'price-sample-row', 'data-seq': sample.seq }) as object}
      data-testid="price-samples"
    />
  );
}

/** The samples of the minute around `at`; the table and the proof share the one query. */
function useSamples(symbol: string, at: number | null) {
  return useQuery({
    queryKey: ['price-record', 'samples', symbol, at],
    queryFn: ({ signal }) =>
      fetchPriceSamples(symbol, at! - LOOKUP_HALF_WINDOW_MS, at! + LOOKUP_HALF_WINDOW_MS, signal),
    enabled: at !== null,
  });
}

type ProofState =
  { state: 'loading' } | { state: 'uncovered' } | { state: 'error'; message: string } | Verification;

/** A sample's proof: the chain from it to the first head that covers it, as the server gives it. */
function useProofQuery(symbol: string, seq: number) {
  return useQuery({
    queryKey: ['price-record', 'proof', symbol, seq],
    queryFn: ({ signal }) => fetchPriceProof(symbol, seq, signal),
    retry: false,
  });
}

/** Fetches a sample's proof and checks it in this browser. */
export function useProof(symbol: string, seq: number, heads: readonly PriceHead[]): ProofState {
  const proof = useProofQuery(symbol, seq);
  const published = proof.data
    ? heads.find((head) => head.symbol === symbol && head.seq === proof.data.head.seq)
    : undefined;
  const verification = useQuery({
    queryKey: ['price-record', 'verification', symbol, seq, proof.dataUpdatedAt, published?.hash ?? ''],
    queryFn: () => verifyProof(proof.data!, published),
    enabled: proof.data !== undefined,
    staleTime: Infinity,
    retry: false,
  });
  if (proof.isError) {
    // The server refuses a sample no published head covers yet; the heads the page knows say so too.
    const covering = heads.some((head) => head.symbol === symbol && head.seq >= seq);
    return covering ? { state: 'error', message: proof.error.message } : { state: 'uncovered' };
  }
  if (verification.isError) return { state: 'error', message: verification.error.message };
  return verification.data ?? { state: 'loading' };
}

type LogState =
  | { state: 'loading' }
  | { state: 'blocked' }
  | { state: 'missing' }
  | { state: 'hash' }
  | { state: 'error'; message: string }
  | SampleLogCheck;

/**
 * The sample in the log: its fields (from the look-up, or from the proof's chain) are hashed here, and that
 * hash must be in a log entry included in the checkpoint this browser holds. Nothing is checked until the
 * keeper has checked the log against what this browser saw before.
 */
export function useSampleInLog(
  symbol: string,
  seq: number,
  at: number | null,
  proofSamples: readonly PriceSample[] | undefined,
  held: HeldCheckpoint | null,
  blocked: boolean,
): LogState {
  const samples = useSamples(symbol, at);
  const sample =
    samples.data?.find((item) => item.seq === seq) ?? proofSamples?.find((item) => item.seq === seq);
  const check = useQuery({
    queryKey: ['price-record', 'log', symbol, seq, sample?.hash ?? '', held?.size ?? 0, held?.root ?? ''],
    queryFn: async ({ signal }): Promise<LogState> => {
      const hash = await chainHash(sample!.prev_hash, sample!);
      if (hash !== sample!.hash) return { state: 'hash' };
      return checkSampleInLog(symbol, seq, hash, held!, signal);
    },
    enabled: sample !== undefined && held !== null,
    retry: false,
  });
  if (blocked) return { state: 'blocked' };
  if (sample === undefined) {
    const settled = (at === null || !samples.isPending) && proofSamples !== undefined;
    return settled ? { state: 'missing' } : { state: 'loading' };
  }
  if (check.isError) return { state: 'error', message: check.error.message };
  return check.data ?? { state: 'loading' };
}

function ProofPanel({
  symbol,
  seq,
  at,
  heads,
  consistency,
}: {
  symbol: string;
  seq: number;
  at: number | null;
  heads: readonly PriceHead[];
  consistency: ReturnType<typeof useLogConsistency>;
}) {
  const { t } = useTranslation();
  const proof = useProof(symbol, seq, heads);
  const proofQuery = useProofQuery(symbol, seq);
  const held = heldCheckpoint(consistency.data);
  const blocked = consistency.data !== undefined && consistency.data.status !== 'ok';
  const proofSamples = proofQuery.isPending ? undefined : (proofQuery.data?.samples ?? []);
  const log = useSampleInLog(symbol, seq, at, proofSamples, held, blocked);
  const reasons = {
    hash: t('priceRecord.reasonHash'),
    link: t('priceRecord.reasonLink'),
    order: t('priceRecord.reasonOrder'),
    head: t('priceRecord.reasonHead'),
  };
  const logKind = 'result' in log ? log.result : log.state;
  useRefreshWhilePending(logKind === 'pending');
  const kind = logKind === 'included' ? 'verified' : logKind;
  const chainKind = 'result' in proof ? proof.result : proof.state;
  return (
    <div
      className="fx-price-proof"
      data-testid="proof-result"
      data-result={kind}
      data-chain={chainKind}
      aria-live="polite"
    >
      <h3>{t('priceRecord.proofTitle', { seq })}</h3>
      <div data-testid="proof-log">
        {'state' in log && log.state === 'loading' && (
          <div className="fx-price-record-hint">
            <Spin size="small" /> {t('priceRecord.verifying')}
          </div>
        )}
        {'state' in log && log.state === 'blocked' && (
          <Alert type="error" showIcon title={t('priceRecord.logBlocked')} />
        )}
        {'state' in log && log.state === 'missing' && (
          <Alert type="info" showIcon title={t('priceRecord.sampleMissing')} />
        )}
        {'state' in log && log.state === 'hash' && (
          <Alert type="error" showIcon title={t('priceRecord.mismatch', { seq, reason: reasons.hash })} />
        )}
        {'state' in log && log.state === 'error' && (
          <Alert type="warning" showIcon title={t('priceRecord.proofError')} description={log.message} />
        )}
        {'result' in log && log.result === 'included' && (
          <Alert
            type="success"
            showIcon
            title={t('priceRecord.verified', { index: log.index, size: log.size })}
          />
        )}
        {'result' in log && log.result === 'pending' && (
          <Alert type="info" showIcon title={t('priceRecord.logPending')} />
        )}
        {'result' in log && log.result === 'before-log' && (
          <Alert type="info" showIcon title={t('priceRecord.beforeLog')} />
        )}
        {'result' in log && log.result === 'mismatch' && (
          <Alert
            type="error"
            showIcon
            title={t(log.reason === 'entry' ? 'priceRecord.logEntry' : 'priceRecord.logInclusion')}
          />
        )}
      </div>
      <div className="fx-price-proof-chain" data-testid="proof-chain">
        {'state' in proof && proof.state === 'uncovered' && (
          <p className="fx-price-record-hint">{t('priceRecord.uncovered')}</p>
        )}
        {'state' in proof && proof.state === 'error' && (
          <p className="fx-price-record-hint">
            {t('priceRecord.proofError')} {proof.message}
          </p>
        )}
        {'result' in proof && proof.result === 'verified' && (
          <p className="fx-price-record-hint">
            {t('priceRecord.chainLead', {
              links: proof.links,
              seq: proof.head.seq,
              time: formatRecordTime(proof.head.time),
            })}{' '}
            <CopyHash hash={proof.head.hash} />
          </p>
        )}
        {'result' in proof && proof.result === 'mismatch' && (
          <Alert
            type="error"
            showIcon
            title={t('priceRecord.mismatch', { seq: proof.seq, reason: reasons[proof.reason] })}
          />
        )}
      </div>
    </div>
  );
}
