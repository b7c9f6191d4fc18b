// Reads of the price record (docs/price-record.md) for /api/price/*: samples by time, published heads,
// proofs (a sample's chain up to the first head that covers it) and bars of the mark price. Prices are
// formatted with the engine's own formatTicks at the market's tick, the very text the engine hashed.
import { formatTicks } from '@fairex/engine';
import type { Engine } from '@fairex/engine';
import type {
  MarkBar,
  MarkBarPeriod,
  MarkIndexFields,
  PriceHead,
  PriceSample,
  PriceSampleSource,
} from '@fairex/shared';
import type { Queryable } from '../store/index.ts';
import type { MarketInfo } from './market-catalog.ts';
import { SHANGHAI_OFFSET_MS, nominalLengthMs } from './periods.ts';

type SampleRow = {
  seq: bigint | number;
  time_ms: bigint | number;
  source_time_ms: bigint | number | null;
  index_ticks: bigint | number | null;
  mark_ticks: bigint | number | null;
  sources: string;
  stale: boolean;
  prev_hash: string;
  hash: string;
};

const SAMPLE_COLUMNS =
  'seq, time_ms, source_time_ms, index_ticks, mark_ticks, sources, stale, prev_hash, hash';

/** The tick size the engine formats the market's prices with. */
function tickSizeOf(engine: Engine, market: MarketInfo): string {
  const tickSize = engine.spot.market(market.marketId)?.tickSize;
  if (tickSize === undefined) throw new Error(`market ${market.marketId} is not in the engine`);
  return tickSize;
}

function toSample(row: SampleRow, symbol: string, tickSize: string): PriceSample {
  const price = (ticks: bigint | number | null) =>
    ticks === null ? null : formatTicks(Number(ticks), tickSize);
  const sources = (JSON.parse(row.sources) as [string, number, number][]).map(
    ([name, priceTicks, timeMs]): PriceSampleSource => ({
      name,
      price: formatTicks(priceTicks, tickSize),
      time: timeMs,
    }),
  );
  return {
    symbol,
    seq: Number(row.seq),
    time: Number(row.time_ms),
    source_time: row.source_time_ms === null ? null : Number(row.source_time_ms),
    index_price: price(row.index_ticks),
    mark_price: price(row.mark_ticks),
    sources,
    stale: row.stale,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

/** At most `limit` samples with time in [fromMs, toMs], oldest first. */
export async function samplesInRange(
  db: Queryable,
  engine: Engine,
  market: MarketInfo,
  fromMs: number,
  toMs: number,
  limit: number,
): Promise<PriceSample[]> {
  const { rows } = await db.query<SampleRow>(
    `select ${SAMPLE_COLUMNS} from price_samples
      where market_id = $1 and time_ms >= $2 and time_ms <= $3 order by time_ms, seq limit $4`,
    [market.marketId, fromMs, toMs, limit],
  );
  const tickSize = tickSizeOf(engine, market);
  return rows.map((row) => toSample(row, market.symbol, tickSize));
}

/** Published heads, newest first; of one market, or of every market. */
export async function publishedHeads(
  db: Queryable,
  symbolOf: (marketId: number) => string | undefined,
  marketId: number | undefined,
  limit: number,
): Promise<PriceHead[]> {
  const { rows } = await db.query<{
    market_id: number;
    seq: bigint | number;
    time_ms: bigint | number;
    hash: string;
  }>(
    marketId === undefined
      ? 'select market_id, seq, time_ms, hash from price_heads order by time_ms desc, market_id limit $1'
      : `select market_id, seq, time_ms, hash from price_heads where market_id = $2
          order by seq desc limit $1`,
    marketId === undefined ? [limit] : [limit, marketId],
  );
  const heads: PriceHead[] = [];
  for (const row of rows) {
    const symbol = symbolOf(row.market_id);
    if (symbol === undefined) continue;
    heads.push({ symbol, seq: Number(row.seq), time: Number(row.time_ms), hash: row.hash });
  }
  return heads;
}

export type ProofResult =
  | { kind: 'proof'; head: PriceHead; samples: PriceSample[] }
  | { kind: 'unknownSample' }
  | { kind: 'notCovered' };

/**
 * The chain from sample `seq` up to and including the first published head at or after it; with `fromSeq`
 * (an earlier sample of the market), the chain starts there instead, still ending at that head.
 */
export async function proofOf(
  db: Queryable,
  engine: Engine,
  market: MarketInfo,
  seq: number,
  fromSeq: number = seq,
): Promise<ProofResult> {
  const head = await db.query<{ seq: bigint | number; time_ms: bigint | number; hash: string }>(
    'select seq, time_ms, hash from price_heads where market_id = $1 and seq >= $2 order by seq limit 1',
    [market.marketId, seq],
  );
  const row = head.rows[0];
  if (row === undefined) {
    const latest = engine.market.priceChain(market.marketId)?.latest.seq ?? 0;
    return seq > latest ? { kind: 'unknownSample' } : { kind: 'notCovered' };
  }
  const headSeq = Number(row.seq);
  const { rows } = await db.query<SampleRow>(
    `select ${SAMPLE_COLUMNS} from price_samples where market_id = $1 and seq >= $2 and seq <= $3 order by seq`,
    [market.marketId, Math.min(fromSeq, seq), headSeq],
  );
  const tickSize = tickSizeOf(engine, market);
  return {
    kind: 'proof',
    head: { symbol: market.symbol, seq: headSeq, time: Number(row.time_ms), hash: row.hash },
    samples: rows.map((sample) => toSample(sample, market.symbol, tickSize)),
  };
}

/**
 * Bars of the mark price from the samples (stale samples skipped), oldest first, at most `limit`: open is
 * the mark of the bucket's first sample, close of its last. Minute and hour buckets start at multiples of
 * their length since the epoch, day buckets at midnight Asia/Shanghai, as the trade candles do.
 */
export async function markBars(
  db: Queryable,
  engine: Engine,
  market: MarketInfo,
  period: MarkBarPeriod,
  fromMs: number,
  toMs: number,
  limit: number,
): Promise<MarkBar[]> {
  const lengthMs = nominalLengthMs(period);
  // Buckets are aligned like bucketStartMs: the offset moves day buckets to midnight in Shanghai.
  const offsetMs = period === '1day' ? SHANGHAI_OFFSET_MS : 0;
  const { rows } = await db.query<{
    bucket: bigint | number;
    open: bigint | number;
    high: bigint | number;
    low: bigint | number;
    close: bigint | number;
  }>(
    `select bucket, (array_agg(mark_ticks order by seq))[1] as open, max(mark_ticks) as high,
            min(mark_ticks) as low, (array_agg(mark_ticks order by seq desc))[1] as close
       from (select ((time_ms + $4) / $5) * $5 - $4 as bucket, seq, mark_ticks from price_samples
              where market_id = $1 and time_ms >= $2 and time_ms <= $3 and not stale and mark_ticks is not null)
            as samples
      group by bucket order by bucket limit $6`,
    [market.marketId, fromMs, toMs, offsetMs, lengthMs, limit],
  );
  const tickSize = tickSizeOf(engine, market);
  const price = (ticks: bigint | number) => formatTicks(Number(ticks), tickSize);
  return rows.map((row) => [
    Number(row.bucket),
    price(row.open),
    price(row.high),
    price(row.low),
    price(row.close),
  ]);
}

/** The latest sample's mark and index of a market as decimal text (null before its first good sample). */
export function markIndexFields(engine: Engine, market: Pick<MarketInfo, 'marketId'>): MarkIndexFields {
  const mark = engine.market.markPrice(market.marketId);
  const tickSize = engine.spot.market(market.marketId)?.tickSize;
  if (mark === undefined || tickSize === undefined) return { mark_price: null, index_price: null };
  return {
    mark_price: mark.markTicks === null ? null : formatTicks(mark.markTicks, tickSize),
    index_price: mark.indexTicks === null ? null : formatTicks(mark.indexTicks, tickSize),
  };
}
