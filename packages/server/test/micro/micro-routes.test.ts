// Seconds contracts on a real app (PGlite): the default configuration is journaled at start; an up and a
// down order are accepted, opened on the first sample after acceptance, settled on the last sample at or
// before expiry, listed, pushed to their owner, and proven with the price record's chain up to a published
// head; bad input is a translated refusal that changes nothing, never a 500.
import type { FastifyInstance } from 'fastify';
import type { Command, PriceSourceQuote } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS, VerificationError, verifyChain } from '../../../../scripts/verify-prices.ts';
import { verifyMicroOrder } from '../../../../scripts/verify-micro.ts';
import type { Sample } from '../../../../scripts/verify-prices.ts';
import type { Store } from '../../src/store/index.ts';
import { microStats } from '../../src/micro/service.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';

const USDT = 3;
const UNIT = 1_000_000n;
let store: Store;
let app: FastifyInstance;
let token: string;
let userId: number;
let otherToken: string;
const pushes: { userId: number; event: string; payload: unknown }[] = [];

/** Submits as the scheduler would, and waits for its projections (settlements are read from them). */
async function submit(command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
  await projected(app);
}

async function sample(priceTicks: number, stale = false): Promise<void> {
  const now = Date.now();
  const quote: PriceSourceQuote = ['simulated', priceTicks, stale ? now - 60_000 : now];
  await submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[1, [quote]]],
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, auth = token) {
  const response = await app.inject({
    method,
    url,
    headers: auth === '' ? {} : { authorization: auth },
    ...(body === undefined ? {} : { payload: body }),
  });
  expect(response.statusCode).toBe(200);
  // Replies of several shapes, each checked by value below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any };
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, { env: { MICRO_RESERVE: '1000000' } });
  await app.ready();
  const realtime = app.realtime as { toUser: (userId: number, event: string, payload: unknown) => void };
  const original = realtime.toUser.bind(realtime);
  realtime.toUser = (id, event, payload) => {
    pushes.push({ userId: id, event, payload });
    original(id, event, payload);
  };
  userId = await createUser(store);
  token = await loginAs(store, userId);
  otherToken = await loginAs(store, await createUser(store));
  await submit({ type: 'deposit', userId, currencyId: USDT, amount: 1_000n * UNIT });
  await submit({
    type: 'transfer',
    userId,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'micro',
    amount: 1_000n * UNIT,
  });
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('configuration calls', () => {
  it('answers the default seconds options and preset numbers', async () => {
    const body = await call('GET', '/api/microtrade/seconds', undefined, '');
    expect(body).toEqual({
      type: 'ok',
      message: {
        seconds: [
          { seconds: 30, profit_ratio: '80' },
          { seconds: 60, profit_ratio: '85' },
          { seconds: 120, profit_ratio: '90' },
          { seconds: 300, profit_ratio: '95' },
        ],
        numbers: ['10', '50', '100', '500', '1000'].map((n) => ({ number: `${n}.000000` })),
      },
    });
  });

  it('answers the payable currencies with the user micro wallet, null for a visitor', async () => {
    const body = await call('GET', '/api/microtrade/payable_currencies');
    expect(body.message).toHaveLength(1);
    expect(body.message[0]).toMatchObject({
      id: USDT,
      name: 'USDT',
      micro_trade_fee: '1',
      micro_min: '10.000000',
      user_wallet: { micro_balance: '1000.000000', lock_micro_balance: '0.000000' },
    });
    const visitor = await call('GET', '/api/microtrade/payable_currencies', undefined, '');
    expect(visitor.message[0].user_wallet).toBeNull();
  });
});

describe('orders', () => {
  let upId: number;
  let downId: number;

  it('accepts up and down orders, settles them on the recorded samples and pushes the result', async () => {
    await submit({
      type: 'setMicroSeconds',
      options: [
        [1, 8_000],
        [30, 8_000],
      ],
    });
    await sample(6_700_000);
    const up = await call('POST', '/api/microtrade/submit', {
      match_id: 1,
      currency_id: USDT,
      type: 1,
      seconds: 1,
      number: '100',
    });
    expect(up.type).toBe('ok');
    expect(up.message).toMatchObject({
      status: 1,
      type: 1,
      number: '100.000000',
      fee: '1.000000',
      profit_ratio: '80',
      symbol_name: 'BTC/USDT',
    });
    expect(up.message.remain_milli_seconds).toBeGreaterThan(0);
    upId = up.message.id;
    const down = await call('POST', '/api/microtrade/submit', {
      match_id: 1,
      currency_id: USDT,
      type: 2,
      seconds: 1,
      number: '50.5',
    });
    downId = down.message.id;
    const running = await call('GET', '/api/microtrade/lists?status=1');
    expect(running.message.data.map((o: { id: number }) => o.id)).toEqual([downId, upId]);
    expect(app.engine.ledger.balance(userId, 'micro', USDT)).toEqual({
      available: 847_995_000n,
      locked: 150_500_000n,
    });
    await sleep(20);
    await sample(6_700_000); // the open sample of both
    await sleep(300);
    await sample(6_700_500); // the last sample before expiry: up wins, down loses
    await sleep(1_100);
    await sample(6_600_000); // after expiry: settles on the one before
    const closed = await call('GET', '/api/microtrade/lists?status=3');
    const byId = new Map(closed.message.data.map((o: { id: number }) => [o.id, o]));
    expect(byId.get(upId)).toMatchObject({
      status: 3,
      outcome: 'win',
      open_price: '67000.00',
      end_price: '67005.00',
      fact_profits: '80.000000',
    });
    expect(byId.get(downId)).toMatchObject({ status: 3, outcome: 'loss', fact_profits: '-50.500000' });
    // The closed list tells the time, the duration and the fee of each (issue 45); no fee returned but on void.
    const upRow = byId.get(upId) as Record<string, unknown>;
    expect(upRow).toMatchObject({ seconds: 1, fee: '1.000000', fee_refund: '0.000000' });
    expect(upRow.expiry_time).toBe((upRow.created_time as number) + 1_000);
    expect(byId.get(downId)).toMatchObject({ seconds: 1, fee: '0.505000', fee_refund: '0.000000' });
    expect(closed.message).toMatchObject({ current_page: 1, per_page: 20, total: 2 });
    // 1,000 - fees 1 and 0.505 + profit 80 - stake 50.5 lost.
    expect(app.engine.ledger.balance(userId, 'micro', USDT)).toEqual({
      available: 1_027_995_000n,
      locked: 0n,
    });
    const pushed = pushes.filter((p) => p.event === 'closed_microorder');
    // Both settled in one command: one message to the owner lists them, `order` is the last of them.
    expect(pushed.map((p) => p.userId)).toEqual([userId]);
    const payload = pushed[0]?.payload as { order: { id: number }; orders: { id: number }[] };
    expect(payload.orders.map((o) => o.id).sort()).toEqual([upId, downId].sort());
    expect(payload.order.id).toBe(payload.orders[1]?.id);
  }, 20_000);

  it('serves the proof: rule, the two samples and their chain to a published head', async () => {
    const body = await call('GET', `/api/microtrade/proof?id=${upId}`);
    expect(body.type).toBe('ok');
    const proof = body.message;
    expect(proof).toMatchObject({
      id: upId,
      rule_version: 'fairex-micro-v2',
      settles_on: 'index',
      // The samples' source is the simulator: the proof says so.
      simulated_prices: true,
      outcome: 'win',
      payout: '180.000000',
      type: 1,
    });
    expect(proof.open.price).toBe('67000.00');
    expect(proof.end.price).toBe('67005.00');
    const samples = proof.proof.samples as Sample[];
    expect(samples[0]?.hash).toBe(proof.open.hash);
    expect(samples.find((s) => s.seq === proof.end.seq)?.hash).toBe(proof.end.hash);
    expect(samples[samples.length - 1]?.hash).toBe(proof.proof.head.hash);
    // The chain links from the sample before the open one to the head.
    const all = await call(
      'GET',
      `/api/price/samples?symbol=BTC/USDT&from=0&to=${Date.now() + 1000}`,
      undefined,
      '',
    );
    const before = (all.message.samples as Sample[]).find((s) => s.seq === proof.open.seq - 1);
    expect(before === undefined ? samples[0]?.prev_hash === GENESIS : true).toBe(true);
    expect(verifyChain(samples, before)?.seq).toBe(proof.proof.head.seq);
    // The repository's verifier checks both orders from the public calls alone, and catches a changed payout.
    const fetchFromApp = async (url: string) => {
      const { pathname, search } = new URL(url);
      const response = await app.inject({ method: 'GET', url: pathname + search });
      return { json: async () => response.json() as unknown };
    };
    expect(await verifyMicroOrder('http://exchange.test', proof, fetchFromApp)).toBe(
      `order ${upId}: win, returned 180.000000 (simulated prices, demo)`,
    );
    const down = (await call('GET', `/api/microtrade/proof?id=${downId}`)).message;
    expect(await verifyMicroOrder('http://exchange.test', down, fetchFromApp)).toBe(
      `order ${downId}: loss, returned 0.000000 (simulated prices, demo)`,
    );
    await expect(
      verifyMicroOrder('http://exchange.test', { ...proof, payout: '181.000000' }, fetchFromApp),
    ).rejects.toThrow(VerificationError);
    await expect(
      verifyMicroOrder(
        'http://exchange.test',
        { ...proof, outcome: 'loss', payout: '0.000000' },
        fetchFromApp,
      ),
    ).rejects.toThrow(/outcome loss/);
    // Another user's order answers as a missing one.
    const other = await call('GET', `/api/microtrade/proof?id=${upId}`, undefined, otherToken);
    expect(other.type).toBe('error');
  });
  it("exports the user's own orders as CSV with each settled order's proof fields (issue 45)", async () => {
    const body = await call('GET', '/api/microtrade/export');
    expect(body.type).toBe('ok');
    const { csv, rows, truncated, filename } = body.message as {
      csv: string;
      rows: number;
      truncated: boolean;
      filename: string;
    };
    expect(filename).toMatch(/^fairex-seconds-orders-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows).toBe(2);
    expect(truncated).toBe(false);
    const lines = csv.trimEnd().split('\r\n');
    const header = lines[0]?.split(',') ?? [];
    expect(header.slice(0, 3)).toEqual(['order_id', 'pair', 'direction']);
    expect(lines).toHaveLength(3);
    const records = lines.slice(1).map((line) => {
      const fields = line.split(',');
      return Object.fromEntries(header.map((name, i) => [name, fields[i]]));
    });
    const up = records.find((record) => record.order_id === String(upId));
    const proof = (await call('GET', `/api/microtrade/proof?id=${upId}`)).message;
    expect(up).toMatchObject({
      pair: 'BTC/USDT',
      direction: 'up',
      seconds: '1',
      currency: 'USDT',
      stake: '100.000000',
      fee: '1.000000',
      fee_refund: '0.000000',
      status: 'closed',
      outcome: 'win',
      profit: '80.000000',
      open_price: '67000.00',
      end_price: '67005.00',
      rule_version: 'fairex-micro-v2',
      settles_on: 'index',
      open_seq: String(proof.open.seq),
      open_hash: proof.open.hash,
      end_seq: String(proof.end.seq),
      end_hash: proof.end.hash,
      accepted_at: new Date(proof.accepted_time).toISOString(),
    });
    expect(records.find((record) => record.order_id === String(downId))).toMatchObject({
      direction: 'down',
      stake: '50.500000',
      outcome: 'loss',
      profit: '-50.500000',
    });
    // Another user's export holds none of these orders: only the header.
    const other = await call('GET', '/api/microtrade/export', undefined, otherToken);
    expect(other.message).toMatchObject({ rows: 0, truncated: false });
    expect(other.message.csv).toBe(`${lines[0]}\r\n`);
    // One pair only.
    expect((await call('GET', '/api/microtrade/export?match_id=2')).message.rows).toBe(0);
  });

  it('refuses an export to a visitor and bad export input, translated', async () => {
    expect((await call('GET', '/api/microtrade/export', undefined, '')).type).toBe('999');
    const en = await call('GET', '/api/microtrade/export?match_id=abc');
    expect(en.type).toBe('error');
    const zh = await call('GET', '/api/microtrade/export?match_id=abc&lang=zh');
    expect(zh.type).toBe('error');
    expect(zh.message).not.toBe(en.message);
    expect(zh.message).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('bad input', () => {
  const bad: [string, Record<string, unknown>][] = [
    [
      'a direction that is neither up nor down',
      { match_id: 1, currency_id: USDT, type: 3, seconds: 1, number: '10' },
    ],
    ['a duration not offered', { match_id: 1, currency_id: USDT, type: 1, seconds: 7, number: '10' }],
    ['a negative number', { match_id: 1, currency_id: USDT, type: 1, seconds: 1, number: '-10' }],
    ['too many decimals', { match_id: 1, currency_id: USDT, type: 1, seconds: 1, number: '10.1234567' }],
    ['text as a number', { match_id: 1, currency_id: USDT, type: 1, seconds: 1, number: 'ten' }],
    ['below the minimum', { match_id: 1, currency_id: USDT, type: 1, seconds: 1, number: '1' }],
    ['more than the wallet', { match_id: 1, currency_id: USDT, type: 1, seconds: 30, number: '5000' }],
    ['an unknown market', { match_id: 999, currency_id: USDT, type: 1, seconds: 1, number: '10' }],
    ['a currency that is not payable', { match_id: 1, currency_id: 1, type: 1, seconds: 1, number: '10' }],
    ['a missing field', { match_id: 1, currency_id: USDT, type: 1 }],
    ['an object as a field', { match_id: { a: 1 }, currency_id: USDT, type: 1, seconds: 1, number: '10' }],
  ];
  it.each(bad)('refuses %s with a message and changes nothing', async (_, payload) => {
    const before = app.engine.ledger.balance(userId, 'micro', USDT);
    const seq = app.engine.lastSeq;
    const body = await call('POST', '/api/microtrade/submit', payload);
    expect(body.type).toBe('error');
    expect(typeof body.message).toBe('string');
    expect(body.message.length).toBeGreaterThan(0);
    expect(app.engine.ledger.balance(userId, 'micro', USDT)).toEqual(before);
    expect(app.engine.micro.exposure()).toEqual([]);
    expect(app.engine.lastSeq - seq).toBeLessThanOrEqual(1);
  });

  it('answers in the request language', async () => {
    const body = await call('POST', '/api/microtrade/submit?lang=zh', {
      match_id: 1,
      currency_id: USDT,
      type: 1,
      seconds: 7,
      number: '10',
    });
    expect(body.message).toBe('不提供该时长，请选择列出的秒数。');
  });

  it('asks a visitor to log in, and refuses bad list and proof input', async () => {
    const visitor = await call(
      'POST',
      '/api/microtrade/submit',
      { match_id: 1, currency_id: USDT, type: 1, seconds: 1, number: '10' },
      '',
    );
    expect(visitor.type).toBe('999');
    expect((await call('GET', '/api/microtrade/lists?page=0')).type).toBe('error');
    expect((await call('GET', '/api/microtrade/lists?status=2')).type).toBe('error');
    expect((await call('GET', '/api/microtrade/proof?id=abc')).type).toBe('error');
    expect((await call('GET', '/api/microtrade/proof?id=999999')).type).toBe('error');
    expect((await call('GET', '/api/microtrade/stats?days=1000', undefined, '')).type).toBe('error');
  });

  it('serves public daily statistics, withheld while fewer than 20 accounts placed the orders', async () => {
    const body = await call('GET', '/api/microtrade/stats', undefined, '');
    // Two accounts: no count and no house result is published (docs/limits.md, "Public figures").
    expect(body.message.days[0]).toEqual({
      day: expect.any(String),
      currency_name: 'USDT',
      orders: null,
      wins: null,
      losses: null,
      draws: null,
      voids: null,
      house_pnl: null,
      minimum_accounts: 20,
      below_minimum: true,
    });
    // Counted without the minimum, the same day has its figures.
    expect((await microStats(store, app.engine, 30, Date.now(), 0))[0]).toMatchObject({
      currency_name: 'USDT',
      orders: 2,
      wins: 1,
      losses: 1,
      voids: 0,
      house_pnl: '-29.500000',
      below_minimum: false,
    });
  });

  it("computes the house's result from the ledger's reserve postings, not from the results table", async () => {
    // Funding the reserve is the house's own money moving, not a result of the contracts.
    await submit({ type: 'systemFund', owner: 'house', currencyId: USDT, amount: 5n * UNIT });
    await submit({
      type: 'systemTransfer',
      owner: 'house',
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'micro',
      amount: 5n * UNIT,
    });
    // A results table that says otherwise does not change the figure: the money is where the ledger says.
    await store.query('update micro_results set stake = 0, payout = 0');
    const days = await microStats(store, app.engine, 30, Date.now(), 0);
    expect(days[0]).toMatchObject({ orders: 2, house_pnl: '-29.500000' });
    // The same figure is the reserve now less all that was put into it (1,000,000 at start and 5 here).
    const reserve = app.engine.ledger.balance('house', 'micro', USDT);
    expect(reserve.available + reserve.locked - 1_000_005n * UNIT).toBe(-29_500_000n);
  });
});
