// The price simulator: the default price source. Every asset walks in whole seconds from a realistic
// starting price, with its own volatility and a weak pull back toward that start so that a demo running for
// weeks stays in a believable range. Prices are bigint fixed-point numbers (12 decimals of the quote unit).
//
// Where the randomness comes from (docs/price-record.md, "Simulated prices"): without a seed (SEED unset,
// every real start) each step is drawn from the operating system's cryptographic random source, so nobody,
// the operator included, can know a step before the simulator takes it. With a seed (tests, benchmarks,
// reproducible runs) every draw is a pure function of (seed, asset, second): the same seed gives the same
// prices at the same seconds, which is exactly why a seed is never used where money is at stake. Nothing
// ever derives a price from the generator again: the prices that matter are the journaled samples, which
// replay, proofs and a restart's resume (from the last journaled index) read.
//
// History for a first start is a separate walk with the same draws, generated backwards from the current price
// at three resolutions: 10-second steps for the last one to two days, 5-minute steps for the 90 days before,
// hourly steps for the two years before that. Each resolution yields bars of its own length (1 minute,
// 1 hour, 1 day); longer bars are folded from them, so every chart interval shows history and bars of
// different intervals agree where they overlap.
import { randomFillSync, randomInt } from 'node:crypto';
import { formatDecimal, pow10 } from '@fairex/shared';
import type { HistoryBar, PriceQuote, PriceSource } from './price-source.ts';
import type { Period } from './periods.ts';
import { bucketStartMs, DAY_MS, nextBucketStartMs, PERIODS } from './periods.ts';

/** Decimals of the simulator's fixed-point prices. */
export const PRICE_DECIMALS = 12;
const ONE = pow10(PRICE_DECIMALS);

export interface AssetProfile {
  /** Price in USD (USDT) at the start, plain decimal text. */
  startPrice: string;
  /** Standard deviation of a one-second return in parts per million; 0 for a unit of account. */
  volatilityPpm: number;
  /** Typical quote turnover per day in USD, for the volume of simulated history. */
  dailyTurnover: string;
}

/** Realistic starting points (late-2024 levels) and per-second volatilities of roughly 2-5 % per day. */
export const ASSET_PROFILES: Readonly<Record<string, AssetProfile>> = {
  USDT: { startPrice: '1', volatilityPpm: 0, dailyTurnover: '0' },
  BTC: { startPrice: '67250', volatilityPpm: 110, dailyTurnover: '30000000' },
  ETH: { startPrice: '3480', volatilityPpm: 150, dailyTurnover: '15000000' },
  XRP: { startPrice: '0.523', volatilityPpm: 200, dailyTurnover: '4000000' },
  DOGE: { startPrice: '0.1542', volatilityPpm: 240, dailyTurnover: '3000000' },
  LINK: { startPrice: '14.52', volatilityPpm: 200, dailyTurnover: '1500000' },
  LTC: { startPrice: '84.3', volatilityPpm: 170, dailyTurnover: '1200000' },
  TRX: { startPrice: '0.1215', volatilityPpm: 140, dailyTurnover: '800000' },
};

/** Per second, the walk moves this many parts per billion of the gap back toward the start price. */
const REVERSION_PPB_PER_SECOND = 200;
/** A process that slept longer than this walks only the last stretch of it on waking. */
const MAX_CATCH_UP_SECONDS = 6 * 60 * 60;

// ---------------------------------------------------------------- deterministic draws

/** FNV-1a of a text, as an unsigned 32-bit integer. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The murmur3 finaliser over four words: a well-mixed unsigned 32-bit value. */
function mix(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ c;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) ^ d;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * An approximately normal integer with standard deviation 65,536 (the sum of twelve uniform 16-bit draws,
 * centred), drawn from (seed, stream, step). Integer arithmetic only.
 */
export function normalDraw(seed: number, stream: number, step: number): number {
  let sum = 0;
  const high = Math.floor(step / 0x1_0000_0000);
  for (let word = 0; word < 6; word++) {
    const value = mix(seed, stream, step >>> 0, (high << 3) ^ word);
    sum += (value & 0xffff) + (value >>> 16);
  }
  return sum - 6 * 0x1_0000;
}

/** A uniform integer in [0, bound) from (seed, stream, step). */
function uniformDraw(seed: number, stream: number, step: number, bound: number): number {
  return mix(seed, stream ^ 0x5bd1e995, step >>> 0, 0x27d4eb2f) % bound;
}

/** The simulator's random draws: seeded (reproducible) or from the operating system (unpredictable). */
export interface Draws {
  /** Whether the draws are a function of a seed (so predictable to whoever knows it). */
  readonly seeded: boolean;
  /** An approximately normal integer with standard deviation 65,536 (as normalDraw). */
  normal(stream: number, step: number): number;
  /** A uniform integer in [0, bound). */
  uniform(stream: number, step: number, bound: number): number;
}

export function seededDraws(seed: number): Draws {
  const fixed = seed >>> 0;
  return {
    seeded: true,
    normal: (stream, step) => normalDraw(fixed, stream, step),
    uniform: (stream, step, bound) => uniformDraw(fixed, stream, step, bound),
  };
}

const POOL_BYTES = 64 * 1024;

/**
 * Draws from the operating system's cryptographically secure generator (node:crypto): the same shape of
 * normal draw (twelve uniform 16-bit values, centred), with no state an observer could recover. Random
 * bytes are read 64 KiB at a time.
 */
export function cryptoDraws(): Draws {
  const pool = new Uint16Array(POOL_BYTES / 2);
  let next = pool.length;
  const word = (): number => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++] as number;
  };
  return {
    seeded: false,
    normal: () => {
      let sum = 0;
      for (let index = 0; index < 12; index++) sum += word();
      return sum - 6 * 0x1_0000;
    },
    uniform: (_stream, _step, bound) => randomInt(bound),
  };
}

/** A seed's draws, or the operating system's when there is no seed. */
export function drawsFor(seed: number | undefined): Draws {
  return seed === undefined ? cryptoDraws() : seededDraws(seed);
}

/** Fixed-point price text ("67250") as bigint units of 10^-12. */
export function toFixed(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(PRICE_DECIMALS, '0').slice(0, PRICE_DECIMALS));
}

export function fromFixed(units: bigint): string {
  return formatDecimal(units, PRICE_DECIMALS, { trim: true });
}

/** One step of the walk: a return of sigma x draw, and a pull of `reversionPpb` of the gap to `anchor`. */
function step(price: bigint, draw: number, sigmaPpb: number, anchor: bigint, reversionPpb: number): bigint {
  const move = (price * BigInt(draw) * BigInt(sigmaPpb)) / (0x1_0000n * 1_000_000_000n);
  const pull = ((anchor - price) * BigInt(reversionPpb)) / 1_000_000_000n;
  const next = price + move + pull;
  // A price never reaches zero: below a millionth of its anchor it stops falling.
  const floor = anchor / 1_000_000n > 0n ? anchor / 1_000_000n : 1n;
  return next < floor ? floor : next;
}

function sigmaPpbFor(profile: AssetProfile, stepSeconds: number): number {
  return Math.round(profile.volatilityPpm * 1000 * Math.sqrt(stepSeconds));
}

// ---------------------------------------------------------------- the live walk

interface AssetWalk {
  readonly code: string;
  readonly profile: AssetProfile;
  readonly stream: number;
  readonly anchor: bigint;
  price: bigint;
  /** The whole second `price` belongs to. */
  second: number;
}

export interface SimulatorOptions {
  /** A fixed seed (tests, benchmarks, reproducible runs); undefined draws from the operating system. */
  seed?: number | undefined;
  profiles?: Readonly<Record<string, AssetProfile>>;
}

export class PriceSimulator implements PriceSource {
  readonly name = 'simulated';
  readonly #draws: Draws;
  readonly #profiles: Readonly<Record<string, AssetProfile>>;
  readonly #walks = new Map<string, AssetWalk>();
  readonly #symbols = new Set<string>();

  constructor(options: SimulatorOptions = {}) {
    this.#draws = drawsFor(options.seed);
    this.#profiles = options.profiles ?? ASSET_PROFILES;
  }

  /** Whether its steps come from a seed (tests) rather than the operating system's random source. */
  get seeded(): boolean {
    return this.#draws.seeded;
  }

  /** Whether the simulator can price the symbol (both currencies have a profile). */
  knows(symbol: string): boolean {
    const [base = '', quote = ''] = symbol.split('/');
    return Object.hasOwn(this.#profiles, base) && Object.hasOwn(this.#profiles, quote);
  }

  start(symbols: readonly string[]): void {
    for (const symbol of symbols) if (this.knows(symbol)) this.#symbols.add(symbol);
  }

  /**
   * Continues the base asset's walk from a recorded price of a pair quoted in a unit of account (USDT);
   * prices of other pairs follow from their two assets.
   */
  resume(symbol: string, price: string, timeMs: number): void {
    const [base = '', quote = ''] = symbol.split('/');
    const quoteProfile = this.#profiles[quote];
    if (!this.knows(symbol) || quoteProfile?.volatilityPpm !== 0) return;
    const walk = this.#walk(base, timeMs);
    walk.price = (toFixed(price) * toFixed(quoteProfile.startPrice)) / ONE;
    walk.second = Math.floor(timeMs / 1000);
  }

  latest(symbol: string, nowMs: number): PriceQuote | undefined {
    if (!this.#symbols.has(symbol)) return undefined;
    const [base = '', quote = ''] = symbol.split('/');
    const baseUsd = this.#advance(this.#walk(base, nowMs), nowMs);
    const quoteUsd = this.#advance(this.#walk(quote, nowMs), nowMs);
    return { price: fromFixed((baseUsd * ONE) / quoteUsd), timeMs: Math.floor(nowMs / 1000) * 1000 };
  }

  async history(symbol: string, untilMs: number, endPrice: string): Promise<Map<Period, HistoryBar[]>> {
    const [base = ''] = symbol.split('/');
    const profile = this.#profiles[base];
    if (profile === undefined || !this.knows(symbol)) return new Map();
    return simulatedHistory({ draws: this.#draws, symbol, profile, untilMs, endPrice: toFixed(endPrice) });
  }

  async close(): Promise<void> {}

  #walk(code: string, nowMs: number): AssetWalk {
    let walk = this.#walks.get(code);
    if (walk === undefined) {
      const profile = this.#profiles[code];
      if (profile === undefined) throw new Error(`no price profile for ${code}`);
      const anchor = toFixed(profile.startPrice);
      walk = {
        code,
        profile,
        stream: hashText(code),
        anchor,
        price: anchor,
        second: Math.floor(nowMs / 1000),
      };
      this.#walks.set(code, walk);
    }
    return walk;
  }

  #advance(walk: AssetWalk, nowMs: number): bigint {
    const target = Math.floor(nowMs / 1000);
    if (walk.profile.volatilityPpm === 0 || target <= walk.second) return walk.price;
    if (target - walk.second > MAX_CATCH_UP_SECONDS) walk.second = target - MAX_CATCH_UP_SECONDS;
    const sigmaPpb = sigmaPpbFor(walk.profile, 1);
    for (let second = walk.second + 1; second <= target; second++) {
      const draw = this.#draws.normal(walk.stream, second);
      walk.price = step(walk.price, draw, sigmaPpb, walk.anchor, REVERSION_PPB_PER_SECOND);
    }
    walk.second = target;
    return walk.price;
  }
}

// ---------------------------------------------------------------- simulated history

interface FixedBar {
  openTimeMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  /** Base volume in 10^-8 units. */
  volume: bigint;
  /** Quote turnover in 10^-6 units. */
  turnover: bigint;
}

interface Segment {
  fromMs: number;
  toMs: number;
  stepSeconds: number;
  barPeriod: Period;
}

const VOLUME_DECIMALS = 8;
const TURNOVER_DECIMALS = 6;

export interface HistoryInput {
  /** The draws (a seed's, or the operating system's); `seed` is a shorthand for seededDraws(seed). */
  draws?: Draws;
  seed?: number;
  symbol: string;
  profile: AssetProfile;
  untilMs: number;
  /** Fixed-point price the history arrives at. */
  endPrice: bigint;
}

/**
 * Complete bars of every period before `untilMs`, ending at `endPrice`. Deterministic in its input when its
 * draws are seeded; with the operating system's draws every call gives another history (it is written once,
 * on a first start, and read from the candles ever after).
 */
export function simulatedHistory(input: HistoryInput): Map<Period, HistoryBar[]> {
  const draws = input.draws ?? drawsFor(input.seed);
  const endMs = Math.floor(input.untilMs / 60_000) * 60_000;
  const todayMs = bucketStartMs('1day', endMs);
  const segments: Segment[] = [
    { fromMs: todayMs - 730 * DAY_MS, toMs: todayMs - 90 * DAY_MS, stepSeconds: 3600, barPeriod: '1day' },
    { fromMs: todayMs - 90 * DAY_MS, toMs: todayMs - DAY_MS, stepSeconds: 300, barPeriod: '60min' },
    { fromMs: todayMs - DAY_MS, toMs: endMs, stepSeconds: 10, barPeriod: '1min' },
  ];
  const stream = hashText(`history:${input.symbol}`);
  const baseBars: { period: Period; bars: FixedBar[] }[] = [];
  let target = input.endPrice;
  // Latest segment first: each one ends where the next one begins.
  for (let index = segments.length - 1; index >= 0; index--) {
    const segment = segments[index] as Segment;
    const bars = walkSegment(input, draws, segment, stream + index, target);
    baseBars.unshift({ period: segment.barPeriod, bars });
    target = bars[0]?.open ?? target;
  }
  const fromMs = (segments[0] as Segment).fromMs;
  const result = new Map<Period, HistoryBar[]>();
  const days = fold(baseBars, '1day', fromMs, endMs);
  for (const period of PERIODS) {
    const folded =
      period === '1week' || period === '1mon'
        ? fold([{ period: '1day', bars: days }], period, fromMs, endMs)
        : period === '1day'
          ? days
          : fold(baseBars, period, fromMs, endMs);
    result.set(period, folded.map(toHistoryBar));
  }
  return result;
}

/**
 * The segment's prices, walked backwards in time from `endPrice` (a random walk read backwards is a random
 * walk), with the same weak pull toward the end price that the live walk has toward its start, then cut
 * into bars in time order.
 */
function walkSegment(
  input: HistoryInput,
  draws: Draws,
  segment: Segment,
  stream: number,
  endPrice: bigint,
): FixedBar[] {
  const barMs = nextBucketStartMs(segment.barPeriod, segment.fromMs) - segment.fromMs;
  const stepsPerBar = barMs / (segment.stepSeconds * 1000);
  const barCount = Math.ceil((segment.toMs - segment.fromMs) / barMs);
  const sigmaPpb = sigmaPpbFor(input.profile, segment.stepSeconds);
  const reversionPpb = REVERSION_PPB_PER_SECOND * segment.stepSeconds;
  const stepCount = barCount * stepsPerBar;
  // prices[i] is the price at step i counted back from the segment's end.
  const prices = new Array<bigint>(stepCount + 1);
  prices[0] = endPrice;
  for (let index = 1; index <= stepCount; index++) {
    const draw = draws.normal(stream, index);
    prices[index] = step(prices[index - 1] as bigint, draw, sigmaPpb, endPrice, reversionPpb);
  }
  const dailyTurnover = toFixedAt(input.profile.dailyTurnover, TURNOVER_DECIMALS);
  const bars: FixedBar[] = [];
  for (let bar = 0; bar < barCount; bar++) {
    const openIndex = stepCount - bar * stepsPerBar;
    const open = prices[openIndex] as bigint;
    let high = open;
    let low = open;
    for (let index = openIndex - 1; index >= openIndex - stepsPerBar; index--) {
      const price = prices[index] as bigint;
      if (price > high) high = price;
      if (price < low) low = price;
    }
    const close = prices[openIndex - stepsPerBar] as bigint;
    const share = BigInt(500 + draws.uniform(stream, bar, 1000));
    const turnover = (dailyTurnover * BigInt(barMs) * share) / (BigInt(DAY_MS) * 1000n);
    // volume (10^-8 base) = turnover (10^-6 quote) / price (10^-12 quote per base).
    const volume = (turnover * pow10(PRICE_DECIMALS + VOLUME_DECIMALS - TURNOVER_DECIMALS)) / close;
    bars.push({ openTimeMs: segment.fromMs + bar * barMs, open, high, low, close, volume, turnover });
  }
  return bars;
}

/** Bars of `period` folded from finer bars, keeping buckets wholly inside [fromMs, endMs). */
function fold(
  sources: { period: Period; bars: FixedBar[] }[],
  period: Period,
  fromMs: number,
  endMs: number,
): FixedBar[] {
  const buckets = new Map<number, FixedBar>();
  for (const source of sources) {
    if (!fitsIn(source.period, period)) continue;
    for (const bar of source.bars) {
      const start = bucketStartMs(period, bar.openTimeMs);
      const bucket = buckets.get(start);
      if (bucket === undefined) {
        buckets.set(start, { ...bar, openTimeMs: start });
        continue;
      }
      // Sources are in time order and each bar lies in one bucket, so later bars extend the bucket.
      bucket.high = bar.high > bucket.high ? bar.high : bucket.high;
      bucket.low = bar.low < bucket.low ? bar.low : bucket.low;
      bucket.close = bar.close;
      bucket.volume += bar.volume;
      bucket.turnover += bar.turnover;
    }
  }
  return [...buckets.values()]
    .filter((bar) => bar.openTimeMs >= fromMs && nextBucketStartMs(period, bar.openTimeMs) <= endMs)
    .sort((a, b) => a.openTimeMs - b.openTimeMs);
}

/** Whether bars of `fine` lie each within one bucket of `coarse` and may be folded into it. */
function fitsIn(fine: Period, coarse: Period): boolean {
  const order: Period[] = ['1min', '5min', '15min', '30min', '60min', '1day', '1week', '1mon'];
  if (fine === '1min') return true;
  if (fine === '60min') return order.indexOf(coarse) >= order.indexOf('60min');
  if (fine === '1day') return order.indexOf(coarse) >= order.indexOf('1day');
  return fine === coarse;
}

function toFixedAt(text: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals));
}

function toHistoryBar(bar: FixedBar): HistoryBar {
  return {
    openTimeMs: bar.openTimeMs,
    open: fromFixed(bar.open),
    high: fromFixed(bar.high),
    low: fromFixed(bar.low),
    close: fromFixed(bar.close),
    volume: formatDecimal(bar.volume, VOLUME_DECIMALS, { trim: true }),
    turnover: formatDecimal(bar.turnover, TURNOVER_DECIMALS, { trim: true }),
  };
}
