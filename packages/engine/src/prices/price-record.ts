// The price record: one sample per market per command of `recordPriceSamples`, chained by SHA-256 so that
// anyone holding the published heads can check that no sample was changed, dropped or reordered afterwards.
//
// Recipe (docs/price-record.md is the public description and must stay equal to this code):
// - A source is fresh when the command time minus its time is at most maxAgeMs (a time ahead of the command
//   time is fresh). The sample is stale when fewer than minSources sources are fresh.
// - Index = the median of the fresh prices in ticks; with an even count, the two middle prices' sum halved,
//   rounded down.
// - Basis: an exponential moving average, in millionths of a tick, of (book mid - index), weight 1/60 per
//   sample: ema += trunc((observed - ema) / 60). The mid is (best bid + best ask) / 2 of the market's own
//   book; with a side empty the observed basis is 0. Applied basis = ema clamped to +-0.5 % of the index;
//   mark = index + trunc(applied / 10^6). All in bigint; trunc rounds toward zero.
// - A stale sample repeats the last good index and mark (null before any) and leaves the average as it was.
// - Head: a market's sample is published as its head when it is the chain's first sample, or the first whose
//   command time lies in a later headIntervalMs bucket (floor(time / headIntervalMs)) than the last head.
import { sha256HexOfText } from '../hash/sha256.ts';
import { MAX_MARKET_ID, MAX_PRICE_TICKS } from '../limits.ts';
import type { CommandContext } from '../kernel/context.ts';
import { ResultCode } from '../result-codes.ts';
import { PRICES_BOOK } from '../ports/book-and-mark.ts';
import type { BookReads } from '../ports/book-and-mark.ts';
import { isCount, isNatural } from '../validate.ts';
import type { PriceSourceQuote, RecordPriceSamplesCommand } from './commands.ts';
import type { PricesState } from './state.ts';

export const PRICE_RECORD_VERSION = 'fairex-price-v1';
export const GENESIS_HASH = '0'.repeat(64);
/** Weight of a new observation in the basis average: 1 / BASIS_EMA_SAMPLES. */
export const BASIS_EMA_SAMPLES = 60n;
/** The applied basis is at most this share of the index, in parts per million (0.5 %). */
export const BASIS_CAP_PPM = 5_000n;
const MICRO = 1_000_000n;

export const MAX_PRICE_SOURCES = 16;
export const MAX_SAMPLES_PER_COMMAND = 4_096;
const SOURCE_NAME = /^[a-z0-9_-]{1,16}$/;

/** A market's price chain as the engine keeps it. */
export type PriceChain = {
  seq: number;
  hash: string;
  /** Command time of the latest sample. */
  timeMs: number;
  stale: boolean;
  indexTicks: number | null;
  markTicks: number | null;
  /** The basis average in millionths of a tick. */
  basisMicro: bigint;
  headSeq: number;
  headTimeMs: number;
  headHash: string;
};

/** The latest sample's index and mark of a market. */
export type MarkPrice = {
  readonly seq: number;
  readonly timeMs: number;
  readonly stale: boolean;
  readonly indexTicks: number | null;
  readonly markTicks: number | null;
};

/** A published head: the chain link anyone can check a market's samples against. */
export type PriceHead = { readonly seq: number; readonly timeMs: number; readonly hash: string };

/** Ticks as decimal text at the tick size's decimals ("0.01" and 6725012 ticks give "67250.12"). */
export function formatTicks(ticks: number, tickSize: string): string {
  const [whole = '', fraction = ''] = tickSize.split('.');
  const units = (BigInt(ticks) * BigInt(whole + fraction)).toString();
  if (fraction.length === 0) return units;
  const padded = units.padStart(fraction.length + 1, '0');
  return `${padded.slice(0, -fraction.length)}.${padded.slice(-fraction.length)}`;
}

/** The fields of one sample as the canonical record names them (prices as decimal text). */
export type CanonicalSample = {
  seq: number;
  timeMs: number;
  sourceTimeMs: number | null;
  indexPrice: string | null;
  markPrice: string | null;
  stale: boolean;
  sources: readonly (readonly [name: string, price: string, timeMs: number])[];
};

/**
 * The canonical record: ASCII, fields joined by "|", no trailing newline:
 * fairex-price-v1|seq|time|source_time|index_price|mark_price|stale|sources
 * with null as the empty string, stale as 1 or 0, and sources as name:price:time joined by ";".
 */
export function canonicalPriceRecord(sample: CanonicalSample): string {
  const sources = sample.sources.map(([name, price, timeMs]) => `${name}:${price}:${timeMs}`).join(';');
  return [
    PRICE_RECORD_VERSION,
    sample.seq,
    sample.timeMs,
    sample.sourceTimeMs ?? '',
    sample.indexPrice ?? '',
    sample.markPrice ?? '',
    sample.stale ? '1' : '0',
    sources,
  ].join('|');
}

/** SHA-256 of the previous hash's 64 hex characters followed by the canonical record, as lowercase hex. */
export function chainHash(prevHash: string, record: string): string {
  return sha256HexOfText(prevHash + record);
}

function validSources(sources: unknown): sources is PriceSourceQuote[] {
  if (!Array.isArray(sources) || sources.length > MAX_PRICE_SOURCES) return false;
  let previous = '';
  for (const quote of sources as unknown[]) {
    if (!Array.isArray(quote) || quote.length !== 3) return false;
    const [name, priceTicks, timeMs] = quote as unknown[];
    if (typeof name !== 'string' || !SOURCE_NAME.test(name) || name <= previous) return false;
    if (!isCount(priceTicks, MAX_PRICE_TICKS) || !isNatural(timeMs, Number.MAX_SAFE_INTEGER)) return false;
    previous = name;
  }
  return true;
}

function validate(spot: BookReads, command: RecordPriceSamplesCommand): number {
  if (!isCount(command.maxAgeMs, 86_400_000)) return ResultCode.invalidField;
  if (!isCount(command.minSources, MAX_PRICE_SOURCES)) return ResultCode.invalidField;
  if (!isCount(command.headIntervalMs, 86_400_000)) return ResultCode.invalidField;
  const samples: unknown = command.samples;
  if (!Array.isArray(samples) || samples.length === 0 || samples.length > MAX_SAMPLES_PER_COMMAND)
    return ResultCode.invalidField;
  const seen = new Set<number>();
  for (const sample of samples as unknown[]) {
    if (!Array.isArray(sample) || sample.length !== 2) return ResultCode.invalidField;
    const [marketId, sources] = sample as unknown[];
    if (!isCount(marketId, MAX_MARKET_ID) || seen.has(marketId)) return ResultCode.invalidId;
    if (!spot.hasMarket(marketId)) return ResultCode.marketNotFound;
    if (!validSources(sources)) return ResultCode.invalidPrice;
    seen.add(marketId);
  }
  return ResultCode.ok;
}

function median(prices: bigint[]): bigint {
  prices.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const middle = prices.length >> 1;
  if (prices.length % 2 === 1) return prices[middle] as bigint;
  return ((prices[middle - 1] as bigint) + (prices[middle] as bigint)) / 2n;
}

function clamp(value: bigint, bound: bigint): bigint {
  return value > bound ? bound : value < -bound ? -bound : value;
}

export function recordPriceSamples(
  ctx: CommandContext,
  state: PricesState,
  command: RecordPriceSamplesCommand,
): number {
  const spot = ctx.port(PRICES_BOOK);
  const code = validate(spot, command);
  if (code !== ResultCode.ok) return code;
  const nowMs = ctx.timeMs;
  for (const [marketId, sources] of command.samples) {
    const market = spot.market(marketId);
    const prices = spot.bestPrices(marketId);
    if (market === undefined || prices === undefined) continue;
    const chain: PriceChain = state.priceChains.get(marketId) ?? {
      seq: 0,
      hash: GENESIS_HASH,
      timeMs: 0,
      stale: true,
      indexTicks: null,
      markTicks: null,
      basisMicro: 0n,
      headSeq: 0,
      headTimeMs: 0,
      headHash: GENESIS_HASH,
    };
    const fresh = sources.filter(([, , timeMs]) => nowMs - timeMs <= command.maxAgeMs);
    const stale = fresh.length < command.minSources || fresh.length === 0;
    let sourceTimeMs: number | null = null;
    for (const [, , timeMs] of sources)
      if (sourceTimeMs === null || timeMs > sourceTimeMs) sourceTimeMs = timeMs;
    if (!stale) {
      const index = median(fresh.map(([, priceTicks]) => BigInt(priceTicks)));
      const bid = prices.bidTicks;
      const ask = prices.askTicks;
      const observed = bid > 0 && ask > 0 ? (BigInt(bid) + BigInt(ask)) * (MICRO / 2n) - index * MICRO : 0n;
      chain.basisMicro += (observed - chain.basisMicro) / BASIS_EMA_SAMPLES;
      const applied = clamp(chain.basisMicro, index * BASIS_CAP_PPM);
      chain.indexTicks = Number(index);
      chain.markTicks = Number(index + applied / MICRO);
      state.indexPrices.set(marketId, { priceTicks: chain.indexTicks, timeMs: nowMs });
    }
    const prevHash = chain.hash;
    chain.seq += 1;
    chain.timeMs = nowMs;
    chain.stale = stale;
    const record = canonicalPriceRecord({
      seq: chain.seq,
      timeMs: nowMs,
      sourceTimeMs,
      indexPrice: chain.indexTicks === null ? null : formatTicks(chain.indexTicks, market.tickSize),
      markPrice: chain.markTicks === null ? null : formatTicks(chain.markTicks, market.tickSize),
      stale,
      sources: sources.map(([name, priceTicks, timeMs]) => [
        name,
        formatTicks(priceTicks, market.tickSize),
        timeMs,
      ]),
    });
    chain.hash = chainHash(prevHash, record);
    const head =
      chain.headSeq === 0 ||
      Math.floor(nowMs / command.headIntervalMs) > Math.floor(chain.headTimeMs / command.headIntervalMs);
    if (head) {
      chain.headSeq = chain.seq;
      chain.headTimeMs = nowMs;
      chain.headHash = chain.hash;
    }
    state.priceChains.set(marketId, chain);
    ctx.emit({
      type: 'priceSampled',
      marketId,
      seq: chain.seq,
      timeMs: nowMs,
      sourceTimeMs,
      indexTicks: chain.indexTicks,
      markTicks: chain.markTicks,
      stale,
      sources: sources.map(([name, priceTicks, timeMs]) => [name, priceTicks, timeMs]),
      prevHash,
      hash: chain.hash,
      head,
    });
    ctx.priceRecorded({
      marketId,
      timeMs: nowMs,
      sample: true,
      seq: chain.seq,
      hash: chain.hash,
      stale,
      indexTicks: chain.indexTicks,
      markTicks: chain.markTicks,
    });
  }
  return ResultCode.ok;
}
