// A restart serves before the projector has written what the durable log gave back (the embedded store's
// journal rows and projections of the commands the projector had not reached when the process died). What
// reads projection tables once at start must not miss those commands: market data and the last traded
// prices fold their trades from the runner's unprojected batches, the wallets' reconciliation waits for the
// projector before it looks for an interrupted flash exchange in the account log, and every signed-in read
// waits for all of them.
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from '@fairex/engine';
import { translate } from '@fairex/shared';
import { whenCaughtUp } from '../../src/engine-runner/index.ts';
import { createExchangeRunner } from '../../src/exchange-runner.ts';
import type { Store } from '../../src/store/index.ts';
import { openStore } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openPgliteTestStore, removeTempDirs } from '../helper.ts';
import { BTC_USDT, BUYER, fundTraders, SELLER } from '../market/helpers.ts';
import { memoryLogger } from './test-stores.ts';

afterAll(async () => {
  await removeTempDirs();
});

/** A data folder whose app has started once (catalogue, markets) and funded the market's two traders. */
async function preparedFolder(): Promise<{ store: Store; dataDir: string }> {
  const prepared = await openPgliteTestStore();
  const app = await buildTestApp(prepared.store);
  await app.ready();
  await fundTraders(app);
  await app.close();
  return prepared;
}

/**
 * Runs `commands` on a runner whose projector waits two seconds before writing anything, then "kills" it
 * (the store closed under it): everything they committed is in the durable log only. Returns the outcomes.
 */
async function commitAndKill(store: Store, commands: readonly Command[]) {
  const runner = await createExchangeRunner({
    store,
    logger: memoryLogger(),
    projectorDelayMs: 2_000,
    snapshotOnClose: false,
  });
  const outcomes = [];
  for (const command of commands) {
    const outcome = await runner.submit(command);
    expect(outcome.code, command.type).toBe(0);
    outcomes.push(outcome);
  }
  expect(runner.stats().projectedSeq).toBeLessThan(runner.stats().lastCommittedSeq);
  await store.close();
  return outcomes;
}

async function count(store: Store, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await store.query<{ count: number }>(sql, params);
  return rows[0]?.count ?? 0;
}

describe('a restart serving before the durable log is written back', () => {
  it('folds the tail into market data and makes every signed-in read wait for it', async () => {
    const { store, dataDir } = await preparedFolder();
    const order = {
      type: 'placeOrder',
      marketId: BTC_USDT.marketId,
      kind: 'limit',
      quantityLots: 3,
    } as const;
    const outcomes = await commitAndKill(store, [
      { ...order, owner: SELLER, side: 'sell', priceTicks: 6_500_100 },
      { ...order, owner: BUYER, side: 'buy', priceTicks: 6_500_100 },
      { ...order, owner: SELLER, side: 'sell', priceTicks: 6_500_200 },
      { ...order, owner: BUYER, side: 'buy', priceTicks: 6_500_200 },
    ]);
    const tradeIds = outcomes.flatMap((outcome) =>
      outcome.events.flatMap((event) => (event.type === 'trade' ? [event.tradeId] : [])),
    );
    expect(tradeIds).toHaveLength(2);

    const reopened = await openStore({ dataDir });
    // The projector waits five seconds before each transaction: the app is ready long before.
    const app: FastifyInstance = await buildTestApp(reopened, {
      projectorDelayMs: 5_000,
      env: { READ_YOUR_WRITES_WAIT_MS: '100' },
    });
    try {
      await app.ready();
      const { recovery, projectedSeq, lastCommittedSeq } = app.runner.stats();
      expect(recovery.fromDurableLog).toBeGreaterThanOrEqual(outcomes.length);
      expect(projectedSeq).toBeLessThan(lastCommittedSeq);
      expect(
        await count(reopened, 'select count(*)::int as count from spot_trades where trade_id = any($1)', [
          tradeIds,
        ]),
      ).toBe(0);
      // Market data has the trades the table does not hold yet.
      const recent = app.marketData.recentTrades(BTC_USDT.marketId).map((trade) => trade.tradeId);
      expect(recent.slice(0, 2)).toEqual([...tradeIds].reverse());
      expect(app.marketData.ticker(BTC_USDT.marketId).lastTicks).toBe(6_500_200);
      // So has the trading page's last price, read from the table once per market and kept from trades.
      expect(await app.spot.lastPrices.get(BTC_USDT.marketId)).toBe(6_500_200);

      // A user with nothing in the tail still waits for it: nobody knows whose commands it holds.
      const userId = await createUser(reopened);
      const token = await loginAs(reopened, userId);
      const read = () =>
        app.inject({
          method: 'POST',
          url: '/api/orders/history',
          payload: {},
          headers: { authorization: token, 'accept-language': 'en' },
        });
      expect((await read()).json()).toEqual({ type: 'error', message: translate('en', 'error.catching_up') });
      await whenCaughtUp(app.runner);
      expect((await read()).json()).toMatchObject({ type: 'ok' });
      expect(
        await count(reopened, 'select count(*)::int as count from spot_trades where trade_id = any($1)', [
          tradeIds,
        ]),
      ).toBe(2);
    } finally {
      await app.close();
      await reopened.close();
    }
  });

  it('finishes a flash exchange whose payment is in the tail rather than marking it failed', async () => {
    const { store, dataDir } = await preparedFolder();
    const userId = await createUser(store, { reviewStatus: 2 });
    const { rows } = await store.query<{ id: number }>(
      `insert into flash_exchanges (user_id, coin_currency_id, legal_currency_id, direction, amount, payout, fee,
                                    fee_ppm, price, index_price_time_ms, status)
       values ($1, 1, 3, 0, 100000000, 1000, 0, 2000, '65000', 0, 'pending') returning id`,
      [userId],
    );
    const flashId = rows[0]?.id as number;
    const [, , flash] = await commitAndKill(store, [
      { type: 'deposit', userId, currencyId: 3, amount: 100_000_000n },
      { type: 'systemFund', owner: 'house', currencyId: 1, amount: 1_000n, memo: 'flash inventory' },
      {
        type: 'flashExchange',
        userId,
        fromCurrencyId: 3,
        toCurrencyId: 1,
        amount: 100_000_000n,
        payoutAmount: 1_000n,
        feeAmount: 0n,
        memo: `flash:${flashId}`,
      },
    ]);

    const reopened = await openStore({ dataDir });
    const app = await buildTestApp(reopened, { projectorDelayMs: 300 });
    try {
      await app.ready();
      expect(app.runner.stats().recovery.fromDurableLog).toBeGreaterThanOrEqual(2);
      const { rows: after } = await reopened.query<{ status: string; engine_seq: number | null }>(
        'select status, engine_seq::int as engine_seq from flash_exchanges where id = $1',
        [flashId],
      );
      expect(after[0]).toEqual({ status: 'done', engine_seq: flash?.seq });
    } finally {
      await app.close();
      await reopened.close();
    }
  });
});
