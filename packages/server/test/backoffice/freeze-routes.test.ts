// User freezes on a real app (PGlite): the back office freezes a user through the journaled engine command,
// and every product's money command of that user is refused with the translated reason (spot order, lever
// open, seconds contract, product purchase, P2P ad post and take, flash), while cancelling, closing,
// confirming a payment and receiving still work; a user frozen for withdrawals cannot withdraw nor sell
// through P2P and can still trade; lifting restores both; the freezes survive a restart (replayed), and a
// freeze the table held before freezes were engine state is carried into the engine once at start.
import type { Command } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import { freezesOf } from '../../src/admin/freezes.ts';
import { signedHeaders } from '../../../../scripts/api-key-example.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, projected, removeTempDirs, tempDir } from '../helper.ts';
import { withdrawCode } from '../wallets/wallet-helper.ts';
import type { BackofficeTestApp, Reply, TestAdmin, TestUser } from './helpers.ts';
import { call, expectOk, fund, newAdmin, newUser, submitRealNameFor } from './helpers.ts';

const BTC = 1;
const USDT = 3;
const BTC_USDT = 1;
const UNIT = 1_000_000n;
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ENV = {
  INVITE_CODE_REQUIRED: 'false',
  PRODUCTS_DEMO: 'on',
  MICRO_RESERVE: '1000000',
  FLASH_PAIRS: 'BTC/USDT',
};

let test: BackofficeTestApp;
let admin: TestAdmin;
/** Frozen for trading. */
let trader: TestUser;
/** Frozen for withdrawals. */
let seller: TestUser;
let merchant: TestUser;
let merchantSellAd: number;
let merchantBuyAd: number;
let sellerMethod: number;
let traderMethod: number;

const frozenTrading = () => ({ type: 'error', message: translate('en', 'freeze.trading') });
const frozenWithdrawals = () => ({ type: 'error', message: translate('en', 'freeze.withdrawals') });

async function submit(command: Command): Promise<void> {
  const outcome = await test.app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

async function start(store: Store, dataDir?: string): Promise<void> {
  const folder = dataDir ?? (await tempDir('fairex-freeze-'));
  const app = await buildTestApp(store, {
    sessionCacheMs: 0,
    demoData: true,
    env: { DATA_DIR: folder, ...ENV },
  });
  await app.ready();
  test = {
    app,
    store,
    dataDir: folder,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

const as = (user: TestUser) => ({ token: user.token });
const post = (url: string, body: Record<string, unknown>, user: TestUser): Promise<Reply> =>
  call(test.app, 'POST', url, body, as(user));

async function setFreeze(
  user: TestUser,
  kinds: { trading?: boolean; withdrawals?: boolean; full?: boolean },
): Promise<void> {
  expectOk(
    await call(
      test.app,
      'POST',
      '/backoffice/users/freeze',
      {
        id: user.id,
        trading: kinds.trading ?? false,
        withdrawals: kinds.withdrawals ?? false,
        full: kinds.full ?? false,
        reason: 'Test of freezes',
      },
      { token: admin.token },
    ),
  );
}

/** A verified user with an approved real name, a P2P merchant with one bank method, funded. */
async function verifiedMerchant(name: string): Promise<{ user: TestUser; method: number }> {
  const user = await newUser(test.store);
  const submission = await submitRealNameFor(test, user, name);
  expectOk(
    await call(test.app, 'POST', '/backoffice/real_name/approve', { id: submission }, { token: admin.token }),
  );
  await submit({ type: 'p2pSetMerchant', userId: user.id, approved: true, acceptor: false });
  const method = expectOk<{ id: number }>(
    await post(
      '/p2p/methods/add',
      { method: 'bank', holder_name: name, account: '6222020202020202', bank_name: 'ICBC' },
      user,
    ),
  );
  await fund(test.app, user.id, USDT, '20000');
  await fund(test.app, user.id, BTC, '1');
  return { user, method: method.id };
}

const adInput = (side: 'buy' | 'sell', method: number) => ({
  side,
  currency_id: USDT,
  fiat: 'CNY',
  price_type: 'fixed',
  price: '7.20',
  total: '100',
  min_fiat: '10',
  max_fiat: '720',
  method_ids: [method],
});

const spotOrder = { legal_id: USDT, currency_id: BTC, price: '30000', num: '0.001' };
const leverOpen = { legal_id: USDT, currency_id: BTC, multiple: 10, share: 1, type: 1, status: 1 };
const microOrder = { match_id: BTC_USDT, currency_id: USDT, type: 1, seconds: 30, number: '10' };
const flash = { type: 0, coin: BTC, number: '10' };

beforeAll(async () => {
  await start(await openTestStore());
  admin = await newAdmin(test, 'admin');
  ({ user: merchant } = await verifiedMerchant('Wang Fang'));
  ({ user: trader, method: traderMethod } = await verifiedMerchant('Li Lei'));
  ({ user: seller, method: sellerMethod } = await verifiedMerchant('Zhang Wei'));
  const merchantMethod = (
    await test.store.query<{ id: number }>('select id from p2p_payment_methods where user_id = $1', [
      merchant.id,
    ])
  ).rows[0]!.id;
  merchantSellAd = expectOk<{ id: number }>(
    await post('/p2p/ads/create', adInput('sell', merchantMethod), merchant),
  ).id;
  merchantBuyAd = expectOk<{ id: number }>(
    await post('/p2p/ads/create', adInput('buy', merchantMethod), merchant),
  ).id;
  // Lever: the house pays profits; the users' lever wallets carry margin. Seconds: the micro wallet.
  await submit({
    type: 'systemFund',
    owner: 'house',
    wallet: 'lever',
    currencyId: USDT,
    amount: 1_000_000n * UNIT,
  });
  // Flash pays from the house's inventory.
  await submit({ type: 'systemFund', owner: 'house', currencyId: BTC, amount: 100_000_000n });
  for (const user of [trader, seller]) {
    for (const wallet of ['lever', 'micro', 'ico'] as const)
      await submit({
        type: 'transfer',
        userId: user.id,
        currencyId: USDT,
        fromWallet: 'change',
        toWallet: wallet,
        amount: 1_000n * UNIT,
      });
  }
  await submit({ type: 'recordIndexPrice', marketId: BTC_USDT, priceTicks: 6_700_000 });
  await submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[BTC_USDT, [['simulated', 6_700_000, Date.now()]]]],
  });
  await projected(test.app);
}, 180_000);

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

describe('a user frozen for trading', () => {
  let orderId: number;
  let positionId: number;
  let p2pOrderId: number;
  const icoId = () =>
    test.app.engine.products.products().find((product) => product.kind === 'ico')!.productId;

  it('holds an order, a position and an unpaid P2P purchase from before the freeze', async () => {
    const order = await post('/transaction/in', spotOrder, trader);
    expect(order.type).toBe('ok');
    orderId = test.app.engine.spot.openOrders(trader.id)[0]!.orderId;
    const position = expectOk<{ trade: { id: number } }>(await post('/lever/submit', leverOpen, trader));
    positionId = position.trade.id;
    p2pOrderId = expectOk<{ id: number }>(
      await post('/p2p/orders/create', { ad_id: merchantSellAd, fiat_amount: '72' }, trader),
    ).id;
    await setFreeze(trader, { trading: true });
    expect(test.app.engine.freeze.kindsOf(trader.id)).toEqual(['trading']);
  });

  it('is refused on every money command of every product, in the request language, changing nothing', async () => {
    const money = () =>
      JSON.stringify(
        test.app.engine.ledger.accounts().filter((account) => account.owner === trader.id),
        (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
      );
    const before = money();
    const attempts: [string, Record<string, unknown>][] = [
      ['/transaction/in', spotOrder],
      ['/transaction/out', spotOrder],
      ['/lever/submit', leverOpen],
      ['/lever/submit', { ...leverOpen, status: 0, target_price: '60000' }],
      ['/microtrade/submit', microOrder],
      ['/ico/buy', { id: icoId(), number: 10 }],
      ['/p2p/ads/create', adInput('buy', traderMethod)],
      ['/p2p/ads/create', adInput('sell', traderMethod)],
      ['/p2p/orders/create', { ad_id: merchantSellAd, fiat_amount: '72' }],
      ['/p2p/orders/create', { ad_id: merchantBuyAd, fiat_amount: '72', method_id: traderMethod }],
      ['/wallet/flashAgainst', flash],
    ];
    for (const [url, body] of attempts)
      expect([url, await post(url, body, trader)]).toEqual([url, frozenTrading()]);
    expect(
      await call(test.app, 'POST', '/lever/submit', leverOpen, { token: trader.token, lang: 'zh' }),
    ).toEqual({
      type: 'error',
      message: translate('zh', 'freeze.trading'),
    });
    expect(money()).toBe(before);
  });

  it("is refused the same way on an API key's signed order (the same engine path)", async () => {
    const reply = (await post(
      '/api_keys/create',
      { label: 'bot', scopes: 'read,trade' },
      trader,
    )) as Reply & {
      key: { key: string; secret: string };
    };
    expect(reply.type).toBe('ok');
    const body = JSON.stringify(spotOrder);
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/transaction/in',
      headers: {
        ...signedHeaders({ ...reply.key, method: 'POST', path: '/api/transaction/in', body }),
        'content-type': 'application/json',
      },
      remoteAddress: '127.0.0.1',
      payload: body,
    });
    expect(response.json()).toEqual(frozenTrading());
  });

  it('still cancels, closes, confirms a payment and receives', async () => {
    expect((await post('/transaction_del', { id: orderId }, trader)).type).toBe('ok');
    expect((await post('/lever/close', { id: positionId }, trader)).type).toBe('ok');
    expect((await post('/p2p/orders/paid', { id: p2pOrderId }, trader)).type).toBe('ok');
    const before = test.app.engine.ledger.balance(trader.id, 'change', USDT).available;
    await fund(test.app, trader.id, USDT, '5');
    expect(test.app.engine.ledger.balance(trader.id, 'change', USDT).available).toBe(before + 5n * UNIT);
  });
});

describe('a user frozen for withdrawals', () => {
  it('cannot withdraw nor sell through P2P, and can still trade', async () => {
    await setFreeze(seller, { withdrawals: true });
    const withdraw = async () =>
      post(
        '/wallet/out',
        {
          currency: USDT,
          number: '20',
          address: TRON_ADDRESS,
          type: 0,
          code: await withdrawCode(test.store, seller.id),
        },
        seller,
      );
    expect(await withdraw()).toEqual(frozenWithdrawals());
    expect(await post('/p2p/ads/create', adInput('sell', sellerMethod), seller)).toEqual(frozenWithdrawals());
    expect(
      await post(
        '/p2p/orders/create',
        { ad_id: merchantBuyAd, fiat_amount: '72', method_id: sellerMethod },
        seller,
      ),
    ).toEqual(frozenWithdrawals());
    // Trading stays open: a spot order, a position, a contract, a purchase, buying through P2P.
    expect((await post('/transaction/in', spotOrder, seller)).type).toBe('ok');
    expect((await post('/lever/submit', leverOpen, seller)).type).toBe('ok');
    expect((await post('/microtrade/submit', microOrder, seller)).type).toBe('ok');
    expect((await post('/p2p/ads/create', adInput('buy', sellerMethod), seller)).type).toBe('ok');
    expect(
      (await post('/p2p/orders/create', { ad_id: merchantSellAd, fiat_amount: '72' }, seller)).type,
    ).toBe('ok');
  });

  it("a full freeze stops the moves between the user's own wallets too", async () => {
    await setFreeze(seller, { full: true });
    const transfer = await post(
      '/wallet/change',
      { from_field: 'change', to_field: 'lever', currency_id: USDT, number: '1' },
      seller,
    );
    expect(transfer).toEqual({ type: 'error', message: translate('en', 'freeze.full') });
    expect(await post('/transaction/in', spotOrder, seller)).toEqual({
      type: 'error',
      message: translate('en', 'freeze.full'),
    });
    await setFreeze(seller, { withdrawals: true });
  });
});

describe('after a restart', () => {
  it('keeps refusing (replayed from the journal) and carries a freeze the table held before into the engine', async () => {
    // A freeze decided before freezes were engine state: only its row exists.
    const old = await newUser(test.store, { reviewStatus: 2 });
    await fund(test.app, old.id, USDT, '100');
    await test.store.query(
      `insert into user_freezes (user_id, trading, withdrawals, reason, updated_by) values ($1, false, true, 'before', $2)`,
      [old.id, admin.id],
    );
    expect(test.app.engine.freeze.kindsOf(old.id)).toEqual([]);
    const { dataDir, store } = test;
    await test.app.close();
    await start(store, dataDir);
    expect(test.app.engine.freeze.kindsOf(trader.id)).toEqual(['trading']);
    expect(test.app.engine.freeze.kindsOf(seller.id)).toEqual(['withdrawals']);
    expect(test.app.engine.freeze.kindsOf(old.id)).toEqual(['withdrawals']);
    expect(await freezesOf(test.app).carryIntoEngine()).toBe(0);
    expect(await post('/lever/submit', leverOpen, trader)).toEqual(frozenTrading());
    expect(
      await post(
        '/wallet/out',
        {
          currency: USDT,
          number: '20',
          address: TRON_ADDRESS,
          type: 0,
          code: await withdrawCode(test.store, old.id),
        },
        old,
      ),
    ).toEqual(frozenWithdrawals());
    const detail = expectOk<{
      freeze: { trading: boolean; withdrawals: boolean; full: boolean; reason: string };
    }>(await call(test.app, 'GET', '/backoffice/users/detail', { id: trader.id }, { token: admin.token }));
    expect(detail.freeze).toMatchObject({
      trading: true,
      withdrawals: false,
      full: false,
      reason: 'Test of freezes',
    });
  });
});

describe('lifting the freeze', () => {
  it('restores trading and withdrawals', async () => {
    await setFreeze(trader, {});
    await setFreeze(seller, {});
    expect(test.app.engine.freeze.frozenUsers().map((row) => row.userId)).not.toContain(trader.id);
    // Every command refused while frozen goes through again.
    const icoId = test.app.engine.products.products().find((product) => product.kind === 'ico')!.productId;
    const again: [string, Record<string, unknown>][] = [
      ['/transaction/in', spotOrder],
      ['/lever/submit', leverOpen],
      ['/microtrade/submit', microOrder],
      ['/ico/buy', { id: icoId, number: 10 }],
      ['/p2p/ads/create', adInput('buy', traderMethod)],
      ['/p2p/orders/create', { ad_id: merchantBuyAd, fiat_amount: '72', method_id: traderMethod }],
      ['/wallet/flashAgainst', flash],
    ];
    for (const [url, body] of again) expect([url, (await post(url, body, trader)).type]).toEqual([url, 'ok']);
    expect((await post('/p2p/ads/create', adInput('sell', sellerMethod), seller)).type).toBe('ok');
    const withdrawal = await post(
      '/wallet/out',
      {
        currency: USDT,
        number: '20',
        address: TRON_ADDRESS,
        type: 0,
        code: await withdrawCode(test.store, seller.id),
      },
      seller,
    );
    expect(withdrawal.type).toBe('ok');
    const { rows } = await test.store.query('select 1 from user_freezes where user_id = any($1)', [
      [trader.id, seller.id],
    ]);
    expect(rows).toHaveLength(0);
  });
});
