// The simulator: the same seed gives the same prices at the same seconds; history for every interval that
// ends exactly at the given price, has whole bars only, and agrees across intervals.
import { describe, expect, it } from 'vitest';
import { bucketStartMs, nextBucketStartMs, PERIODS } from '../../src/market/periods.ts';
import { ASSET_PROFILES, PriceSimulator, simulatedHistory, toFixed } from '../../src/market/simulator.ts';

const START_MS = Date.UTC(2026, 0, 5, 3, 4, 5);
const SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'DOGE/USDT'];

function pricesOver(seed: number, seconds: number): string[] {
  const simulator = new PriceSimulator({ seed });
  simulator.start(SYMBOLS);
  const prices: string[] = [];
  for (let second = 0; second <= seconds; second += 7) {
    for (const symbol of SYMBOLS)
      prices.push(simulator.latest(symbol, START_MS + second * 1000)?.price ?? '');
  }
  return prices;
}

describe('PriceSimulator', () => {
  it('is deterministic by seed, and different seeds walk differently', () => {
    const first = pricesOver(7, 3600);
    expect(pricesOver(7, 3600)).toEqual(first);
    expect(pricesOver(8, 3600)).not.toEqual(first);
    // The walk moves, starts at the profile price, and stays believable within an hour.
    expect(first[0]).toBe(ASSET_PROFILES.BTC?.startPrice);
    expect(new Set(first).size).toBeGreaterThan(100);
    const btc = first.filter((_, index) => index % SYMBOLS.length === 0).map(Number);
    expect(Math.max(...btc) / Math.min(...btc)).toBeLessThan(1.2);
  });

  it('gives the same price however often and in whatever steps it is asked', () => {
    const once = new PriceSimulator({ seed: 3 });
    const often = new PriceSimulator({ seed: 3 });
    once.start(SYMBOLS);
    often.start(SYMBOLS);
    once.latest('ETH/USDT', START_MS);
    often.latest('ETH/USDT', START_MS);
    for (let second = 1; second < 600; second++) often.latest('ETH/USDT', START_MS + second * 1000 + 123);
    expect(once.latest('ETH/USDT', START_MS + 600_000)).toEqual(often.latest('ETH/USDT', START_MS + 600_000));
  });

  it('resumes from a recorded price', () => {
    const simulator = new PriceSimulator({ seed: 3 });
    simulator.resume('BTC/USDT', '50000.5', START_MS);
    simulator.start(['BTC/USDT']);
    expect(simulator.latest('BTC/USDT', START_MS)?.price).toBe('50000.5');
    const later = Number(simulator.latest('BTC/USDT', START_MS + 10_000)?.price);
    expect(later).not.toBe(50000.5);
    expect(Math.abs(later / 50000.5 - 1)).toBeLessThan(0.02);
  });

  it('prices only symbols whose currencies it knows', () => {
    const simulator = new PriceSimulator({ seed: 1 });
    simulator.start(['NOPE/USDT', 'BTC/USDT']);
    expect(simulator.latest('NOPE/USDT', START_MS)).toBeUndefined();
    expect(simulator.latest('BTC/USDT', START_MS)).toBeDefined();
  });
});

describe('simulatedHistory', () => {
  const untilMs = START_MS;
  const profile = ASSET_PROFILES.BTC as NonNullable<(typeof ASSET_PROFILES)['BTC']>;
  const history = simulatedHistory({
    seed: 11,
    symbol: 'BTC/USDT',
    profile,
    untilMs,
    endPrice: toFixed('67000.5'),
  });

  it('covers every interval with whole bars that ended before the backfill', () => {
    for (const period of PERIODS) {
      const bars = history.get(period) ?? [];
      expect(bars.length, period).toBeGreaterThan(20);
      for (const bar of bars) {
        expect(bucketStartMs(period, bar.openTimeMs)).toBe(bar.openTimeMs);
        expect(nextBucketStartMs(period, bar.openTimeMs)).toBeLessThanOrEqual(untilMs);
        const [open, high, low, close] = [bar.open, bar.high, bar.low, bar.close].map(Number) as [
          number,
          number,
          number,
          number,
        ];
        expect(low).toBeLessThanOrEqual(Math.min(open, close));
        expect(high).toBeGreaterThanOrEqual(Math.max(open, close));
        expect(low).toBeGreaterThan(0);
      }
      const times = bars.map((bar) => bar.openTimeMs);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
  });

  it('arrives at the given price', () => {
    expect(history.get('1min')?.at(-1)?.close).toBe('67000.5');
  });

  it('agrees across intervals: an hour is its minutes, a day its hours', () => {
    const minutes = history.get('1min') ?? [];
    const hours = history.get('60min') ?? [];
    const hour = hours.at(-1);
    if (hour === undefined) throw new Error('no hour bar');
    const inside = minutes.filter(
      (bar) => bar.openTimeMs >= hour.openTimeMs && bar.openTimeMs < hour.openTimeMs + 3_600_000,
    );
    expect(inside).toHaveLength(60);
    expect(inside[0]?.open).toBe(hour.open);
    expect(inside.at(-1)?.close).toBe(hour.close);
    expect(Math.max(...inside.map((bar) => Number(bar.high)))).toBe(Number(hour.high));
    const days = history.get('1day') ?? [];
    const weeks = history.get('1week') ?? [];
    const week = weeks.at(-1);
    if (week === undefined) throw new Error('no week bar');
    const weekDays = days.filter(
      (bar) => bar.openTimeMs >= week.openTimeMs && bar.openTimeMs < week.openTimeMs + 7 * 86_400_000,
    );
    expect(weekDays).toHaveLength(7);
    expect(weekDays[0]?.open).toBe(week.open);
  });

  it('is deterministic by seed', () => {
    const again = simulatedHistory({
      seed: 11,
      symbol: 'BTC/USDT',
      profile,
      untilMs,
      endPrice: toFixed('67000.5'),
    });
    expect(again).toEqual(history);
  });
});
