// The home page's figures and activity feed, counted from what really happened: users registered in the
// store, deposits, trades and withdrawals that went through the engine. Nothing is there before it happens.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDecimal } from '@fairex/shared';
import {
  countHomeFigures,
  maskAccount,
  recentActivity,
  roundDownSignificant,
} from '../../src/stats/service.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs } from '../helper.ts';

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
    expect(figures).toMatchObject({ users: 0, trades_24h: 0, traders_24h: 0, markets: 7 });
    expect(await recentActivity(store, Date.now(), 20)).toEqual([]);
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

    const figures = await countHomeFigures(store, Date.now());
    expect(figures).toMatchObject({ users: 3, trades_24h: 1, traders_24h: 2, markets: 7 });
    // A day later the trade no longer counts as recent.
    expect((await countHomeFigures(store, Date.now() + 86_400_001)).trades_24h).toBe(0);

    const activity = await recentActivity(store, Date.now(), 20);
    expect(
      activity.map(({ kind, account, amount, currency, symbol }) => ({
        kind,
        account,
        amount,
        currency,
        symbol,
      })),
    ).toEqual([
      // The payout, without the fee: 0.0121 BTC.
      { kind: 'withdrawal', account: 'se***@***.org', amount: '0.012', currency: 'BTC', symbol: null },
      // The buyer took the seller's order: 0.1 BTC at 30,000 = 3,000 USDT.
      { kind: 'trade', account: '861****78', amount: '3000', currency: 'USDT', symbol: 'BTC/USDT' },
      { kind: 'deposit', account: 'se***@***.org', amount: '1', currency: 'BTC', symbol: null },
      { kind: 'deposit', account: '861****78', amount: '12000', currency: 'USDT', symbol: null },
    ]);
    for (const entry of activity) expect(Date.parse(entry.time)).toBeLessThanOrEqual(Date.now());
    expect(JSON.stringify(activity)).not.toContain('seller.one');
    expect(JSON.stringify(activity)).not.toContain('13812345678');
    // Older than a day: nothing.
    expect(await recentActivity(store, Date.now() + 86_400_001, 20)).toEqual([]);

    const served = await get<{ users: number; trades_24h: number; markets: number; as_of: string }>(
      '/stats/home',
    );
    expect(served).toMatchObject({ users: 3, trades_24h: 1, markets: 7 });
    const feed = await get<{ list: unknown[] }>('/stats/activity?limit=2');
    expect(feed.list).toHaveLength(2);
  });

  it('refuses a bad limit with a translated message', async () => {
    for (const limit of ['0', '21', 'x', '-1']) {
      const response = await app.inject({ method: 'GET', url: `/api/stats/activity?limit=${limit}&lang=kr` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ type: 'error' });
    }
  });
});

describe('masking and rounding', () => {
  it('masks e-mail addresses and phone numbers', () => {
    expect(maskAccount('alice@example.com')).toBe('al***@***.com');
    expect(maskAccount('a@b.co')).toBe('a***@***.co');
    expect(maskAccount('+86 138 1234 5678')).toBe('861****78');
    expect(maskAccount('12345')).toBe('***');
  });

  it('rounds down to two significant digits in exact integers', () => {
    expect(roundDownSignificant(123_456_789n)).toBe(120_000_000n);
    expect(roundDownSignificant(99n)).toBe(99n);
    expect(roundDownSignificant(0n)).toBe(0n);
    expect(roundDownSignificant(10n ** 30n + 7n)).toBe(10n ** 30n);
  });
});
