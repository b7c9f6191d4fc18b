// Every back-office route, walked from the guard's own list so that a new route cannot be forgotten here:
// without an administrator session (no token, a user's token, a revoked administrator token) the answer is
// {type: '999'}; an administrator session that has not passed the second factor is refused with
// {type: 'error', second_factor}; a reviewer gets only what the reviewer role allows. None of these callers
// changes anything: the audit log and the tables a route could change stay as they were.
//
// Then the bad-input table: every mutating route, refused with a translated message and no state change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import { BACKOFFICE_ROUTES } from '../../src/routes/api/backoffice/guard.ts';
import { may } from '../../src/admin/permissions.ts';
import { removeTempDirs } from '../helper.ts';
import type { BackofficeTestApp, TestAdmin, TestUser } from './helpers.ts';
import { backofficeApp, call, newAdmin, newUser, passwordSession } from './helpers.ts';

const LEVER_PAIR = {
  market_id: 1,
  enabled: 1,
  multiples: [5, 10],
  min_share: 1,
  max_share: 100,
  lever_share_num: '0.01',
  spread: '0.1',
  fee: '0.1',
  overnight: '0.05',
  liquidation_threshold: '20',
  liquidation_fee: '0.5',
  exposure_limit: '10',
};

/** A plausible input for every route: reaching the handler with it would act. */
const SAMPLE_INPUT: Record<string, Record<string, unknown>> = {
  '/api/backoffice/session': {},
  '/api/backoffice/second_factor/enrol': {},
  '/api/backoffice/second_factor/confirm': { code: '123456' },
  '/api/backoffice/second_factor/verify': { code: '123456' },
  '/api/backoffice/logout': {},
  '/api/backoffice/dashboard': {},
  '/api/backoffice/users': { q: 'a' },
  '/api/backoffice/users/detail': { id: 1 },
  '/api/backoffice/users/orders': { id: 1 },
  '/api/backoffice/users/ledger': { id: 1 },
  '/api/backoffice/users/logins': { id: 1 },
  '/api/backoffice/users/freeze': { id: 1, trading: true, withdrawals: true, reason: 'x' },
  '/api/backoffice/users/reset_second_factor': { id: 1, reason: 'x' },
  '/api/backoffice/real_name': {},
  '/api/backoffice/real_name/detail': { id: 1 },
  '/api/backoffice/real_name/photo': { id: '0123456789abcdef0123456789abcdef' },
  '/api/backoffice/real_name/approve': { id: 1 },
  '/api/backoffice/real_name/reject': { id: 1, reason: 'x' },
  '/api/backoffice/withdrawals': {},
  '/api/backoffice/withdrawals/detail': { id: 1 },
  '/api/backoffice/withdrawals/approve': { id: 1 },
  '/api/backoffice/withdrawals/reject': { id: 1, reason: 'x' },
  '/api/backoffice/withdrawals/resend': { id: 1 },
  '/api/backoffice/withdrawals/confirm': { id: 1, tx_id: 'x' },
  '/api/backoffice/deposits': {},
  '/api/backoffice/deposits/manual': { user_id: 1, currency_id: 3, amount: '100', note: 'x' },
  '/api/backoffice/callbacks': {},
  '/api/backoffice/chains': {},
  '/api/backoffice/chains/update': { currency_id: 3, chain_type: 0, confirmations: 3 },
  '/api/backoffice/currencies': {},
  '/api/backoffice/currencies/create': {
    id: 900,
    code: 'NEW',
    name: 'New',
    scale: 8,
    udun_id: -1,
    withdraw_min: '1',
    withdraw_fee: '0.1',
  },
  '/api/backoffice/currencies/update': { id: 1, name: 'Changed' },
  '/api/backoffice/markets': {},
  '/api/backoffice/markets/create': {
    id: 900,
    base_currency_id: 2,
    quote_currency_id: 1,
    price_scale: 6,
    tick_size: '0.000001',
    lot_size: '0.001',
    min_size: '0.001',
    maker_fee: '0.1',
    taker_fee: '0.1',
  },
  '/api/backoffice/markets/update': { id: 1, maker_fee: '0.05' },
  '/api/backoffice/settings': {},
  '/api/backoffice/micro/config': {},
  '/api/backoffice/micro/seconds': { options: [{ seconds: 30, profit_ratio_bp: 8_100 }] },
  '/api/backoffice/micro/currency': {
    currency_id: 3,
    fee_bp: 100,
    min: '10',
    max: '100',
    presets: ['10'],
    max_open_orders: 5,
  },
  '/api/backoffice/micro/cap': { market_id: 1, currency_id: 3, exposure_cap: '100' },
  '/api/backoffice/micro/staleness': { max_sample_age_ms: 4_000 },
  '/api/backoffice/micro/reserve': {},
  '/api/backoffice/flash_desk': {},
  '/api/backoffice/micro/reserve/fund': { currency_id: 3, amount: '1' },
  '/api/backoffice/micro/orders': {},
  '/api/backoffice/micro/proof': { id: 1 },
  '/api/backoffice/lever/pairs': {},
  '/api/backoffice/lever/pair': LEVER_PAIR,
  '/api/backoffice/lever/insurance': {},
  '/api/backoffice/lever/insurance/fund': { currency_id: 3, amount: '1' },
  '/api/backoffice/liabilities/capture': { reason: 'an auditor asked' },
  '/api/backoffice/lever/liquidations': {},
  '/api/backoffice/products': {},
  '/api/backoffice/products/create': {
    kind: 'defi',
    title: 'D',
    start_time: 0,
    end_time: 4_000_000_000_000,
    currency_id: 3,
    total: 10,
    days: 30,
    apr_bp: 500,
    early_exit: 'none',
  },
  '/api/backoffice/products/edit': {
    id: 1,
    kind: 'defi',
    title: 'D',
    start_time: 0,
    end_time: 4_000_000_000_000,
    currency_id: 3,
    total: 10,
    days: 30,
    apr_bp: 500,
    early_exit: 'none',
  },
  '/api/backoffice/products/open': { id: 1 },
  '/api/backoffice/products/fund': { id: 1, amount: '1' },
  '/api/backoffice/products/close': { id: 1 },
  '/api/backoffice/products/miner_rate': { id: 1, day: 30_000, amount: '0.0001' },
  '/api/backoffice/products/rates': { id: 1 },
  '/api/backoffice/products/holdings': { id: 1 },
  '/api/backoffice/products/accruals': { id: 1 },
  '/api/backoffice/products/accrue': {},
  '/api/backoffice/p2p/applications': {},
  '/api/backoffice/p2p/applications/review': { id: 1, decision: 'approve' },
  '/api/backoffice/p2p/merchants/revoke': { user_id: 1, reason: 'x' },
  '/api/backoffice/p2p/ads': {},
  '/api/backoffice/p2p/ads/pause': { id: 1, reason: 'x' },
  '/api/backoffice/p2p/orders': {},
  '/api/backoffice/p2p/orders/detail': { id: 1 },
  '/api/backoffice/p2p/image': { id: '0123456789abcdef0123456789abcdef' },
  '/api/backoffice/p2p/orders/decide': {
    id: 1,
    to: 'buyer',
    reason: 'the slip matches',
    totp_code: '123456',
  },
  '/api/backoffice/p2p/reference': { currency_id: 3, fiat: 'CNY', price: '7.2' },
  '/api/backoffice/p2p/config': {
    maker_fee_bp: 10,
    taker_fee_bp: 10,
    appeal_wait_minutes: 5,
    cancellations_per_day: 3,
  },
  '/api/backoffice/settings/apply': { key: 'market.fees', target_id: 1, values: { maker_fee: '0.05' } },
  '/api/backoffice/news/categories': {},
  '/api/backoffice/news/categories/update': { id: 3, sort_order: 9 },
  '/api/backoffice/news/items': {},
  '/api/backoffice/news/items/detail': { id: 1 },
  '/api/backoffice/news/items/create': { category_id: 3, translations: { en: { title: 'x' } } },
  '/api/backoffice/news/items/update': { id: 1, category_id: 3, translations: { en: { title: 'x' } } },
  '/api/backoffice/news/items/publish': { id: 1, published: false },
  '/api/backoffice/news/items/delete': { id: 1 },
  '/api/backoffice/outbox': {},
  '/api/backoffice/audit': {},
  '/api/backoffice/admins': {},
  '/api/backoffice/admins/create': { username: 'newcomer', password: 'a-long-password-1', role: 'reviewer' },
  '/api/backoffice/admins/disable': { id: 1, disabled: true },
  '/api/backoffice/admins/reset_second_factor': { id: 1 },
};

let test: BackofficeTestApp;
let admin: TestAdmin;
let reviewer: TestAdmin;
let user: TestUser;

beforeAll(async () => {
  test = await backofficeApp();
  admin = await newAdmin(test, 'admin');
  reviewer = await newAdmin(test, 'reviewer');
  user = await newUser(test.store);
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

/** Everything a back-office route could change, as one comparable value. */
async function state(): Promise<string> {
  const parts = await Promise.all([
    test.store.query('select count(*)::int as n from audit_log'),
    test.store.query(
      'select id, maker_fee_ppm, taker_fee_ppm, is_display, min_notional::text from markets order by id',
    ),
    test.store.query(
      'select id, name, withdraw_min::text, withdraw_fee::text, is_enabled from currencies order by id',
    ),
    test.store.query('select count(*)::int as n from news_items'),
    test.store.query('select id, names, sort_order from news_categories order by id'),
    test.store.query('select * from user_freezes order by user_id'),
    test.store.query('select id, disabled_at from admins order by id'),
    test.store.query('select admin_id, secret from admin_totp order by admin_id'),
    test.store.query('select count(*)::int as n from admin_session_factors'),
    test.store.query('select key, value from site_settings order by key'),
    test.store.query('select count(*)::int as n from deposits'),
    test.store.query('select currency_id, chain_type, confirmations from wallet_chains order by 1, 2'),
    test.store.query('select id, status from p2p_applications order by id'),
    test.store.query('select count(*)::int as n from p2p_decisions'),
  ]);
  // The seconds contracts' configuration and reserve live in the engine.
  const engine = test.app.engine;
  const micro = {
    config: engine.micro.config(),
    reserve: engine.ledger.balance('house', 'micro', 3),
    products: engine.products.products(),
    p2p: engine.p2p.config(),
  };
  const lever = { pairs: engine.lever.pairs(), insurance: engine.ledger.balance('insurance', 'lever', 3) };
  return JSON.stringify([...parts.map((part) => part.rows), micro, lever], (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

function routesToWalk(): [string, string][] {
  return [...BACKOFFICE_ROUTES.entries()].flatMap(([url, { methods }]) =>
    methods.map((method): [string, string] => [method, url]),
  );
}

describe('the route list', () => {
  it('has a sample input for every back-office route, and no stale ones', () => {
    expect([...BACKOFFICE_ROUTES.keys()].sort()).toEqual(Object.keys(SAMPLE_INPUT).sort());
    expect(BACKOFFICE_ROUTES.size).toBeGreaterThanOrEqual(50);
  });
});

describe('callers without an administrator session', () => {
  it('get 999 from every route, and change nothing', async () => {
    const revoked = await passwordSession(test.app, admin.username, admin.password);
    await call(test.app, 'POST', '/backoffice/logout', {}, { token: revoked });
    const before = await state();
    for (const [method, url] of routesToWalk()) {
      const path = url.slice('/api'.length);
      for (const token of [undefined, user.token, revoked, 'not-a-token']) {
        const reply = await call(test.app, method as 'GET' | 'POST', path, SAMPLE_INPUT[url] ?? {}, {
          token,
        });
        expect(
          reply,
          `${method} ${url} with ${token === undefined ? 'no token' : 'a non-admin token'}`,
        ).toEqual({
          type: '999',
          message: translate('en', 'admin.login_required'),
        });
      }
    }
    expect(await state()).toBe(before);
  });
});

describe('an administrator session without the second factor', () => {
  it('is refused by every route except the session calls, and changes nothing', async () => {
    const halfway = await passwordSession(test.app, admin.username, admin.password);
    const before = await state();
    for (const [method, url] of routesToWalk()) {
      if (BACKOFFICE_ROUTES.get(url)?.access === 'session') continue;
      const reply = await call(test.app, method as 'GET' | 'POST', url.slice(4), SAMPLE_INPUT[url] ?? {}, {
        token: halfway,
        lang: 'zh',
      });
      expect(reply, `${method} ${url}`).toEqual({
        type: 'error',
        message: translate('zh', 'backoffice.second_factor_required'),
        second_factor: 'required',
      });
    }
    expect(await state()).toBe(before);
  });

  it('is told to enrol when the administrator has no authenticator yet', async () => {
    const fresh = await newAdmin(test, 'admin');
    await test.store.query('delete from admin_totp where admin_id = $1', [fresh.id]);
    const token = await passwordSession(test.app, fresh.username, fresh.password);
    const session = await call(test.app, 'GET', '/backoffice/session', {}, { token });
    expect(session.message).toMatchObject({ second_factor: 'enrol', admin: { username: fresh.username } });
    const refused = await call(test.app, 'GET', '/backoffice/dashboard', {}, { token });
    expect(refused).toMatchObject({ type: 'error', second_factor: 'enrol' });
  });
});

describe('a reviewer', () => {
  it('uses the review, outbox and dashboard routes and is refused the rest', async () => {
    const before = await state();
    for (const [method, url] of routesToWalk()) {
      const access = BACKOFFICE_ROUTES.get(url)?.access;
      if (access === undefined || access === 'session' || may('reviewer', access)) continue;
      const reply = await call(test.app, method as 'GET' | 'POST', url.slice(4), SAMPLE_INPUT[url] ?? {}, {
        token: reviewer.token,
      });
      expect(reply, `${method} ${url}`).toEqual({
        type: 'error',
        message: translate('en', 'admin.forbidden'),
      });
    }
    expect(await state()).toBe(before);
    expect((await call(test.app, 'GET', '/backoffice/real_name', {}, { token: reviewer.token })).type).toBe(
      'ok',
    );
    expect((await call(test.app, 'GET', '/backoffice/dashboard', {}, { token: reviewer.token })).type).toBe(
      'ok',
    );
  });
});

/** Bad inputs per mutating route: each is refused with a message and leaves everything as it was. */
const BAD_INPUTS: Record<string, Record<string, unknown>[]> = {
  '/api/backoffice/second_factor/confirm': [{}, { code: '12345' }, { code: 'abcdef' }, { code: '1234567' }],
  '/api/backoffice/second_factor/verify': [{}, { code: '' }, { code: '12 456' }, { code: ['123456'] }],
  '/api/backoffice/users/freeze': [
    {},
    { id: 'x', trading: true, withdrawals: true, reason: 'r' },
    { id: 1, trading: 'maybe', withdrawals: true, reason: 'r' },
    { id: 1, trading: true, withdrawals: true },
    { id: 1, trading: true, withdrawals: true, reason: 'r'.repeat(501) },
    { id: 999_999, trading: true, withdrawals: false, reason: 'nobody' },
  ],
  '/api/backoffice/users/reset_second_factor': [{}, { id: 0, reason: 'r' }, { id: 999_999, reason: 'r' }],
  '/api/backoffice/real_name/approve': [{}, { id: -1 }, { id: 999_999 }],
  '/api/backoffice/real_name/reject': [{ id: 1 }, { id: 1, reason: '' }, { id: 999_999, reason: 'blurred' }],
  '/api/backoffice/withdrawals/approve': [{}, { id: 'one' }, { id: 999_999 }],
  '/api/backoffice/withdrawals/reject': [{ id: 1 }, { id: 999_999, reason: 'no' }],
  '/api/backoffice/withdrawals/resend': [{}, { id: 999_999 }],
  '/api/backoffice/withdrawals/confirm': [{ id: 1 }, { id: 999_999, tx_id: 'abc' }],
  '/api/backoffice/deposits/manual': [
    {},
    { user_id: 1, currency_id: 3, amount: '-5', note: 'n' },
    { user_id: 1, currency_id: 3, amount: '0', note: 'n' },
    { user_id: 1, currency_id: 3, amount: '1.1234567', note: 'n' },
    { user_id: 1, currency_id: 3, amount: '1e5', note: 'n' },
    { user_id: 999_999, currency_id: 3, amount: '1', note: 'n' },
    { user_id: 1, currency_id: 999, amount: '1', note: 'n' },
    { user_id: 1, currency_id: 3, amount: '1' },
  ],
  '/api/backoffice/chains/update': [
    {},
    { currency_id: 3, chain_type: 16, confirmations: 1 },
    { currency_id: 3, chain_type: 0, confirmations: -1 },
    { currency_id: 3, chain_type: 0, confirmations: 1001 },
    { currency_id: 3, chain_type: 9, confirmations: 5 },
    { currency_id: 3, chain_type: 0 },
  ],
  '/api/backoffice/currencies/create': [
    {},
    { id: 900, code: 'lower', name: 'n', scale: 8, udun_id: -1, withdraw_min: '1', withdraw_fee: '0' },
    { id: 900, code: 'NEW', name: 'n', scale: 13, udun_id: -1, withdraw_min: '1', withdraw_fee: '0' },
    { id: 900, code: 'NEW', name: 'n', scale: 2, udun_id: -1, withdraw_min: '1.001', withdraw_fee: '0' },
    { id: 1, code: 'NEW', name: 'n', scale: 2, udun_id: -1, withdraw_min: '1', withdraw_fee: '0' },
    { id: 900, code: 'BTC', name: 'n', scale: 2, udun_id: -1, withdraw_min: '1', withdraw_fee: '0' },
    { id: 70_000, code: 'NEW', name: 'n', scale: 2, udun_id: -1, withdraw_min: '1', withdraw_fee: '0' },
    { id: 900, code: 'NEW', name: 'n', scale: 2, udun_id: -2, withdraw_min: '1', withdraw_fee: '0' },
  ],
  '/api/backoffice/currencies/update': [
    {},
    { id: 1 },
    { id: 1, withdraw_fee: '0.000000001' },
    { id: 1, withdraw_min: '-1' },
    { id: 1, descriptions: 'text' },
    { id: 1, descriptions: { xx: 'unknown language' } },
    { id: 999, name: 'x' },
  ],
  '/api/backoffice/markets/create': [
    {},
    {
      id: 900,
      base_currency_id: 2,
      quote_currency_id: 2,
      price_scale: 2,
      tick_size: '0.01',
      lot_size: '0.001',
      min_size: '0.001',
      maker_fee: '0',
      taker_fee: '0',
    },
    {
      id: 900,
      base_currency_id: 2,
      quote_currency_id: 1,
      price_scale: 2,
      tick_size: '0.001',
      lot_size: '0.001',
      min_size: '0.001',
      maker_fee: '0',
      taker_fee: '0',
    },
    {
      id: 900,
      base_currency_id: 2,
      quote_currency_id: 1,
      price_scale: 6,
      tick_size: '0.000001',
      lot_size: '0.001',
      min_size: '0.0015',
      maker_fee: '0',
      taker_fee: '0',
    },
    {
      id: 900,
      base_currency_id: 2,
      quote_currency_id: 1,
      price_scale: 6,
      tick_size: '0.000001',
      lot_size: '0.001',
      min_size: '0.001',
      maker_fee: '10.5',
      taker_fee: '0',
    },
    {
      id: 1,
      base_currency_id: 2,
      quote_currency_id: 1,
      price_scale: 6,
      tick_size: '0.000001',
      lot_size: '0.001',
      min_size: '0.001',
      maker_fee: '0',
      taker_fee: '0',
    },
    {
      id: 900,
      base_currency_id: 1,
      quote_currency_id: 3,
      price_scale: 2,
      tick_size: '0.01',
      lot_size: '0.0001',
      min_size: '0.0001',
      maker_fee: '0',
      taker_fee: '0',
    },
  ],
  '/api/backoffice/markets/update': [
    {},
    { id: 1 },
    { id: 1, maker_fee: '10.0001' },
    { id: 1, taker_fee: '-0.1' },
    { id: 1, taker_fee: '0.00001' },
    { id: 1, min_notional: 'lots' },
    { id: 1, is_display: 'perhaps' },
    { id: 999, maker_fee: '0.1' },
  ],
  '/api/backoffice/settings/apply': [
    {},
    { key: 'no.such', target_id: 1, values: {} },
    { key: 'market.fees', target_id: 1, values: 'maker_fee=1' },
    { key: 'market.fees', target_id: 1, values: { maker_fee: '11' } },
    { key: 'market.fees', target_id: 1, values: { unknown: '1' } },
    { key: 'market.fees', target_id: 999, values: { maker_fee: '0.1' } },
    { key: 'currency.withdrawal', target_id: 3, values: { withdraw_fee: '0.0000001' } },
  ],
  '/api/backoffice/micro/seconds': [{}, { options: [] }, { options: [{ seconds: 0, profit_ratio_bp: 1 }] }],
  '/api/backoffice/products/create': [
    {},
    { kind: 'bond', title: 'x', start_time: 0, end_time: 1, currency_id: 3, total: 1, days: 1 },
    {
      kind: 'defi',
      title: '',
      start_time: 0,
      end_time: 1,
      currency_id: 3,
      total: 1,
      days: 1,
      apr_bp: 1,
      early_exit: 'none',
    },
    {
      kind: 'ico',
      title: 'x',
      start_time: 0,
      end_time: 1,
      token_currency_id: 1,
      pay_currency_id: 3,
      total: 0,
      price: '1',
    },
    {
      kind: 'miner',
      title: 'x',
      start_time: 0,
      end_time: 1,
      earn_currency_id: 1,
      pay_currency_id: 3,
      total: 1,
      price: 'x',
      fee_bp: 0,
      days: 1,
      rate_kind: 'fixed',
      earnings_min: '1',
      earnings_max: '1',
    },
  ],
  '/api/backoffice/products/edit': [
    {},
    { id: 'x', kind: 'defi' },
    {
      id: 999,
      kind: 'defi',
      title: 'x',
      start_time: 0,
      end_time: 1,
      currency_id: 3,
      total: 1,
      days: 1,
      apr_bp: 1,
      early_exit: 'none',
    },
  ],
  '/api/backoffice/products/open': [{}, { id: 0 }, { id: 999 }],
  '/api/backoffice/products/fund': [
    {},
    { id: 999, amount: '1' },
    { id: 1, amount: '-1' },
    { id: 1, amount: 'x' },
  ],
  '/api/backoffice/products/close': [{}, { id: 'x' }, { id: 999 }],
  '/api/backoffice/products/miner_rate': [
    {},
    { id: 999, day: 1, amount: '1' },
    { id: 1, day: -1, amount: '1' },
    { id: 1, day: 1, amount: 'x' },
  ],
  '/api/backoffice/products/accrue': [],
  '/api/backoffice/micro/currency': [
    {},
    { currency_id: 3, fee_bp: 10_001, min: '1', max: '2', presets: [], max_open_orders: 1 },
    { currency_id: 3, fee_bp: 1, min: '3', max: '2', presets: [], max_open_orders: 1 },
    { currency_id: 999, fee_bp: 1, min: '1', max: '2', presets: [], max_open_orders: 1 },
  ],
  '/api/backoffice/micro/cap': [{}, { market_id: 999, currency_id: 3, exposure_cap: '1' }],
  '/api/backoffice/p2p/applications/review': [
    {},
    { id: 999_999, decision: 'approve' },
    { id: 1, decision: 'maybe' },
  ],
  '/api/backoffice/p2p/merchants/revoke': [{}, { user_id: 999_999, reason: 'not a merchant' }],
  '/api/backoffice/p2p/ads/pause': [{}, { id: 999_999, reason: 'no such ad' }],
  '/api/backoffice/p2p/orders/decide': [
    {},
    { id: 1, to: 'nobody', reason: 'the slip matches', totp_code: '123456' },
    { id: 1, to: 'buyer', reason: 'short', totp_code: '123456' },
    { id: 1, to: 'buyer', reason: 'the slip matches', totp_code: '12345' },
    { id: 1, to: 'buyer', reason: 'the slip matches', totp_code: '123456' },
  ],
  '/api/backoffice/p2p/config': [
    {},
    { maker_fee_bp: 1_001, taker_fee_bp: 0, appeal_wait_minutes: 10, cancellations_per_day: 3 },
    { maker_fee_bp: 0, taker_fee_bp: -1, appeal_wait_minutes: 10, cancellations_per_day: 3 },
    { maker_fee_bp: 0, taker_fee_bp: 0, appeal_wait_minutes: 10, cancellations_per_day: 0 },
  ],
  '/api/backoffice/p2p/reference': [
    {},
    { currency_id: 3, fiat: 'XXX', price: '7' },
    { currency_id: 3, fiat: 'CNY', price: '-7' },
    { currency_id: 3, fiat: 'CNY', price: '7.123' },
    { currency_id: 999, fiat: 'CNY', price: '7' },
  ],
  '/api/backoffice/micro/staleness': [{}, { max_sample_age_ms: 600_001 }],
  '/api/backoffice/micro/reserve/fund': [
    {},
    { currency_id: 3, amount: '-1' },
    { currency_id: 3, amount: '1000000000000' },
  ],
  '/api/backoffice/lever/pair': [
    {},
    { ...LEVER_PAIR, market_id: 999 },
    { ...LEVER_PAIR, lever_share_num: '0.000001' },
    { ...LEVER_PAIR, liquidation_threshold: '100' },
    { ...LEVER_PAIR, spread: '51' },
    { ...LEVER_PAIR, multiples: [] },
    { ...LEVER_PAIR, min_share: 10, max_share: 5 },
  ],
  '/api/backoffice/liabilities/capture': [{}, { reason: '' }, { reason: 'x' }],
  '/api/backoffice/lever/insurance/fund': [
    {},
    { currency_id: 3, amount: '-1' },
    { currency_id: 999, amount: '1' },
    { currency_id: 3, amount: '1.0000001' },
  ],
  '/api/backoffice/news/categories/update': [
    {},
    { id: 3 },
    { id: 3, names: { zh: '公告' } },
    { id: 3, names: { en: 'x'.repeat(101) } },
    { id: 999, sort_order: 1 },
  ],
  '/api/backoffice/news/items/create': [
    {},
    { category_id: 3 },
    { category_id: 3, translations: {} },
    { category_id: 3, translations: { en: { title: '' } } },
    { category_id: 3, translations: { de: { title: 'Hallo' } } },
    { category_id: 3, translations: { en: { title: 'x'.repeat(301) } } },
    { category_id: 3, translations: { en: { title: '\u0000\u0001' } } },
    { category_id: 3, link_url: 'javascript:alert(1)', translations: { en: { title: 'x' } } },
    { category_id: 3, link_url: 'http://plain.example', translations: { en: { title: 'x' } } },
    { category_id: 999, translations: { en: { title: 'x' } } },
  ],
  '/api/backoffice/news/items/update': [
    { id: 1 },
    { id: 999_999, category_id: 3, translations: { en: { title: 'x' } } },
    { id: 1, category_id: 3, translations: { en: { title: 'x', content: { html: '<p>' } } } },
  ],
  '/api/backoffice/news/items/publish': [{ id: 1 }, { id: 999_999, published: true }],
  '/api/backoffice/news/items/delete': [{}, { id: 999_999 }, { id: 1 }],
  '/api/backoffice/admins/create': [
    {},
    { username: 'x', password: 'a-long-password-1', role: 'admin' },
    { username: 'valid.name', password: 'short', role: 'admin' },
    { username: 'valid.name', password: 'a-long-password-1', role: 'root' },
  ],
  '/api/backoffice/admins/disable': [{ id: 1 }, { id: 999_999, disabled: true }],
  '/api/backoffice/admins/reset_second_factor': [{}, { id: 999_999 }],
};

describe('bad input', () => {
  it('covers every mutating route', () => {
    const mutating = [...BACKOFFICE_ROUTES.entries()]
      .filter(([_url, { methods, access }]) => methods.includes('POST') && access !== 'session')
      .map(([url]) => url)
      .filter((url) => !url.endsWith('/logout'));
    for (const url of mutating) expect(BAD_INPUTS[url], url).toBeDefined();
  });

  it('is refused with a translated message and changes nothing', async () => {
    const before = await state();
    for (const [url, inputs] of Object.entries(BAD_INPUTS)) {
      for (const input of inputs) {
        const reply = await call(test.app, 'POST', url.slice(4), input, { token: admin.token, lang: 'kr' });
        expect(reply.type, `${url} ${JSON.stringify(input)} -> ${JSON.stringify(reply)}`).toBe('error');
        expect(typeof reply.message).toBe('string');
        expect(reply.message as string).not.toMatch(/at .*\.ts|Error:|undefined/);
      }
    }
    // Refusals write nothing but the audit lines of reads; none of the routes above reads.
    expect(await state()).toBe(before);
  });
});
