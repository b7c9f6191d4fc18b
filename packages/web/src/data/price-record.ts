import type { PriceHead, PriceProofMessage as PriceProof, PriceSample, PriceSampleSource as PriceSource } from '@fairex/shared';
import { api } from './api.ts';
import { badResponse, decimalOrNull, isDecimal, isRecord, isWhole } from './mark-price.ts';

const HASH = /^[0-9a-f]{64}$/;

// The public price record (docs/price-record.md): every second each market's index price (the median of
// its configured sources) and mark price are sampled into a hash chain, and the chain's head is published
// once a minute. The screens read it through these calls only. Prices stay the decimal strings the server
// sent; an answer that does not have the documented shape is refused rather than guessed at. The mark
// and index figures the trading screens show, and the chart's mark bars, are in mark-price.ts.

// The shapes are the server's own (packages/shared/src/api/price.ts); this module only checks them.
export type {
  PriceSampleSource as PriceSource,
  PriceSample,
  PriceHead,
  PriceProofMessage as PriceProof,
} from '@fairex/shared';

export function readHead(value: unknown): PriceHead | null {
  if (!isRecord(value)) return null;
  const { symbol, seq, time, hash } = value;
  if (typeof symbol !== 'string' || !isWhole(seq) || !isWhole(time) || typeof hash !== 'string') return null;
  if (!HASH.test(hash)) return null;
  return { symbol, seq, time, hash };
}

function readSource(value: unknown): PriceSource | null {
  if (!isRecord(value)) return null;
  const { name, price, time } = value;
  if (typeof name !== 'string' || !isDecimal(price) || !isWhole(time)) return null;
  return { name, price, time };
}

export function readSample(value: unknown): PriceSample | null {
  if (!isRecord(value)) return null;
  const head = readHead(value);
  const index = decimalOrNull(value.index_price);
  const mark = decimalOrNull(value.mark_price);
  const prev = value.prev_hash;
  if (head === null || index === undefined || mark === undefined) return null;
  const sourceTime = value.source_time;
  if ((sourceTime !== null && !isWhole(sourceTime)) || typeof value.stale !== 'boolean') return null;
  if (typeof prev !== 'string' || !HASH.test(prev) || !Array.isArray(value.sources)) return null;
  const sources = value.sources.map(readSource);
  if (sources.some((source) => source === null)) return null;
  return {
    symbol: head.symbol,
    seq: head.seq,
    time: head.time,
    source_time: sourceTime,
    index_price: index,
    mark_price: mark,
    sources: sources as PriceSource[],
    stale: value.stale,
    prev_hash: prev,
    hash: head.hash,
  };
}

function readAll<T>(values: unknown, reader: (value: unknown) => T | null): T[] {
  if (!Array.isArray(values)) throw badResponse();
  const read = values.map(reader);
  if (read.some((item) => item === null)) throw badResponse();
  return read as T[];
}

/** GET /api/price/samples: at most 600 samples of one market from `fromMs` to `toMs`, oldest first. */
export async function fetchPriceSamples(
  symbol: string,
  fromMs: number,
  toMs: number,
  signal?: AbortSignal,
): Promise<PriceSample[]> {
  const message = await api.get<unknown>('/price/samples', { symbol, from: fromMs, to: toMs }, signal);
  if (!isRecord(message)) throw badResponse();
  return readAll(message.samples, readSample);
}

/** GET /api/price/heads: the latest published heads, newest first; every market when no symbol. */
export async function fetchPriceHeads(
  options: { symbol?: string; limit?: number } = {},
  signal?: AbortSignal,
): Promise<PriceHead[]> {
  const message = await api.get<unknown>(
    '/price/heads',
    { symbol: options.symbol, limit: options.limit },
    signal,
  );
  if (!isRecord(message)) throw badResponse();
  return readAll(message.heads, readHead);
}

/** GET /api/price/proof: the chain from sample `seq` up to the first head that covers it. */
export async function fetchPriceProof(symbol: string, seq: number, signal?: AbortSignal): Promise<PriceProof> {
  const message = await api.get<unknown>('/price/proof', { symbol, seq }, signal);
  if (!isRecord(message)) throw badResponse();
  const head = readHead(message.head);
  if (head === null || typeof message.symbol !== 'string') throw badResponse();
  return { symbol: message.symbol, head, samples: readAll(message.samples, readSample) };
}
