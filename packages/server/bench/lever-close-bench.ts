// Leverage benchmark (docs/lever-calls.md): a mark crossing a liquidation threshold, to the position closed,
// committed and pushed. Target (issue 17): p99 < 100 ms.
//
// The real engine runner with projections on PGlite (and PostgreSQL when DATABASE_URL is set) and a clock the
// bench sets. BACKGROUND funded users hold one 10x long each on BTC/USDT far from liquidation. Then, ROUNDS
// times: the mark is put back at 67,000, a fresh user opens a 50x long (liquidated near 65,750), and one
// recordPriceSamples command moves the mark to 60,000. Measured from submitting that command: the moment it
// is committed (the liquidation, the insurance fund's payment and the lever rows durable in one
// transaction), and the moment that user's `lever_trade` push (built by the area's own push code, reading
// its rows) was handed to the socket layer (a counting stand-in for Socket.IO).
//
// Run directly: node packages/server/bench/lever-close-bench.ts, or npm run bench -- lever-close
import type { Command } from '@fairex/engine';
import { createEngineRunner } from '../src/engine-runner/index.ts';
import { exchangeProjectors } from '../src/exchange-runner.ts';
import { startLeverPushes } from '../src/lever/pushes.ts';
import { LeverService } from '../src/lever/service.ts';
import type { MarketInfo } from '../src/market/market-catalog.ts';
import type { OpenStoreOptions } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { onEachStore } from './journal-bench.ts';

type Figures = Record<string, number | string>;

const BTC = 1;
const USDT = 3;
const MARKET = 1;
const BACKGROUND = 2_000;
const ROUNDS = 200;
const quietLogger = { info() {}, warn() {}, error() {} };

const MARKET_INFO: MarketInfo = {
  marketId: MARKET,
  symbol: 'BTC/USDT',
  baseCurrencyId: BTC,
  quoteCurrencyId: USDT,
  baseCode: 'BTC',
  quoteCode: 'USDT',
  baseScale: 8,
  quoteScale: 6,
  priceScale: 2,
  tickUnits: 1n,
  lotBaseMinor: 10_000n,
  quoteMinorPerTickLot: 1n,
  quantityScale: 4,
  minimumLots: 1,
  minNotionalMinor: 0n,
  makerFeePpm: 0,
  takerFeePpm: 0,
  isDisplay: true,
  displayOrder: 1,
  logo: null,
  leverShareSize: 1_000_000n,
  leverSpreadPpm: 500,
  leverFeePpm: 1_000,
};

function setupCommands(): Command[] {
  const commands: Command[] = [
    { type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 },
    { type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 },
    {
      type: 'addMarket',
      marketId: MARKET,
      baseCurrencyId: BTC,
      quoteCurrencyId: USDT,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    },
    {
      type: 'setLeverPair',
      marketId: MARKET,
      enabled: true,
      lotsPerShare: 100,
      multiples: [10, 50],
      minShare: 1,
      maxShare: 1_000,
      spreadPpm: 500,
      feePpm: 1_000,
      overnightPpm: 500,
      liquidationThresholdBp: 1_000,
      liquidationFeePpm: 0,
      exposureLimitLots: 100_000_000,
    },
    { type: 'systemFund', owner: 'house', wallet: 'lever', currencyId: USDT, amount: 10n ** 15n },
    { type: 'systemFund', owner: 'insurance', wallet: 'lever', currencyId: USDT, amount: 10n ** 14n },
  ];
  return commands;
}

function fund(userId: number, amount: bigint): Command[] {
  return [
    { type: 'deposit', userId, currencyId: USDT, amount },
    { type: 'transfer', userId, currencyId: USDT, fromWallet: 'change', toWallet: 'lever', amount },
  ];
}

function mark(priceTicks: number, timeMs: number): Command {
  return {
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 60_000,
    samples: [[MARKET, [['simulated', priceTicks, timeMs]]]],
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
    // Every area's projections, as the server writes them: the account log and the lever rows included.
    projectors: exchangeProjectors(store.kind),
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    snapshotOnClose: false,
    clock: () => now,
  });
  const submit = async (command: Command) => {
    const outcome = await runner.submit(command);
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    return outcome;
  };
  try {
    for (const command of setupCommands()) await submit(command);
    now += 1_000;
    await submit(mark(6_700_000, now));
    // The background: one 10x long each, funded well beyond any liquidation.
    const background: Promise<unknown>[] = [];
    for (let user = 1; user <= BACKGROUND; user++) {
      for (const command of fund(user, 100_000n * 1_000_000n)) background.push(runner.submit(command));
      background.push(
        runner.submit({
          type: 'openLeverPosition',
          userId: user,
          marketId: MARKET,
          side: 1,
          share: 1,
          multiple: 10,
        }),
      );
      if (background.length >= 1_500) await Promise.all(background.splice(0));
    }
    await Promise.all(background);
    const service = new LeverService(runner, store, (marketId) =>
      marketId === MARKET ? MARKET_INFO : undefined,
    );
    let crossingUser = 0;
    let crossingStart = 0;
    let pushed = -1;
    const stop = startLeverPushes({
      service,
      realtime: {
        toUser: (userId) => {
          if (userId === crossingUser && pushed < 0) pushed = performance.now() - crossingStart;
        },
        // Only the crossing user has a socket (the background holders' mark pushes are not built).
        mayReachUser: (userId) => userId === crossingUser,
      },
      scaleOf: () => 6,
      onCommitted: (listener) => runner.onCommitted(listener),
    });
    const committed: number[] = [];
    const pushes: number[] = [];
    let liquidated = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const user = BACKGROUND + 1 + round;
      now += 1_000;
      await submit(mark(6_700_000, now));
      for (const command of fund(user, 1_000n * 1_000_000n)) await submit(command);
      await submit({
        type: 'openLeverPosition',
        userId: user,
        marketId: MARKET,
        side: 1,
        share: 60,
        multiple: 50,
      });
      // Let the open's push go by before the crossing is timed.
      await new Promise((resolve) => setTimeout(resolve, 5));
      crossingUser = user;
      pushed = -1;
      now += 1_000;
      crossingStart = performance.now();
      const outcome = await submit(mark(6_000_000, now));
      committed.push(performance.now() - crossingStart);
      if (outcome.events.some((event) => event.type === 'leverLiquidated')) liquidated++;
      while (pushed < 0 && performance.now() - crossingStart < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 1));
      pushes.push(pushed < 0 ? Number.POSITIVE_INFINITY : pushed);
    }
    stop();
    const sortedCommitted = [...committed].sort((a, b) => a - b);
    const sortedPushes = [...pushes].sort((a, b) => a - b);
    const { rows } = await store.query<{ n: string }>('select count(*)::text as n from lever_liquidations');
    const p99 = percentile(sortedPushes, 0.99);
    return {
      [`${name}: open positions untouched by the crossings`]: BACKGROUND,
      [`${name}: crossings (each liquidating one account)`]: ROUNDS,
      [`${name}: liquidations seen / rows in lever_liquidations`]: `${liquidated} / ${rows[0]?.n ?? 0}`,
      [`${name}: crossing to committed, p50 (ms)`]: Math.round(percentile(sortedCommitted, 0.5) * 10) / 10,
      [`${name}: crossing to committed, p99 (ms)`]: Math.round(percentile(sortedCommitted, 0.99) * 10) / 10,
      [`${name}: crossing to lever_trade pushed, p50 (ms)`]:
        Math.round(percentile(sortedPushes, 0.5) * 10) / 10,
      [`${name}: crossing to lever_trade pushed, p99 (ms)`]: Math.round(p99 * 10) / 10,
      [`${name}: target p99 < 100 ms`]: p99 < 100 ? 'met' : 'NOT met',
    };
  } finally {
    await runner.close();
    await store.close();
  }
}

export async function runLeverCloseBench(): Promise<Figures> {
  return onEachStore('lever', measure);
}

if (import.meta.main) {
  for (const [key, value] of Object.entries(await runLeverCloseBench())) console.log(`${key}: ${value}`);
}
