// The simulated index cannot be predicted from the source code. The attack that worked while SEED=1 was the
// default: re-type the generator (normalDraw of seed, asset, second), try every seed the code could use
// (here 0 to 10,000), keep the one whose draws agree with a few recorded moves, then predict each next
// 30-second direction from its draws. Against a seeded simulator it wins nearly every window (the attack
// is real); against the simulator as every start now runs it (no seed: the operating system's random
// source) it does no better than a coin over 1,000 windows.
import { describe, expect, it } from 'vitest';
import { PriceSimulator, hashText, normalDraw, toFixed } from '../../src/market/simulator.ts';
import { startupLine } from '../../src/scheduler/plugin.ts';

const SYMBOL = 'BTC/USDT';
const START_MS = Date.UTC(2026, 0, 5, 3, 4, 5);
const FIT_MOVES = 40;
const WINDOW_SECONDS = 30;
const WINDOWS = 1_000;
const SEEDS = 10_001;
const STREAM = hashText('BTC');

/** The index as a scheduler would record it: one price a second, exact (fixed-point bigint). */
function record(simulator: PriceSimulator, seconds: number): bigint[] {
  simulator.start([SYMBOL]);
  const prices: bigint[] = [];
  for (let second = 0; second <= seconds; second += 1) {
    const quote = simulator.latest(SYMBOL, START_MS + second * 1000);
    if (quote === undefined) throw new Error('no price');
    prices.push(toFixed(quote.price));
  }
  return prices;
}

/** The attacker: the seed whose draws' signs agree with the most of the first recorded moves. */
function fitSeed(prices: readonly bigint[]): number {
  const firstSecond = START_MS / 1000;
  let best = 0;
  let bestScore = -1;
  for (let seed = 0; seed < SEEDS; seed += 1) {
    let score = 0;
    for (let move = 1; move <= FIT_MOVES; move += 1) {
      const up = (prices[move] as bigint) > (prices[move - 1] as bigint);
      if (normalDraw(seed, STREAM, firstSecond + move) > 0 === up) score += 1;
    }
    if (score > bestScore) {
      bestScore = score;
      best = seed;
    }
  }
  return best;
}

/** Wins of the attacker's 30-second calls after the fit: up when its seed's draws sum above zero. */
function attack(prices: readonly bigint[]): { seed: number; wins: number; calls: number } {
  const seed = fitSeed(prices);
  const firstSecond = START_MS / 1000;
  let wins = 0;
  let calls = 0;
  for (let window = 0; window < WINDOWS; window += 1) {
    const from = FIT_MOVES + window * WINDOW_SECONDS;
    const to = from + WINDOW_SECONDS;
    let sum = 0;
    for (let second = from + 1; second <= to; second += 1)
      sum += normalDraw(seed, STREAM, firstSecond + second);
    const actual = (prices[to] as bigint) - (prices[from] as bigint);
    if (actual === 0n) continue;
    calls += 1;
    if (sum > 0 === actual > 0n) wins += 1;
  }
  return { seed, wins, calls };
}

const SECONDS = FIT_MOVES + WINDOWS * WINDOW_SECONDS;

describe('the simulated index', () => {
  it('was predictable with a seed the code could use: the attack finds it and wins nearly every window', () => {
    const { seed, wins, calls } = attack(record(new PriceSimulator({ seed: 4_321 }), SECONDS));
    expect(seed).toBe(4_321);
    expect(calls).toBeGreaterThan(990);
    expect(wins / calls).toBeGreaterThan(0.95);
  }, 60_000);

  it('is not predictable without a seed: the same attack does no better than chance', () => {
    const { wins, calls } = attack(record(new PriceSimulator(), SECONDS));
    expect(calls).toBeGreaterThan(990);
    // A coin: mean calls / 2, standard deviation about 16. 600 of 1,000 is more than six deviations away
    // (the chance of a fair coin passing it is below one in a billion), so this never fails by luck.
    expect(wins).toBeLessThanOrEqual(Math.round(calls * 0.6));
    expect(wins).toBeGreaterThanOrEqual(Math.round(calls * 0.4));
  }, 60_000);

  it('walks differently on every start without a seed, and resumes from the recorded price', () => {
    const first = record(new PriceSimulator(), 60);
    const second = record(new PriceSimulator(), 60);
    expect(first).not.toEqual(second);
    // A restart continues from the journaled index, never from a re-derived walk.
    const resumed = new PriceSimulator();
    resumed.resume(SYMBOL, '70000.5', START_MS);
    resumed.start([SYMBOL]);
    expect(resumed.latest(SYMBOL, START_MS)?.price).toBe('70000.5');
  });
});

describe('the start-up log line', () => {
  it('names a simulated source, where its randomness comes from, and DEMO', () => {
    const [fields, text] = startupLine([new PriceSimulator()], true);
    expect(fields).toEqual({
      priceSources: ['simulated'],
      simulated: true,
      randomness: 'random (operating system)',
      demo: true,
    });
    expect(text).toMatch(/simulated prices, random \(operating system\); DEMO on/);
    expect(startupLine([new PriceSimulator({ seed: 3 })], false)[1]).toMatch(
      /fixed SEED \(predictable\); DEMO off: seconds contracts and leverage refuse new orders/,
    );
  });
});
