// Transparency log benchmark (issue 42's engine target): what appending one second's price samples for 7
// markets costs on the engine's thread. Two engines receive the same `recordPriceSamples` commands (7 markets,
// 3 sources each, one command a second of command time), one with the log started (interval 1 s: every
// command appends a leaf and takes a checkpoint, the most the log can cost) and one without; the difference
// of their time per command is the log's cost. They run in alternating rounds, so a machine busy with other
// work slows both alike; the median round is reported. Target: < 0.2 ms extra per command.
import { Engine } from '../src/index.ts';
import type { Command, Outcome, RecordPriceSamplesCommand } from '../src/index.ts';

type Figures = Record<string, number | string>;

const MARKETS = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'TRX'];
const USDT = 100;
const T0 = 1_750_000_000_000;

type Bench = { engine: Engine; seq: number; timeMs: number };

function apply(bench: Bench, command: Command): Outcome {
  bench.seq += 1;
  const outcome = bench.engine.apply({ seq: bench.seq, timeMs: bench.timeMs, command });
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
  return outcome;
}

function setUp(withLog: boolean): Bench {
  const bench: Bench = { engine: Engine.create(), seq: 0, timeMs: T0 };
  apply(bench, { type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 });
  MARKETS.forEach((code, at) => {
    apply(bench, { type: 'addCurrency', currencyId: at + 1, code, scale: 8 });
    apply(bench, {
      type: 'addMarket',
      marketId: at + 1,
      baseCurrencyId: at + 1,
      quoteCurrencyId: USDT,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    });
  });
  if (withLog)
    apply(bench, { type: 'startLog', origin: 'bench.example/fairex-log', checkpointIntervalMs: 1_000 });
  return bench;
}

function second(bench: Bench, at: number): RecordPriceSamplesCommand {
  const t = bench.timeMs;
  return {
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 2,
    headIntervalMs: 60_000,
    samples: MARKETS.map((_, market) => [
      market + 1,
      [
        ['binance', 6_000_000 + ((at * 7 + market) % 500), t - 200],
        ['coinbase', 6_000_100 + ((at * 3 + market) % 400), t - 350],
        ['okx', 5_999_900 + ((at * 5 + market) % 300), t - 120],
      ],
    ]),
  };
}

/** Applies `count` one-second commands; returns the time per command in ms. */
function round(bench: Bench, count: number, offset: number): number {
  const commands: RecordPriceSamplesCommand[] = [];
  for (let at = 0; at < count; at += 1) {
    bench.timeMs += 1_000;
    commands.push(second(bench, offset + at));
  }
  bench.timeMs -= count * 1_000;
  const started = performance.now();
  for (const command of commands) {
    bench.timeMs += 1_000;
    apply(bench, command);
  }
  return (performance.now() - started) / count;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

export async function runLogBench(options: { rounds?: number; perRound?: number } = {}): Promise<Figures> {
  const rounds = options.rounds ?? 15;
  const perRound = options.perRound ?? 2_000;
  const plain = setUp(false);
  const logged = setUp(true);
  // Warm both up (JIT) before measuring.
  round(plain, perRound, 0);
  round(logged, perRound, 0);
  const without: number[] = [];
  const withLog: number[] = [];
  const extra: number[] = [];
  for (let at = 1; at <= rounds; at += 1) {
    const first = at % 2 === 0;
    const a = first ? round(plain, perRound, at * perRound) : 0;
    const b = round(logged, perRound, at * perRound);
    const c = first ? a : round(plain, perRound, at * perRound);
    without.push(c);
    withLog.push(b);
    extra.push(b - c);
  }
  const status = logged.engine.log.status();
  if (status.size !== (rounds + 1) * perRound) throw new Error(`the log holds ${status.size} leaves`);
  const extraMs = median(extra);
  return {
    'commands per round (7 markets each)': perRound,
    rounds,
    'ms per command, log not started (median round)': median(without),
    'ms per command, log started (median round)': median(withLog),
    'extra ms per command (median of the rounds)': extraMs,
    'leaves appended': status.size,
    'target < 0.2 ms extra': extraMs < 0.2 ? 'met' : 'not met',
  };
}
