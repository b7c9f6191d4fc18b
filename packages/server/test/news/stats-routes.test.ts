// The home page's figures and the footer's activity counts, counted from what really happened: users registered in the
// store, deposits, trades and withdrawals that went through the engine. Nothing is there before it happens, demo
// accounts count for nothing, and a figure over 1 to 19 accounts is withheld ("fewer than 20").
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDecimal } from '@fairex/shared';
import { countActivity, countHomeFigures } from '../../src/stats/service.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';

const BTC = 1;
const USDT = 3;

let store: Store;
let app: FastifyInstance;

interface Reply<T> {
  type: string;
  message: T;
}

async function get<T>(url: string): Promise<T> {
  const response = await app.inject({ method: 'GET', url: `/api${url}` });
  expect(response.statusCode, response.body).toBe(200);
  const reply = response.json() as Reply<T>;
  expect(reply.type, response.body).toBe('ok');
  return reply.message;
}

async function submit(command: Parameters<FastifyInstance['runner']['submit']>[0]) {
  const outcome = await app.runner.submit(command);
  expect(outcome.code).toBe(0);
  return outcome;
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('home figures and activity', () => {
  it('reports zero users, zero trades and no activity on a new exchange', async () => {
    const figures = await countHomeFigures(store, Date.now());
    expect(figures).toMatchObject({
      users: 0,
      trades_24h: 0,
      traders_24h: 0,
      markets: 7,
      minimum_accounts: 20,
      below_minimum: false,
    });
    expect(await countActivity(store, Date.now())).toMatchObject({
      window_minutes: 60,
      trades: 0,
      traders: 0,
      deposits: 0,
      withdrawals: 0,
      below_minimum: false,
    });
  });

  it('counts real users, trades and activity as they happen', async () => {
    const seller = await createUser(store, { account: 'seller.one@example.org' });
    const buyer = await createUser(store, { account: '+8613812345678' });
    await createUser(store);
    await submit({
      type: 'deposit',
      userId: buyer,
      currencyId: USDT,
      amount: parseDecimal('12345.678901', 6),
    });
    await submit({ type: 'deposit', userId: seller, currencyId: BTC, amount: parseDecimal('1', 8) });

    const place = async (userId: number, side: 'out' | 'in', price: string, num: string) => {
      const token = await loginAs(store, userId);
      const response = await app.inject({
        method: 'POST',
        url: `/api/transaction/${side}`,
        headers: { authorization: token },
        payload: { legal_id: USDT, currency_id: BTC, price, num, mode: 2 },
      });
      expect(response.json()).toMatchObject({ type: 'ok' });
    };
    await place(seller, 'out', '30000', '0.25');
    await place(buyer, 'in', '30000', '0.1');

    const { outcome } = await (async () => {
      const requested = await submit({
        type: 'requestWithdrawal',
        userId: seller,
        currencyId: BTC,
        amount: parseDecimal('0.0123', 8),
        feeAmount: parseDecimal('0.0002', 8),
      });
      const withdrawalId = (requested.reply as { withdrawalId: number }).withdrawalId;
      return { outcome: await submit({ type: 'completeWithdrawal', withdrawalId }) };
    })();
    expect(outcome.code).toBe(0);
    // The figures are counted from the projections, written behind the journal.
    await projected(app);

    // Three accounts, two traders: fewer than 20 accounts behind every figure, so none is exact.
    const figures = await countHomeFigures(store, Date.now());
    expect(figures).toMatchObject({
      users: null,
      trades_24h: null,
      traders_24h: null,
      markets: 7,
      minimum_accounts: 20,
      below_minimum: true,
    });
    // A day later the trade no longer counts as recent.
    expect((await countHomeFigures(store, Date.now() + 86_400_001)).trades_24h).toBe(0);

    // The footer's figures are counts over the last hour, nothing about any one user.
    const activity = await countActivity(store, Date.now());
    expect(activity).toMatchObject({
      trades: null,
      traders: null,
      deposits: null,
      withdrawals: null,
      below_minimum: true,
    });
    // An hour later nothing is recent.
    expect(await countActivity(store, Date.now() + 3_600_001)).toMatchObject({
      trades: 0,
      traders: 0,
      deposits: 0,
      withdrawals: 0,
    });

    const served = await get<Record<string, unknown>>('/stats/home');
    expect(served).toMatchObject({ users: null, trades_24h: null, markets: 7, below_minimum: true });
    const feed = await get<Record<string, unknown>>('/stats/activity?limit=2');
    expect(feed).toMatchObject({
      window_minutes: 60,
      trades: null,
      traders: null,
      deposits: null,
      withdrawals: null,
      minimum_accounts: 20,
      below_minimum: true,
    });
    expect(Object.keys(feed).sort()).toEqual(
      [
        'as_of',
        'deposits',
        'traders',
        'trades',
        'window_minutes',
        'withdrawals',
        'minimum_accounts',
        'below_minimum',
      ].sort(),
    );
    // No account, masked or not, and no amount of anyone's deposit or trade.
    const text = JSON.stringify(feed);
    for (const leak of ['seller', '@', '***', 'BTC', 'USDT']) expect(text).not.toContain(leak);
  });

  it('counts no demo account, and is exact from 20 real accounts on', async () => {
    // A demo account with house money and even a deposit: nothing of it reaches a public figure.
    const { rows } = await store.query<{ id: number }>(
      `insert into users (account, email, password_hash, extension_code, is_demo)
       values ('demo@fairex.invalid', 'demo@fairex.invalid', '!', 'DEMO0001', true) returning id`,
    );
    const demo = (rows[0] as { id: number }).id;
    await submit({
      type: 'systemFund',
      owner: 'house',
      currencyId: USDT,
      amount: 5_000_000n,
      memo: 'capital',
    });
    await submit({ type: 'houseTransfer', userId: demo, currencyId: USDT, amount: 5_000_000n, memo: 'demo' });
    await submit({ type: 'deposit', userId: demo, currencyId: USDT, amount: 1_000_000n });
    // 17 more real accounts make 20, each with a deposit: 2 + 17 deposits by 19 accounts, then a 20th.
    const users: number[] = [];
    for (let index = 0; index < 17; index += 1) users.push(await createUser(store));
    for (const userId of users)
      await submit({ type: 'deposit', userId, currencyId: USDT, amount: 1_000_000n });
    await projected(app);
    expect(await countHomeFigures(store, Date.now())).toMatchObject({ users: 20 });
    expect((await countActivity(store, Date.now())).deposits).toBeNull();
    // The one real account without a deposit yet makes the 20th depositor.
    const { rows: idle } = await store.query<{ id: number }>(
      `select id from users where not is_demo
          and id not in (select owner_key from account_log where reason = 100 and owner_key > 0)`,
    );
    expect(idle).toHaveLength(1);
    const twentieth = (idle[0] as { id: number }).id;
    await submit({ type: 'deposit', userId: twentieth, currencyId: USDT, amount: 1_000_000n });
    await projected(app);
    // 20 real depositors: the count is exact, and the demo account's deposit is not in it.
    expect((await countActivity(store, Date.now())).deposits).toBe(2 + 17 + 1);
  });

  it('refuses a bad limit with a translated message', async () => {
    for (const limit of ['0', '21', 'x', '-1']) {
      const response = await app.inject({ method: 'GET', url: `/api/stats/activity?limit=${limit}&lang=kr` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ type: 'error' });
    }
  });
});
