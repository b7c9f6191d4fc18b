// Lever benchmark (issue 17's targets): one mark update of one pair while 100,000 positions, 100,000 limit
// entries and 100,000 stop-loss/take-profit pairs are open on 20 pairs; p99 of the whole command (the market
// data area's sample record and hash chain included). Then the same with the untouched positions doubled: a
// mark update's cost must follow what it triggers (a few entries, stops and liquidations near the mark), not
// the number of positions. Users hold positions in one pair each, so no book is a cross book (a user with a
// net in several pairs is re-examined when any of their marks moves: docs/lever.md).
import { Engine } from '../src/index.ts';
import type { Command } from '../src/index.ts';

type Figures = Record<string, number | string>;

export type LeverBenchOptions = {
  positions?: number;
  entries?: number;
  pairs?: number;
  updates?: number;
  seed?: number;
};

const USDT = 1;
const MARK = 100_000;

/** xorshift32 */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

class Builder {
  readonly engine = Engine.create();
  seq = 0;
  timeMs = 1_700_000_000_000;
  readonly marks = new Map<number, number>();

  apply(command: Command, advanceMs = 0): void {
    this.seq += 1;
    this.timeMs += advanceMs;
    const outcome = this.engine.apply({ seq: this.seq, timeMs: this.timeMs, command });
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    this.lastEvents = outcome.events.length;
  }

  lastEvents = 0;

  /** Records a sample; returns [wall ms, main-thread CPU ms] of the command. */
  mark(marketId: number, priceTicks: number, advanceMs = 1): [number, number] {
    this.marks.set(marketId, priceTicks);
    const cpu = process.threadCpuUsage();
    const started = performance.now();
    this.apply(
      {
        type: 'recordPriceSamples',
        maxAgeMs: 10_000,
        minSources: 1,
        headIntervalMs: 60_000,
        samples: [[marketId, [['bench', priceTicks, this.timeMs + advanceMs]]]],
      },
      advanceMs,
    );
    const wall = performance.now() - started;
    const used = process.threadCpuUsage(cpu);
    return [wall, (used.user + used.system) / 1000];
  }
}

function build(options: Required<LeverBenchOptions>, extraPositions: number): Builder {
  const next = random(options.seed);
  const b = new Builder();
  b.apply({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 0 });
  for (let pair = 1; pair <= options.pairs; pair += 1) {
    b.apply({ type: 'addCurrency', currencyId: 100 + pair, code: `C${pair}`, scale: 0 });
    b.apply({
      type: 'addMarket',
      marketId: pair,
      baseCurrencyId: 100 + pair,
      quoteCurrencyId: USDT,
      tickSize: '1',
      lotSize: '1',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    });
    b.apply({
      type: 'setLeverPair',
      marketId: pair,
      enabled: true,
      lotsPerShare: 1,
      multiples: [10, 20],
      minShare: 1,
      maxShare: 0,
      spreadPpm: 500,
      feePpm: 500,
      overnightPpm: 100,
      liquidationThresholdBp: 1_000,
      liquidationFeePpm: 0,
      exposureLimitLots: 1_000_000_000,
    });
    b.mark(pair, MARK);
  }
  b.apply({ type: 'systemFund', owner: 'house', wallet: 'lever', currencyId: USDT, amount: 10n ** 15n });
  const positions = options.positions + extraPositions;
  // Each user: 5 positions (with stops on the first `positions` ones) and 5 entries, in one pair.
  let userId = 0;
  let opened = 0;
  let entries = 0;
  while (opened < positions || entries < options.entries) {
    userId += 1;
    const pair = 1 + (userId % options.pairs);
    if (userId % 200 === 0) for (let p = 1; p <= options.pairs; p += 1) b.mark(p, b.marks.get(p) as number);
    // A balance that keeps liquidation prices spread from 2 % to 40 % away from the mark.
    const balance = BigInt(Math.floor(5 * MARK * (0.02 + next() * 0.4)));
    b.apply({ type: 'deposit', userId, currencyId: USDT, amount: 10n * BigInt(MARK) + balance });
    b.apply({
      type: 'transfer',
      userId,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'lever',
      amount: 10n * BigInt(MARK) + balance,
    });
    const side = next() < 0.5 ? 1 : 2;
    for (let k = 0; k < 5 && opened < positions; k += 1) {
      b.apply({ type: 'openLeverPosition', userId, marketId: pair, side, share: 1, multiple: 20 });
      opened += 1;
      if (opened <= options.positions) {
        const positionId = b.engine.lever.positions(userId, 1).at(-1)?.positionId as number;
        const mark = b.marks.get(pair) as number;
        const near = 1 + Math.floor(next() * 0.08 * mark);
        const far = 1 + Math.floor(next() * 0.08 * mark);
        b.apply({
          type: 'setLeverStops',
          userId,
          positionId,
          takeProfitTicks: side === 1 ? mark + 60 + near : mark - 60 - near,
          stopLossTicks: side === 1 ? mark - 60 - far : mark + 60 + far,
        });
      }
    }
    for (let k = 0; k < 5 && entries < options.entries; k += 1) {
      const mark = b.marks.get(pair) as number;
      const offset = 1 + Math.floor(next() * 0.08 * mark);
      const entrySide = next() < 0.5 ? 1 : 2;
      b.apply({
        type: 'submitLeverEntry',
        userId,
        marketId: pair,
        side: entrySide,
        share: 1,
        multiple: 10,
        targetTicks: entrySide === 1 ? mark - offset : mark + offset,
      });
      entries += 1;
    }
  }
  return b;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}

/** Mark updates on one pair at a time: a random walk of about 0.05 % a step, timed one command each. */
/**
 * `cpuMs` is the main thread's CPU time over whole runs of updates: the thread clock advances in steps far
 * coarser than one mark update (it read 0 for most of them), so it is only read around many.
 */
type Samples = { wall: number[]; cpuMs: number; events: number; updates: number };

function emptySamples(): Samples {
  return { wall: [], cpuMs: 0, events: 0, updates: 0 };
}

/** `updates` mark updates, one pair at a time: a random walk of about 0.05 % a step, each command timed. */
function measure(b: Builder, options: Required<LeverBenchOptions>, into: Samples, seed: number): void {
  const next = random(seed);
  const cpu = process.threadCpuUsage();
  for (let update = 0; update < options.updates; update += 1) {
    const pair = 1 + (update % options.pairs);
    const mark = b.marks.get(pair) as number;
    const moved = Math.max(1, Math.round(mark * (1 + (next() - 0.5) * 0.001)));
    const [wall] = b.mark(pair, moved, 1);
    into.wall.push(wall);
    into.events += b.lastEvents;
    into.updates += 1;
  }
  const used = process.threadCpuUsage(cpu);
  into.cpuMs += (used.user + used.system) / 1000;
}

function summary(samples: Samples): {
  p50: number;
  p99: number;
  max: number;
  cpuMean: number;
} {
  const wall = [...samples.wall].sort((x, y) => x - y);
  return {
    p50: percentile(wall, 50),
    p99: percentile(wall, 99),
    max: wall.at(-1) as number,
    cpuMean: samples.updates === 0 ? 0 : samples.cpuMs / samples.updates,
  };
}

/** The change from x to y in %, or why there is none: never NaN or infinite. */
function change(x: number, y: number): number | string {
  if (!(x > 0) || !Number.isFinite(y)) return 'below resolution (the base figure reads 0)';
  return ((y - x) / x) * 100;
}

export async function runLeverBench(options: LeverBenchOptions = {}): Promise<Figures> {
  const full: Required<LeverBenchOptions> = {
    positions: options.positions ?? 100_000,
    entries: options.entries ?? 100_000,
    pairs: options.pairs ?? 20,
    updates: options.updates ?? 2_000,
    seed: options.seed ?? 2027,
  };
  let started = performance.now();
  const base = build(full, 0);
  const buildSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const doubled = build(full, full.positions);
  const doubledBuildSeconds = (performance.now() - started) / 1000;
  // Both engines stay alive and are measured in alternating rounds, so the process (heap, other jobs on the
  // machine) is the same for both and the difference is the untouched positions. Each round replays the
  // same moves on both.
  const one = emptySamples();
  const two = emptySamples();
  measure(base, { ...full, updates: 200 }, emptySamples(), full.seed); // warm-up
  measure(doubled, { ...full, updates: 200 }, emptySamples(), full.seed);
  for (let round = 0; round < 3; round += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    measure(base, full, one, full.seed + 1 + round);
    (globalThis as { gc?: () => void }).gc?.();
    measure(doubled, full, two, full.seed + 1 + round);
  }
  const a = summary(one);
  const b = summary(two);
  return {
    'open positions / limit entries / SL-TP pairs / pairs': `${full.positions} / ${full.entries} / ${full.positions} / ${full.pairs}`,
    'mark updates measured (each engine)': one.updates,
    'live records after the run': base.engine.stats().leverRecords as number,
    'events per mark update (mean)': one.events / one.updates,
    'mark update p50 (ms)': a.p50,
    'mark update p99 (ms, target < 20)': a.p99,
    'mark update max (ms)': a.max,
    'mark update main-thread CPU, mean over all updates (ms)': a.cpuMean,
    'doubled untouched positions: live records': doubled.engine.stats().leverRecords as number,
    'doubled: events per mark update (mean)': two.events / two.updates,
    'doubled: mark update p50 (ms)': b.p50,
    'doubled: mark update p99 (ms)': b.p99,
    'doubled: main-thread CPU, mean over all updates (ms)': b.cpuMean,
    'doubled: p99 change, wall (%, target < +10)': change(a.p99, b.p99),
    'doubled: change of mean main-thread CPU (%)': change(a.cpuMean, b.cpuMean),
    'doubled: p50 change, wall (%)': change(a.p50, b.p50),
    'build seconds (base / doubled)': `${buildSeconds.toFixed(1)} / ${doubledBuildSeconds.toFixed(1)}`,
  };
}
if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runLeverBench({
    positions: Number(process.argv[2] ?? 100_000),
    entries: Number(process.argv[3] ?? 100_000),
  });
  for (const [key, value] of Object.entries(figures)) console.log(`${key}: ${value}`);
}
