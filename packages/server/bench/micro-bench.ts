// Seconds-contract benchmark (docs/micro.md): 50,000 contracts on 10 pairs expiring in the same second.
//
// The real engine runner with projections on PGlite (and PostgreSQL when DATABASE_URL is set) and a clock
// the bench sets: 500 funded users submit 50,000 orders of 5 s, all accepted within one second of command
// time (submitted in groups of 2,000 at once, so they share batches); a sample of every pair opens them;
// then the first recordPriceSamples command after the expiry settles all of them in one command. Measured
// from submitting that command: the moment it is committed (all 50,000 settled and durable, micro_results
// rows inserted in the same transaction), and the moment each `closed_microorder` push was handed to the
// socket layer (a counting stand-in for Socket.IO), whose p50, p99 and maximum are reported.
//
// Run directly: node packages/server/bench/micro-bench.ts, or npm run bench -- micro
import type { Command, Outcome } from '@fairex/engine';
import { createEngineRunner } from '../src/engine-runner/index.ts';
import { startMicroPushes } from '../src/micro/pushes.ts';
import type { OpenStoreOptions } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { onEachStore } from './journal-bench.ts';

type Figures = Record<string, number | string>;

const PAIRS = 10;
const ORDERS = 50_000;
const USERS = 500;
const GROUP = 2_000;
const USDT = 100;
const quietLogger = { info() {}, warn() {}, error() {} };

function setupCommands(): Command[] {
  const commands: Command[] = [{ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 }];
  for (let pair = 1; pair <= PAIRS; pair++) {
    commands.push({ type: 'addCurrency', currencyId: pair, code: `C${pair}`, scale: 8 });
    commands.push({
      type: 'addMarket',
      marketId: pair,
      baseCurrencyId: pair,
      quoteCurrencyId: USDT,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    });
  }
  commands.push({ type: 'setMicroSeconds', options: [[5, 8_500]] });
  commands.push({
    type: 'setMicroCurrency',
    currencyId: USDT,
    feeBp: 100,
    minStake: 1_000_000n,
    maxStake: 1_000_000_000n,
    presets: [],
    maxOpenOrders: 1_000,
  });
  for (let pair = 1; pair <= PAIRS; pair++)
    commands.push({ type: 'setMicroExposureCap', marketId: pair, currencyId: USDT, exposureCap: 10n ** 15n });
  commands.push({
    type: 'systemFund',
    owner: 'house',
    wallet: 'micro',
    currencyId: USDT,
    amount: 10n ** 15n,
  });
  for (let user = 1; user <= USERS; user++) {
    commands.push({ type: 'deposit', userId: user, currencyId: USDT, amount: 10n ** 12n });
    commands.push({
      type: 'transfer',
      userId: user,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'micro',
      amount: 10n ** 12n,
    });
  }
  return commands;
}

function samples(second: number, timeMs: number): Command {
  const quotes: [number, [string, number, number][]][] = [];
  for (let pair = 1; pair <= PAIRS; pair++)
    quotes.push([pair, [['simulated', 6_700_000 + ((second * 31 + pair) % 7) - 3, timeMs]]]);
  return {
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 60_000,
    samples: quotes,
  };
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

async function measure(name: string, options: OpenStoreOptions): Promise<Figures> {
  const store = await openStore(options);
  let now = 1_800_000_000_000;
  const runner = await createEngineRunner({
    store,
    logger: quietLogger,
    projections: true,
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    snapshotOnClose: false,
    clock: () => now,
  });
  try {
    for (const command of setupCommands()) {
      const outcome = await runner.submit(command);
      if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    }
    let settleStart = 0;
    const pushedAt: number[] = [];
    const stop = startMicroPushes({
      engine: runner.engine,
      realtime: { toUser: () => pushedAt.push(performance.now() - settleStart) },
      symbolOf: (marketId) => `C${marketId}/USDT`,
      onCommitted: (listener) => runner.onCommitted(listener),
      now: () => now,
    });
    // Acceptance: every order within the same second of command time.
    now = Math.floor(now / 1000) * 1000 + 1000;
    const acceptedAt = now;
    const submitStart = performance.now();
    for (let first = 0; first < ORDERS; first += GROUP) {
      const group: Promise<Outcome>[] = [];
      for (let index = first; index < Math.min(ORDERS, first + GROUP); index++)
        group.push(
          runner.submit({
            type: 'submitMicroOrder',
            userId: 1 + (index % USERS),
            marketId: 1 + (index % PAIRS),
            currencyId: USDT,
            direction: index % 3 === 0 ? 2 : 1,
            seconds: 5,
            stake: 1_000_000n + BigInt(index % 1_000) * 10_000n,
          }) as Promise<Outcome>,
        );
      for (const outcome of await Promise.all(group))
        if (outcome.code !== 0) throw new Error(`order refused with ${outcome.code}`);
      now = Math.min(acceptedAt + 900, now + 15);
    }
    const submitMs = performance.now() - submitStart;
    now = acceptedAt + 1_000;
    await runner.submit(samples(1, now));
    now = acceptedAt + 4_990;
    await runner.submit(samples(2, now));
    // The first command after every expiry settles all 50,000.
    now = acceptedAt + 6_000;
    settleStart = performance.now();
    const outcome = await runner.submit(samples(3, now));
    const committedMs = performance.now() - settleStart;
    const settled = outcome.events.filter((event) => event.type === 'microOrderSettled').length;
    while (pushedAt.length < settled && performance.now() - settleStart < 30_000)
      await new Promise((resolve) => setTimeout(resolve, 5));
    stop();
    const { rows } = await store.query<{ closed: string }>(
      'select count(*)::text as closed from micro_results',
    );
    const sorted = [...pushedAt].sort((a, b) => a - b);
    return {
      [`${name}: orders submitted (all in one second of command time)`]: ORDERS,
      [`${name}: submit throughput (orders/s, durable)`]: Math.round(ORDERS / (submitMs / 1000)),
      [`${name}: settled by the first command after expiry`]: settled,
      [`${name}: settled rows in micro_results`]: Number(rows[0]?.closed ?? 0),
      [`${name}: settle command applied and committed (ms)`]: Math.round(committedMs),
      [`${name}: closed_microorder pushed, p50 (ms)`]: Math.round(percentile(sorted, 0.5)),
      [`${name}: closed_microorder pushed, p99 (ms)`]: Math.round(percentile(sorted, 0.99)),
      [`${name}: closed_microorder pushed, max (ms)`]: Math.round(sorted[sorted.length - 1] ?? 0),
    };
  } finally {
    await runner.close();
    await store.close();
  }
}

export async function runMicroBench(): Promise<Figures> {
  return onEachStore('micro', measure);
}

if (import.meta.main) {
  for (const [key, value] of Object.entries(await runMicroBench())) console.log(`${key}: ${value}`);
}
