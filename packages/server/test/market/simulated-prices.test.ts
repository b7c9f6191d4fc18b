// Simulated prices outside the demo (DEMO=off with PRICE_SOURCE=simulated): the price source says it is
// simulated, seconds contracts and leverage refuse new orders with a translated message and change nothing,
// and closing what is open still works. With DEMO=on (the demo) they take orders, and say the prices are
// simulated all the same.
import type { FastifyInstance } from 'fastify';
import type { Command, PriceSourceQuote } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';

const USDT = 3;
const BTC = 1;
const BTC_USDT = 1;
const UNIT = 1_000_000n;

interface Running {
  store: Store;
  app: FastifyInstance;
  userId: number;
  token: string;
}

async function submit(app: FastifyInstance, command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

async function start(env: Record<string, string>): Promise<Running> {
  const store = await openTestStore();
  const app = await buildTestApp(store, { env: { MICRO_RESERVE: '1000000', ...env } });
  await app.ready();
  const userId = await createUser(store);
  const token = await loginAs(store, userId);
  for (const wallet of ['micro', 'lever'] as const) {
    await submit(app, { type: 'deposit', userId, currencyId: USDT, amount: 1_000n * UNIT });
    await submit(app, {
      type: 'transfer',
      userId,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: wallet,
      amount: 1_000n * UNIT,
    });
  }
  await submit(app, {
    type: 'systemFund',
    owner: 'house',
    wallet: 'lever',
    currencyId: USDT,
    amount: 1_000_000n * UNIT,
  });
  const quote: PriceSourceQuote = ['simulated', 6_700_000, Date.now()];
  await submit(app, {
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[BTC_USDT, [quote]]],
  });
  await projected(app);
  return { store, app, userId, token };
}

async function call(running: Running, url: string, body?: Record<string, unknown>, language?: string) {
  const response = await running.app.inject({
    method: body === undefined ? 'GET' : 'POST',
    url,
    headers: { authorization: running.token, ...(language === undefined ? {} : { lang: language }) },
    ...(body === undefined ? {} : { payload: body }),
  });
  expect(response.statusCode).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any };
}

const MICRO_ORDER = { match_id: BTC_USDT, currency_id: USDT, type: 1, seconds: 30, number: '100' };
const LEVER_ORDER = { legal_id: USDT, currency_id: BTC, multiple: 10, share: 1, type: 1, status: 1 };

describe('DEMO=off on simulated prices', () => {
  let running: Running;

  beforeAll(async () => {
    running = await start({ DEMO: 'off' });
  }, 60_000);

  afterAll(async () => {
    await running.app.close();
    await running.store.close();
  });

  it('says the prices are simulated and that orders are closed', async () => {
    const body = await call(running, '/api/price/source');
    expect(body).toEqual({
      type: 'ok',
      message: { kind: 'simulated', sources: ['simulated'], demo: false, orders_open: false },
    });
  });

  it('refuses a seconds contract with the message, changing nothing', async () => {
    const before = running.app.engine.ledger.balance(running.userId, 'micro', USDT);
    const body = await call(running, '/api/microtrade/submit', MICRO_ORDER);
    expect(body.type).toBe('error');
    expect(body.message).toMatch(/simulated/i);
    expect(body.message).toMatch(/demo/i);
    expect(running.app.engine.ledger.balance(running.userId, 'micro', USDT)).toEqual(before);
    expect(running.app.engine.micro.exposure()).toEqual([]);
    // Translated.
    const zh = await call(running, '/api/microtrade/submit', MICRO_ORDER, 'zh');
    expect(zh.message).toMatch(/模拟价格/);
  });

  it('refuses a leverage position or entry with the message, changing nothing', async () => {
    const before = running.app.engine.ledger.balance(running.userId, 'lever', USDT);
    for (const order of [LEVER_ORDER, { ...LEVER_ORDER, status: 0, target_price: '66000' }]) {
      const body = await call(running, '/api/lever/submit', order);
      expect(body.type).toBe('error');
      expect(body.message).toMatch(/simulated/i);
    }
    expect(running.app.engine.ledger.balance(running.userId, 'lever', USDT)).toEqual(before);
    expect(running.app.engine.lever.positions(running.userId)).toEqual([]);
  });

  it('still closes a position that is open', async () => {
    // A position opened before the switch (journaled directly, as an earlier start would have).
    const outcome = await running.app.runner.submit({
      type: 'openLeverPosition',
      userId: running.userId,
      marketId: BTC_USDT,
      side: 1,
      share: 1,
      multiple: 10,
    });
    expect(outcome.code).toBe(0);
    await projected(running.app);
    const [position] = running.app.engine.lever.positions(running.userId);
    expect(position).toBeDefined();
    const body = await call(running, '/api/lever/close', { id: position?.positionId });
    expect(body.type).toBe('ok');
    expect(running.app.engine.lever.positions(running.userId)).toEqual([]);
  });
});

describe('DEMO=on (the demo) on simulated prices', () => {
  let running: Running;

  beforeAll(async () => {
    running = await start({ DEMO: 'on' });
  }, 60_000);

  afterAll(async () => {
    await running.app.close();
    await running.store.close();
    await removeTempDirs();
  });

  it('takes seconds contracts and leverage orders, and says the prices are simulated', async () => {
    expect((await call(running, '/api/price/source')).message).toEqual({
      kind: 'simulated',
      sources: ['simulated'],
      demo: true,
      orders_open: true,
    });
    expect((await call(running, '/api/microtrade/submit', MICRO_ORDER)).type).toBe('ok');
    expect((await call(running, '/api/lever/submit', LEVER_ORDER)).type).toBe('ok');
  });
});
