// Read-your-writes over journal-first commits, through the HTTP routes. A placement is answered once its
// command is in the journal; the order's history row is written behind it by the projector stage, which this
// app slows down so that it lags. The owner's next read must still show the order (it waits for the
// projector), a bounded wait that runs out is refused in words rather than answered with stale rows, and
// the back office sees every acknowledged order.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDecimal, translate } from '@fairex/shared';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';
import { PAIR, USDT } from './spot-app.ts';

type Reply = { type: string; message: unknown };

let store: Store;

async function startApp(projectorDelayMs: number, waitMs: number): Promise<FastifyInstance> {
  const app = await buildTestApp(store, {
    projectorDelayMs,
    env: { READ_YOUR_WRITES_WAIT_MS: String(waitMs) },
  });
  await app.ready();
  return app;
}

async function call(app: FastifyInstance, url: string, payload: Record<string, unknown>, token: string) {
  const response = await app.inject({
    method: 'POST',
    url: `/api${url}`,
    payload,
    headers: { authorization: token },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Reply;
}

async function fundedTrader(app: FastifyInstance): Promise<{ id: number; token: string }> {
  const id = await createUser(store);
  const outcome = await app.runner.submit({
    type: 'deposit',
    userId: id,
    currencyId: USDT,
    amount: parseDecimal('10000', 6),
  });
  expect(outcome.code).toBe(0);
  return { id, token: await loginAs(store, id) };
}

async function rowsOf(userId: number): Promise<number> {
  const { rows } = await store.query<{ count: number }>(
    'select count(*)::int as count from spot_orders where owner_key = $1',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

/** A history read refused in words because the projector did not reach the reader's writes in time. */
async function expectCatchingUp(app: FastifyInstance, token: string): Promise<void> {
  const read = await app.inject({
    method: 'POST',
    url: '/api/orders/history',
    payload: {},
    headers: { authorization: token, 'accept-language': 'en' },
  });
  expect(read.json()).toEqual({ type: 'error', message: translate('en', 'error.catching_up') });
}

beforeAll(async () => {
  store = await openTestStore();
});

afterAll(async () => {
  await store.close();
  await removeTempDirs();
});

/** Places a resting buy and cancels it: two acknowledged commands, one closed order for the history. */
async function placeAndCancel(app: FastifyInstance, token: string): Promise<number> {
  const placed = (await call(
    app,
    '/transaction/in',
    { ...PAIR, price: '20000', num: '0.01' },
    token,
  )) as Reply & {
    order?: { id: number };
  };
  expect(placed.type, JSON.stringify(placed)).toBe('ok');
  const id = placed.order?.id as number;
  expect((await call(app, '/transaction_del', { id }, token)).type).toBe('ok');
  return id;
}

describe('read-your-writes through the HTTP routes', () => {
  it("shows a closed order in its owner's next history read while the projector lags", async () => {
    const app = await startApp(400, 10_000);
    try {
      const trader = await fundedTrader(app);
      const id = await placeAndCancel(app, trader.token);
      // The cancel is acknowledged, yet not projected: its reply waited only for the journal.
      const cancelSeq = app.runner.stats().lastCommittedSeq;
      expect(app.runner.projectedSeq).toBeLessThan(cancelSeq);
      const read = await call(app, '/orders/history', {}, trader.token);
      expect(app.runner.projectedSeq).toBeGreaterThanOrEqual(cancelSeq);
      expect(read.type).toBe('ok');
      const history = read.message as { list: Record<string, unknown>[]; total: number };
      expect(history.total).toBe(1);
      expect(history.list[0]).toMatchObject({ id, symbol: 'BTC/USDT', side: 'buy', price: '20000.00' });
    } finally {
      await app.close();
    }
  });

  it('refuses a read in words when the projector does not catch up in time, never with stale rows', async () => {
    const app = await startApp(1_500, 50);
    try {
      const trader = await fundedTrader(app);
      await projected(app);
      const placed = await call(
        app,
        '/transaction/in',
        { ...PAIR, price: '20000', num: '0.01' },
        trader.token,
      );
      expect(placed.type).toBe('ok');
      await expectCatchingUp(app, trader.token);
      // Once projected, the same read answers.
      await projected(app);
      const again = await call(app, '/orders/open', {}, trader.token);
      expect((again.message as { total: number }).total).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('places and cancels without waiting for the last order to be projected, while a read still waits', async () => {
    const app = await startApp(1_500, 50);
    try {
      const trader = await fundedTrader(app);
      await projected(app);
      const order = { ...PAIR, price: '20000', num: '0.01' };
      expect((await call(app, '/transaction/in', order, trader.token)).type).toBe('ok');
      const firstSeq = app.runner.stats().lastCommittedSeq;
      // The placement reads the live engine only: answered at once, though the first order is not projected
      // and a wait of 50 ms would have been refused.
      const second = await call(app, '/transaction/in', { ...order, price: '19000' }, trader.token);
      expect(second.type, JSON.stringify(second)).toBe('ok');
      // Nor does cancelling it wait.
      const id = (second as Reply & { order: { id: number } }).order.id;
      expect((await call(app, '/transaction_del', { id }, trader.token)).type).toBe('ok');
      expect(app.runner.projectedSeq).toBeLessThan(firstSeq);
      // A read of the history still waits for both, and is refused when the wait runs out.
      await expectCatchingUp(app, trader.token);
      await projected(app);
      const open = await call(app, '/orders/open', {}, trader.token);
      expect((open.message as { total: number }).total).toBe(1);
      const history = await call(app, '/orders/history', {}, trader.token);
      expect((history.message as { total: number }).total).toBe(1);
    } finally {
      await app.close();
    }
  });

  it("does not hold up a user with no unprojected write, whatever others' lag", async () => {
    const app = await startApp(1_500, 10_000);
    try {
      const writer = await fundedTrader(app);
      const reader = await fundedTrader(app);
      await projected(app);
      await placeAndCancel(app, writer.token);
      expect(app.runner.stats().projectorLag.commands).toBeGreaterThan(0);
      const read = await call(app, '/orders/history', {}, reader.token);
      expect(read.type).toBe('ok');
      // Answered while the projector still sleeps before its next transaction.
      expect(app.runner.stats().projectorLag.commands).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('lets the back office wait for every acknowledged order', async () => {
    const app = await startApp(400, 10_000);
    try {
      const trader = await fundedTrader(app);
      await placeAndCancel(app, trader.token);
      expect(app.runner.stats().projectorLag.commands).toBeGreaterThan(0);
      await app.awaitAcknowledged();
      expect(app.runner.stats().projectedSeq).toBeGreaterThanOrEqual(app.runner.stats().lastCommittedSeq);
      expect(await rowsOf(trader.id)).toBe(1);
    } finally {
      await app.close();
    }
  });
});
