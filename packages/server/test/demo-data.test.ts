// One DEMO switch for everything a first start seeds (docs/operations.md, "Demo data"). With DEMO=on: a
// flagged demo merchant created now (never backdated), funded by labelled house transfers (no deposit row),
// tagged on its ads and counted in no public figure; demo products that start at their creation; house
// capital for leverage, the seconds reserve and the flash desk, so that a flash exchange of 10 USDT to BTC
// fills, and an amount beyond the desk is refused with the largest amount it can fill now. With DEMO=off:
// no demo account, no demo product, no house capital.
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ReasonCode, ownerKeyOf } from '@fairex/engine';
import type { P2pAd } from '@fairex/shared';
import { translate } from '@fairex/shared';
import { DEMO_MERCHANT_FUNDS_MEMO } from '../src/p2p/demo.ts';
import { FLASH_DESK_MEMO } from '../src/wallets/flash-desk.ts';
import type { Store } from '../src/store/index.ts';
import type { FlashDeskReply } from '@fairex/shared/api/backoffice.ts';
import type { BackofficeTestApp } from './backoffice/helpers.ts';
import { call, expectOk, newAdmin } from './backoffice/helpers.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from './helper.ts';

const USDT = 3;
const BTC = 1;
const BTC_MARKET = 1;
const opened: { app: FastifyInstance; store: Store }[] = [];

afterAll(async () => {
  for (const { app, store } of opened) {
    await app.close();
    await store.close();
  }
  await removeTempDirs();
});

/** A first start with demo data asked for, DEMO as given (MICRO_RESERVE set, so that only DEMO decides). */
async function firstStart(demo: 'on' | 'off'): Promise<{ app: FastifyInstance; store: Store }> {
  const store = await openTestStore();
  const app = await buildTestApp(store, { env: { DEMO: demo, MICRO_RESERVE: '1000' }, demoData: true });
  await app.ready();
  opened.push({ app, store });
  return { app, store };
}

async function api<T>(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  token?: string,
  payload?: object,
) {
  const response = await app.inject({
    method,
    url: `/api${url}`,
    ...(payload === undefined ? {} : { payload }),
    headers: token === undefined ? {} : { authorization: token },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { type: string; message: T };
}

/** Every system account holding anything: house capital shows here. */
function houseCapital(app: FastifyInstance): string[] {
  return app.engine.ledger
    .accounts()
    .filter((account) => typeof account.owner === 'string' && account.owner !== 'outside')
    .map((account) => `${String(account.owner)}:${account.wallet}:${account.currencyId}`);
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('DEMO=on', () => {
  it('seeds a flagged demo merchant created now, funded by labelled house transfers, never a deposit', async () => {
    const startedMs = Date.now();
    const { app, store } = await firstStart('on');
    await projected(app);
    const { rows } = await store.query<{ id: number; created_at: Date; is_demo: boolean }>(
      'select id, created_at, is_demo from users',
    );
    expect(rows).toHaveLength(1);
    const merchant = rows[0] as { id: number; created_at: Date; is_demo: boolean };
    expect(merchant.is_demo).toBe(true);
    // Created now: not backdated (a minute of slack for a slow machine).
    expect(merchant.created_at.getTime()).toBeGreaterThan(startedMs - 60_000);
    // Its USDT came from the house, labelled; no deposit anywhere in the log.
    const log = await store.query<{ reason: number; memo: string | null; owner_key: string }>(
      'select reason, memo, owner_key::text from account_log where owner_key = $1',
      [merchant.id],
    );
    expect(log.rows.map((row) => [row.reason, row.memo])).toContainEqual([
      ReasonCode.houseTransfer,
      DEMO_MERCHANT_FUNDS_MEMO,
    ]);
    const deposits = await store.query('select 1 from account_log where reason = $1', [ReasonCode.deposit]);
    expect(deposits.rows).toHaveLength(0);
    // Its ads carry the demo flag; the screens tag them.
    const ads = await api<{ data: P2pAd[] }>(app, 'GET', '/p2p/ads?side=buy&currency_id=3&fiat=CNY');
    expect(ads.message.data.map((ad) => ad.merchant.demo)).toEqual([true]);
  });

  it('counts the demo merchant in no public figure', async () => {
    const { app } = opened[0] as { app: FastifyInstance };
    const home = await api<Record<string, unknown>>(app, 'GET', '/stats/home');
    expect(home.message).toMatchObject({ users: 0, trades_24h: 0, traders_24h: 0, below_minimum: false });
    const activity = await api<Record<string, unknown>>(app, 'GET', '/stats/activity');
    expect(activity.message).toMatchObject({ trades: 0, traders: 0, deposits: 0, withdrawals: 0 });
    const loss = await api<Record<string, unknown>>(app, 'GET', '/lever/loss_share');
    expect(loss.message).toMatchObject({ accounts: 0, losing_share: null });
  });

  it('opens demo products that start at their creation, not before', async () => {
    const { app } = opened[0] as { app: FastifyInstance };
    const products = app.engine.products.products();
    expect(products.length).toBeGreaterThan(0);
    // The products were created during the start, after the store was opened.
    const { rows } = await (opened[0] as { store: Store }).store.query<{ created: string }>(
      `select min(time_ms)::text as created from account_log where memo = 'products demo funding'`,
    );
    const createdMs = Number(rows[0]?.created);
    for (const product of products) expect(product.terms.startMs).toBeGreaterThanOrEqual(createdMs - 1_000);
  });

  it('funds house capital: leverage, the seconds reserve and the flash desk, each labelled', async () => {
    const { app, store } = opened[0] as { app: FastifyInstance; store: Store };
    expect(app.engine.ledger.balance('house', 'lever', USDT).available).toBeGreaterThan(0n);
    expect(app.engine.ledger.balance('house', 'micro', USDT).available).toBe(1_000_000_000n);
    expect(app.engine.ledger.balance('house', 'change', USDT).available).toBe(100_000_000_000n);
    // BTC has no index price yet; its first recorded price funds the desk's BTC at that price.
    expect(app.engine.ledger.balance('house', 'change', BTC).available).toBe(0n);
    expect(
      (await app.runner.submit({ type: 'recordIndexPrice', marketId: BTC_MARKET, priceTicks: 6_500_000 }))
        .code,
    ).toBe(0);
    await waitFor(() => app.engine.ledger.balance('house', 'change', BTC).available > 0n, 'the desk BTC');
    // 100,000 USDT at 65,000: 1.53846153 BTC.
    expect(app.engine.ledger.balance('house', 'change', BTC).available).toBe(153_846_153n);
    await projected(app);
    const fundings = await store.query<{ currency_id: number }>(
      'select currency_id from account_log where memo = $1 and owner_key = $2 order by currency_id',
      [FLASH_DESK_MEMO, ownerKeyOf('house')],
    );
    expect(fundings.rows.map((row) => row.currency_id)).toEqual([BTC, USDT]);
  });

  it('fills a flash exchange of 10 USDT to BTC on the fresh start', async () => {
    const { app, store } = opened[0] as { app: FastifyInstance; store: Store };
    const userId = await createUser(store, { reviewStatus: 2 });
    const token = await loginAs(store, userId);
    expect(
      (await app.runner.submit({ type: 'deposit', userId, currencyId: USDT, amount: 500_000_000_000n })).code,
    ).toBe(0);
    const reply = await api<{ record: { absolute_quantity: string } }>(
      app,
      'POST',
      '/wallet/flashAgainst',
      token,
      {
        type: 0,
        coin: BTC,
        number: '10',
      },
    );
    expect(reply.type, JSON.stringify(reply)).toBe('ok');
    // 10 / 65,000 = 0.00015384 BTC (rounded down), less 0.2 %: 0.00015353.
    expect(reply.message.record.absolute_quantity).toBe('0.00015353');
  });

  it('refuses an amount beyond the desk with the largest amount it can fill now, which then fills', async () => {
    const { app, store } = opened[0] as { app: FastifyInstance; store: Store };
    const { rows } = await store.query<{ id: number }>('select id from users where not is_demo');
    const userId = (rows[0] as { id: number }).id;
    const token = await loginAs(store, userId);
    const refused = await api<string>(app, 'POST', '/wallet/flashAgainst', token, {
      type: 0,
      coin: BTC,
      number: '200000',
    });
    expect(refused.type).toBe('error');
    const match = /The most it can fill now is ([\d.]+) USDT\./.exec(refused.message);
    expect(match, refused.message).not.toBeNull();
    const largest = (match as RegExpExecArray)[1] as string;
    expect(refused.message).toBe(
      translate('en', 'wallet.flash_desk_short', { currency: 'BTC', max: largest, from: 'USDT' }),
    );
    const deskBefore = app.engine.ledger.balance('house', 'change', BTC).available;
    // One micro-unit more than the offer is still beyond the desk.
    const [whole, fraction = ''] = largest.split('.');
    const minor = BigInt(whole as string) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
    const oneMore = (minor + 1n).toString().padStart(7, '0');
    const more = await api<string>(app, 'POST', '/wallet/flashAgainst', token, {
      type: 0,
      coin: BTC,
      number: `${oneMore.slice(0, -6)}.${oneMore.slice(-6)}`,
    });
    expect(more.type).toBe('error');
    const filled = await api<unknown>(app, 'POST', '/wallet/flashAgainst', token, {
      type: 0,
      coin: BTC,
      number: largest,
    });
    expect(filled.type, JSON.stringify(filled)).toBe('ok');
    expect(app.engine.ledger.balance('house', 'change', BTC).available).toBeLessThan(deskBefore);
    // The desk is now nearly empty: the next refusal says it cannot fill any amount.
    const empty = await api<string>(app, 'POST', '/wallet/flashAgainst', token, {
      type: 0,
      coin: BTC,
      number: '100',
    });
    expect(empty.type).toBe('error');
    expect(empty.message).toBe(translate('en', 'wallet.flash_desk_empty', { currency: 'BTC' }));
  });
});

describe('the back office with demo data', () => {
  it('tags the demo account and shows the flash desk with its labelled funding', async () => {
    const { app, store } = opened[0] as { app: FastifyInstance; store: Store };
    const admin = await newAdmin({ app, store } as BackofficeTestApp);
    const users = expectOk<{ data: { account: string; demo: boolean }[] }>(
      await call(app, 'GET', '/backoffice/users', {}, { token: admin.token }),
    );
    expect(users.data.filter((user) => user.demo).map((user) => user.account)).toEqual([
      'p2p-demo-merchant@fairex.invalid',
    ]);
    expect(users.data.filter((user) => !user.demo)).toHaveLength(1);
    const desk = expectOk<FlashDeskReply>(
      await call(app, 'GET', '/backoffice/flash_desk', {}, { token: admin.token }),
    );
    expect(desk.list.map((line) => line.code)).toEqual(['USDT', 'BTC']);
    expect(
      desk.fundings
        .filter((row) => row.memo === FLASH_DESK_MEMO)
        .map((row) => row.code)
        .sort(),
    ).toEqual(['BTC', 'USDT']);
  });
});

describe('DEMO=off', () => {
  it('seeds no demo account, no demo product and no house capital', async () => {
    const { app, store } = await firstStart('off');
    await projected(app);
    expect((await store.query('select 1 from users')).rows).toHaveLength(0);
    expect(app.engine.products.products()).toEqual([]);
    expect(houseCapital(app)).toEqual([]);
    // A recorded price funds nothing either.
    expect(
      (await app.runner.submit({ type: 'recordIndexPrice', marketId: BTC_MARKET, priceTicks: 6_500_000 }))
        .code,
    ).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(houseCapital(app)).toEqual([]);
    const ads = await api<{ data: P2pAd[] }>(app, 'GET', '/p2p/ads?side=buy&currency_id=3&fiat=CNY');
    expect(ads.message.data).toEqual([]);
  });
});
