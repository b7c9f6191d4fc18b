// P2P payment-window benchmark (docs/p2p.md): 10,000 concurrent unpaid orders reaching their window's end.
//
// The real engine runner with projections on PGlite (and PostgreSQL when DATABASE_URL is set). 10 merchants
// post sell ads (escrowed at posting); 500 buyers take 20 orders each, 10,000 orders of a 15-minute window
// created within one second of command time. Then the clock runs at wall-clock speed from just before the
// first deadline, with the scheduler's P2P tick job (scheduler/p2p-tick.ts, every 250 ms) as the only
// traffic. For each order: from the moment its deadline passed to the moment its cancellation was committed
// (escrow back in its ad, the p2p_order_steps row written in the same transaction). Reported: p50, p99 and
// the maximum of that delay, and what is still locked afterwards (must be nothing).
//
// Run directly: node packages/server/bench/p2p-bench.ts, or npm run bench -- p2p
import type { Command, Outcome } from '@fairex/engine';
import { createExchangeRunner } from '../src/exchange-runner.ts';
import { startP2pTick } from '../src/scheduler/p2p-tick.ts';
import type { OpenStoreOptions } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { onEachStore } from './journal-bench.ts';

type Figures = Record<string, number | string>;

const ORDERS = Number(process.env.P2P_BENCH_ORDERS ?? 10_000);
const MERCHANTS = 10;
const BUYERS = 500;
const GROUP = 2_000;
const USDT = 3;
const WINDOW_MS = 15 * 60_000;
const quietLogger = { info() {}, warn() {}, error() {} };

function setupCommands(): Command[] {
  const commands: Command[] = [{ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 }];
  for (let merchant = 1; merchant <= MERCHANTS; merchant++) {
    commands.push({ type: 'deposit', userId: merchant, currencyId: USDT, amount: 10n ** 13n });
    commands.push({ type: 'p2pSetMerchant', userId: merchant, approved: true, acceptor: false });
    commands.push({
      type: 'p2pPostAd',
      userId: merchant,
      side: 'sell',
      currencyId: USDT,
      fiat: 'CNY',
      total: 10n ** 13n,
      priceCents: 720n,
      floatBp: null,
      minFiatCents: 100n,
      maxFiatCents: 10n ** 9n,
      windowMs: WINDOW_MS,
      methodIds: [merchant],
      terms: '',
    });
  }
  return commands;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

async function measure(name: string, options: OpenStoreOptions): Promise<Figures> {
  const store = await openStore(options);
  let fake = 1_800_000_000_000;
  let live: { fakeStart: number; realStart: number } | null = null;
  const clock = () =>
    live === null ? fake : Math.floor(live.fakeStart + (performance.now() - live.realStart));
  const runner = await createExchangeRunner({
    store,
    logger: quietLogger,
    projections: true,
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    snapshotOnClose: false,
    clock,
  });
  try {
    for (const command of setupCommands()) {
      const outcome = await runner.submit(command);
      if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    }
    const deadlines = new Map<number, number>();
    const createdAt = fake;
    const submitStart = performance.now();
    for (let first = 0; first < ORDERS; first += GROUP) {
      const group: Promise<Outcome>[] = [];
      for (let index = first; index < Math.min(ORDERS, first + GROUP); index++)
        group.push(
          runner.submit({
            type: 'p2pTakeAd',
            userId: 1_000 + (index % BUYERS),
            adId: 1 + (index % MERCHANTS),
            amount: 10_000_000n + BigInt(index % 100) * 1_000n,
            methodId: 0,
          }) as Promise<Outcome>,
        );
      for (const outcome of await Promise.all(group)) {
        if (outcome.code !== 0) throw new Error(`order refused with ${outcome.code}`);
        const reply = outcome.reply as { orderId: number; deadlineMs: number };
        deadlines.set(reply.orderId, reply.deadlineMs);
      }
      fake = Math.min(createdAt + 900, fake + 150);
    }
    const submitMs = performance.now() - submitStart;
    const escrowed = runner.engine.p2p.escrow();
    // Wall-clock speed from 200 ms before the first deadline; the tick job is the only traffic.
    const firstDeadline = Math.min(...deadlines.values());
    live = { fakeStart: firstDeadline - 200, realStart: performance.now() };
    const realOf = (fakeMs: number) =>
      (live as { realStart: number; fakeStart: number }).realStart +
      (fakeMs - (live as { fakeStart: number }).fakeStart);
    const delays: number[] = [];
    const stop = runner.onCommitted((batch) => {
      const now = performance.now();
      for (const { outcome } of batch.entries)
        for (const event of outcome.events)
          if (event.type === 'p2pOrderChanged' && event.end === 'timedOut')
            delays.push(now - realOf(deadlines.get(event.orderId) as number));
    });
    let ticks = 0;
    const job = startP2pTick({
      engine: runner.engine,
      submit: (command) => {
        ticks += 1;
        return runner.submit(command);
      },
      now: clock,
    });
    const lastDeadline = Math.max(...deadlines.values());
    while (delays.length < ORDERS && performance.now() < realOf(lastDeadline) + 30_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await job.stop();
    stop();
    const left = runner.engine.p2p.escrow();
    const { rows } = await store.query<{ n: string }>(
      `select count(*)::text as n from p2p_order_steps where order_end = 'timedOut'`,
    );
    let locked = 0n;
    for (let merchant = 1; merchant <= MERCHANTS; merchant++)
      locked += runner.engine.ledger.balance(merchant, 'change', USDT).locked;
    const sorted = delays.sort((a, b) => a - b);
    return {
      [`${name}: unpaid orders open at the window's end`]: escrowed.orders,
      [`${name}: order creation throughput (orders/s, durable, escrowed)`]: Math.round(
        ORDERS / (submitMs / 1000),
      ),
      [`${name}: cancelled by timeout (engine events)`]: delays.length,
      [`${name}: timedOut rows in p2p_order_steps`]: Number(rows[0]?.n ?? 0),
      [`${name}: orders still open afterwards`]: left.orders,
      [`${name}: order escrow still locked`]: String(left.held.get(USDT) ?? 0n),
      [`${name}: merchants' locked (all back in their ads' escrow)`]:
        locked === 10n ** 13n * BigInt(MERCHANTS) ? 'yes' : `no (${locked})`,
      [`${name}: tick commands journaled`]: ticks,
      [`${name}: deadline to cancellation committed, p50 (ms)`]: Math.round(percentile(sorted, 0.5)),
      [`${name}: deadline to cancellation committed, p99 (ms)`]: Math.round(percentile(sorted, 0.99)),
      [`${name}: deadline to cancellation committed, max (ms)`]: Math.round(sorted[sorted.length - 1] ?? 0),
    };
  } finally {
    await runner.close();
    await store.close();
  }
}

export async function runP2pBench(): Promise<Figures> {
  return onEachStore('p2p', measure);
}

if (import.meta.main) {
  for (const [key, value] of Object.entries(await runP2pBench())) console.log(`${key}: ${value}`);
}
