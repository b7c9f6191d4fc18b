// The runner with the real engine: projections against the engine's own state and against a rebuild from
// the journal, recovery against a runner that never stopped, idempotent retries, and the Fastify plugin.
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command, Engine } from '@fairex/engine';
import { ReasonCode } from '@fairex/engine';
import type { Store } from '../../src/store/index.ts';
import { createExchangeRunner, rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import type { EngineRunnerOptions, ExchangeRunner } from '../../src/engine-runner/index.ts';
import {
  engineKit,
  engineRunnerPlugin,
  ownerKey,
  RunnerUnavailableError,
} from '../../src/engine-runner/index.ts';
import { BTC, BTC_USDT, setupCommands, USDT, Workload } from '../../bench/workload.ts';
import { memoryLogger, open, steppingClock, storeTargets } from './test-stores.ts';

function start(store: Store, options: Partial<EngineRunnerOptions> = {}): Promise<ExchangeRunner> {
  return createExchangeRunner({ store, logger: memoryLogger(), clock: steppingClock(), ...options });
}

/** Runs setup and then `count` workload commands, `concurrency` at a time so batches hold several. */
async function drive(runner: ExchangeRunner, count: number, seed = 7, users = 20, concurrency = 25) {
  for (const command of setupCommands(users)) {
    const outcome = await runner.submit(command);
    if (outcome.code !== 0) throw new Error(`setup ${command.type} refused with ${outcome.code}`);
  }
  const workload = new Workload(seed, users);
  for (let done = 0; done < count; done += concurrency) {
    const wave: Promise<unknown>[] = [];
    for (let index = 0; index < concurrency && done + index < count; index++) {
      wave.push(runner.submit(workload.next(runner.engine)));
    }
    await Promise.all(wave);
  }
}

/** Each currency's accounts sum to zero and no account but the outside world is negative. */
function expectBalanced(engine: Engine): void {
  const sums = new Map<number, bigint>();
  for (const account of engine.ledger.accounts()) {
    sums.set(account.currencyId, (sums.get(account.currencyId) ?? 0n) + account.available + account.locked);
    if (account.owner !== 'outside') {
      expect(account.available >= 0n && account.locked >= 0n).toBe(true);
    }
  }
  expect(sums.size).toBeGreaterThan(0);
  for (const sum of sums.values()) expect(sum).toBe(0n);
}

async function dumpProjections(store: Store): Promise<Record<string, unknown[]>> {
  const orders = await store.query('select * from spot_orders order by order_id');
  const trades = await store.query('select * from spot_trades order by trade_id');
  const log = await store.query('select * from account_log order by seq, event_index');
  return { orders: orders.rows, trades: trades.rows, log: log.rows };
}

for (const target of storeTargets()) {
  describe(`engine runner with the engine on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it('writes projections that match the engine, and a rebuild from the journal reproduces them', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store, { checkpointEvery: 500 });
      await drive(runner, 2_000);
      const engine = runner.engine;
      expectBalanced(engine);
      await runner.close();

      // An order has a row once it closed, never while open: the engine's open orders have none, and every
      // other accepted order has exactly one.
      const closed = await store.query<{ order_id: bigint }>(
        'select order_id from spot_orders order by order_id',
      );
      const closedIds = closed.rows.map((row) => Number(row.order_id));
      const openIds: number[] = [];
      for (let userId = 1; userId <= 20; userId++) {
        for (const order of engine.spot.openOrders(userId, BTC_USDT)) openIds.push(order.orderId);
      }
      expect(openIds.length).toBeGreaterThan(0);
      expect(closedIds.length).toBeGreaterThan(0);
      expect(closedIds.filter((id) => openIds.includes(id))).toEqual([]);
      const accepted = await store.query<{ count: bigint }>(
        `select count(distinct reference_id) as count from account_log where reason = ${ReasonCode.orderHold}`,
      );
      expect(closedIds.length + openIds.length).toBe(Number(accepted.rows[0]?.count));
      // Each closed row's totals are the sums over its fills, however many batches they spanned.
      const wrong = await store.query(
        `select o.order_id from spot_orders o
           cross join lateral (
             select coalesce(sum(t.quantity_lots), 0) as lots, coalesce(sum(t.quote_amount), 0) as quote,
                    coalesce(sum(case when t.maker_order_id = o.order_id then t.maker_fee else t.taker_fee end), 0)
                      as fee
               from spot_trades t where t.maker_order_id = o.order_id or t.taker_order_id = o.order_id) f
          where f.lots <> o.filled_lots or f.quote <> o.quote_filled or f.fee <> o.fee_paid`,
      );
      expect(wrong.rows).toEqual([]);
      const spanning = await store.query<{ count: bigint }>(
        `select count(*) as count from spot_orders o
          where exists (select 1 from spot_trades t where t.maker_order_id = o.order_id and t.seq < o.closed_seq)`,
      );
      expect(Number(spanning.rows[0]?.count)).toBeGreaterThan(0);

      // The last account-log entry of every account shows its balance in the engine.
      const latest = await store.query<{
        owner_key: number;
        wallet: string;
        currency_id: number;
        available_after: string;
        locked_after: string;
      }>(
        `select distinct on (owner_key, wallet, currency_id) owner_key, wallet, currency_id, available_after,
           locked_after from account_log order by owner_key, wallet, currency_id, seq desc, event_index desc`,
      );
      const accounts = engine.ledger.accounts();
      expect(latest.rows.length).toBeGreaterThanOrEqual(accounts.length);
      for (const account of accounts) {
        const row = latest.rows.find(
          (entry) =>
            entry.owner_key === ownerKey(account.owner) &&
            entry.wallet === account.wallet &&
            entry.currency_id === account.currencyId,
        );
        expect(row && [BigInt(row.available_after), BigInt(row.locked_after)]).toEqual([
          account.available,
          account.locked,
        ]);
      }
      const trades = await store.query<{ count: bigint }>('select count(*) as count from spot_trades');
      expect(Number(trades.rows[0]?.count)).toBeGreaterThan(100);

      // The runner hashes snapshot text natively; it must agree with the engine's own state hash.
      expect(engineKit().hashSnapshot?.(engine.snapshot())).toBe(engine.stateHash());

      const live = await dumpProjections(store);
      const rebuilt = await rebuildExchangeProjections(store);
      expect(rebuilt.stateHash).toBe(engine.stateHash());
      expect(await dumpProjections(store)).toEqual(live);
      await store.close();
    });

    it('recovers to the state of a runner that never stopped, with every invariant holding', async () => {
      const options = await target.fresh();
      let store = await open(options);
      const runner = await start(store, { snapshotEvery: 700, checkpointEvery: 150, snapshotOnClose: false });
      await drive(runner, 2_500, 11);
      const liveHash = runner.engine.stateHash();
      const liveSeq = runner.stats().lastSeq;
      await runner.close();
      await store.close();

      store = await open(options);
      const restarted = await start(store);
      const { recovery } = restarted.stats();
      expect(recovery.snapshotSeq).toBeGreaterThan(0);
      expect(recovery.replayedCommands).toBe(liveSeq - recovery.snapshotSeq);
      expect(restarted.engine.stateHash()).toBe(liveHash);
      restarted.engine.checkInvariants();
      expectBalanced(restarted.engine);
      // It serves on from there.
      const next = await restarted.submit({ type: 'deposit', userId: 1, currencyId: BTC, amount: 5n });
      expect(next).toMatchObject({ seq: liveSeq + 1, code: 0 });
      await restarted.close();
      await store.close();
    });

    it('applies a retried command once: same reply, one balance change, one account-log transfer', async () => {
      const options = await target.fresh();
      let store = await open(options);
      let runner = await start(store);
      for (const command of setupCommands(1)) await runner.submit(command);
      const deposit: Command = { type: 'deposit', userId: 1, currencyId: USDT, amount: 123n };
      const first = await runner.submit(deposit, { idempotencyKey: 'chain-tx-1' });
      const retry = await runner.submit(deposit, { idempotencyKey: 'chain-tx-1' });
      expect(retry).toMatchObject({ duplicate: true, originalSeq: first.seq, reply: first.reply });
      await runner.close();
      await store.close();

      store = await open(options);
      runner = await start(store);
      const late = await runner.submit(deposit, { idempotencyKey: 'chain-tx-1' });
      expect(late).toMatchObject({ duplicate: true, originalSeq: first.seq });
      expect(runner.engine.ledger.balance(1, 'change', USDT).available).toBe(
        100_000_000n * 1_000_000n + 123n,
      );
      const log = await store.query<{ count: bigint }>(
        'select count(*) as count from account_log where reason = $1 and owner_key = 1 and available_after - available_before = 123',
        [ReasonCode.deposit],
      );
      expect(Number(log.rows[0]?.count)).toBe(1);
      await runner.close();
      await store.close();
    });

    it('keeps memos and client order ids exact, backslashes included', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store);
      for (const command of setupCommands(1)) await runner.submit(command);
      // The engine refuses control characters; backslash sequences are what could go wrong on the way in.
      const memo = String.raw`backslash \N and \t and \ alone, quote " ' and 中文 \.`;
      const deposit = await runner.submit({ type: 'deposit', userId: 1, currencyId: USDT, amount: 9n, memo });
      const clientOrderId = String.raw`\N`;
      const order = await runner.submit({
        type: 'placeOrder',
        owner: 1,
        marketId: BTC_USDT,
        side: 'buy',
        kind: 'limit',
        priceTicks: 100,
        quantityLots: 1,
        clientOrderId,
      });
      expect([deposit.code, order.code]).toEqual([0, 0]);
      // The order's row is written when it closes.
      const orderId = (order.reply as { orderId: number }).orderId;
      expect((await runner.submit({ type: 'cancelOrder', owner: 1, orderId })).code).toBe(0);
      await runner.close();
      const log = await store.query<{ memo: string | null }>(
        'select memo from account_log where available_after - available_before = 9 and owner_key = 1',
      );
      expect(log.rows.map((row) => row.memo)).toEqual([memo]);
      const orders = await store.query<{ client_order_id: string | null }>(
        'select client_order_id from spot_orders',
      );
      expect(orders.rows.map((row) => row.client_order_id)).toEqual([clientOrderId]);
      await store.close();
    });

    it.runIf(target.name === 'PostgreSQL')('lets only one runner run the engine of a database', async () => {
      const options = await target.fresh();
      const first = await open(options);
      const second = await open(options);
      const leader = await start(first);
      await expect(start(second, { leaderWaitMs: 300 })).rejects.toBeInstanceOf(RunnerUnavailableError);
      await leader.close();
      // The lock goes with the leader: a successor starts and serves.
      const successor = await start(second);
      await successor.submit({ type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 });
      await successor.close();
      await Promise.all([first.close(), second.close()]);
    });

    it('serves through the Fastify plugin and drains when the app closes', async () => {
      const options = await target.fresh();
      const store = await open(options);
      const app = Fastify({ logger: false });
      await app.register(engineRunnerPlugin, { store, clock: steppingClock() });
      await app.ready();
      const committed: number[] = [];
      app.runner.onCommitted((batch) => committed.push(batch.lastSeq));
      const pending = setupCommands(2).map((command) => app.runner.submit(command));
      await app.close();
      expect((await Promise.all(pending)).every((outcome) => outcome.code === 0)).toBe(true);
      expect(app.runner.state).toBe('closed');
      expect(committed.at(-1)).toBe(pending.length);
      expect(app.engine.ledger.balance(2, 'change', BTC).available).toBe(1_000n * 100_000_000n);
      await store.close();
    });
  });
}
