// What an operator does in the back office, end to end through app.inject() on the real engine: sign-in with
// the second factor, the dashboard and its solvency table, users and freezes, real-name review, withdrawals,
// pairs and their fees, currencies, site content, settings, administrators, and the audit log of it all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { freezesOf } from '../../src/admin/freezes.ts';
import { removeTempDirs } from '../helper.ts';
import { withdrawCode } from '../wallets/wallet-helper.ts';
import type { BackofficeTestApp, Reply, TestAdmin } from './helpers.ts';
import {
  auditActions,
  authenticatorCode,
  backofficeApp,
  call,
  expectOk,
  fund,
  newAdmin,
  newUser,
  passwordSession,
  submitRealNameFor,
} from './helpers.ts';

const BTC = 1;
const USDT = 3;
const BTC_USDT = 1;
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

let test: BackofficeTestApp;
let admin: TestAdmin;

beforeAll(async () => {
  test = await backofficeApp();
  admin = await newAdmin(test);
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

const get = <T>(url: string, query: Record<string, unknown> = {}) =>
  call(test.app, 'GET', url, query, { token: admin.token }).then((reply) => expectOk<T>(reply));
const post = (url: string, body: Record<string, unknown> = {}, lang = 'en') =>
  call(test.app, 'POST', url, body, { token: admin.token, lang });

interface AuditRow {
  admin: string | null;
  action: string;
  target_type: string;
  target_id: string;
  detail: Record<string, unknown>;
  ip: string | null;
  created_at: string;
}

async function lastAudit(action: string): Promise<AuditRow> {
  const page = await get<{ data: AuditRow[] }>('/backoffice/audit', { action });
  const row = page.data[0];
  if (!row) throw new Error(`no audit entry ${action}`);
  return row;
}

describe('signing in', () => {
  it('enrols an authenticator once, refuses a used code, and passes a new session with a fresh code', async () => {
    const second = await passwordSession(test.app, admin.username, admin.password);
    const state = await call(test.app, 'GET', '/backoffice/session', {}, { token: second });
    expect(state.message).toMatchObject({
      second_factor: 'required',
      admin: { username: admin.username, role: 'admin' },
    });
    // The code that enrolled is spent.
    const replay = await call(
      test.app,
      'POST',
      '/backoffice/second_factor/verify',
      { code: authenticatorCode(admin.secret) },
      { token: second },
    );
    expect(replay).toEqual({ type: 'error', message: translate('en', 'totp.wrong') });
    const enrolAgain = await call(test.app, 'POST', '/backoffice/second_factor/enrol', {}, { token: second });
    expect(enrolAgain.type).toBe('error');
    // The phone's clock may be one step ahead.
    expectOk(
      await call(
        test.app,
        'POST',
        '/backoffice/second_factor/verify',
        { code: authenticatorCode(admin.secret, 1) },
        { token: second },
      ),
    );
    expect((await call(test.app, 'GET', '/backoffice/dashboard', {}, { token: second })).type).toBe('ok');
    expectOk(await call(test.app, 'POST', '/backoffice/logout', {}, { token: second }));
    expect((await call(test.app, 'GET', '/backoffice/dashboard', {}, { token: second })).type).toBe('999');
    expect((await lastAudit('admin.second_factor_verify')).admin).toBe(admin.username);
  });

  it('pauses after five wrong codes', async () => {
    const other = await newAdmin(test);
    const token = await passwordSession(test.app, other.username, other.password);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const reply = await call(
        test.app,
        'POST',
        '/backoffice/second_factor/verify',
        { code: '000000' },
        { token },
      );
      expect(reply.message).toBe(translate('en', 'totp.wrong'));
    }
    const paused = await call(
      test.app,
      'POST',
      '/backoffice/second_factor/verify',
      { code: authenticatorCode(other.secret, 1) },
      { token },
    );
    expect(paused.message).toBe(translate('en', 'totp.too_many_attempts', { minutes: 15 }));
  });
});

describe('the dashboard', () => {
  it('counts users and trades, and its solvency table sums to zero per currency', async () => {
    const buyer = await newUser(test.store);
    const seller = await newUser(test.store);
    await fund(test.app, buyer.id, USDT, '10000');
    await fund(test.app, seller.id, BTC, '1');
    const sell = await call(
      test.app,
      'POST',
      '/transaction/out',
      { legal_id: USDT, currency_id: BTC, price: '30000', num: '0.1', mode: 2 },
      { token: seller.token },
    );
    expect(sell.type).toBe('ok');
    const buy = await call(
      test.app,
      'POST',
      '/transaction/in',
      { legal_id: USDT, currency_id: BTC, price: '30000', num: '0.1', mode: 2 },
      { token: buyer.token },
    );
    expect(buy.type).toBe('ok');
    // The buyer also takes 0.05 BTC from the market maker: a fill of the market maker, with a user.
    for (const command of [
      { type: 'systemFund', owner: 'marketMaker', currencyId: BTC, amount: 5_000_000n },
      {
        type: 'placeOrder',
        owner: 'marketMaker',
        marketId: 1,
        side: 'sell',
        kind: 'limit',
        priceTicks: 3_000_000,
        quantityLots: 500,
      },
    ] as const)
      expect((await test.app.runner.submit(command)).code).toBe(0);
    const fromMaker = await call(
      test.app,
      'POST',
      '/transaction/in',
      { legal_id: USDT, currency_id: BTC, price: '30000', num: '0.05', mode: 2 },
      { token: buyer.token },
    );
    expect(fromMaker.type).toBe('ok');

    const board = await get<{
      users: { total: number };
      volume: {
        symbol: string;
        trades: number;
        base_volume: string;
        quote_volume: string;
        user_trades: number;
        maker_fills: number;
      }[];
      engine?: { committed_seq: number; projected_seq: number; projector_lag_commands: number };
      solvency: {
        balanced: boolean;
        rows: {
          code: string;
          sum: string;
          users: Record<string, string>;
          system: Record<string, string>;
          custody: string;
          balanced: boolean;
        }[];
      };
    }>('/backoffice/dashboard');
    expect(board.users.total).toBeGreaterThanOrEqual(2);
    // Where the journal and its projector stand: the volume below was read after the projector caught up.
    expect(board.engine?.committed_seq).toBeGreaterThan(0);
    expect(board.engine?.projected_seq).toBeLessThanOrEqual(board.engine?.committed_seq as number);
    expect(board.engine?.projector_lag_commands).toBe(
      (board.engine?.committed_seq as number) - (board.engine?.projected_seq as number),
    );
    expect(board.volume.find((row) => row.symbol === 'BTC/USDT')).toMatchObject({
      trades: 2,
      base_volume: '0.15000000',
      quote_volume: '4500.000000',
      user_trades: 2,
      maker_fills: 1,
    });
    expect(board.solvency.balanced).toBe(true);
    const usdt = board.solvency.rows.find((row) => row.code === 'USDT');
    expect(usdt).toMatchObject({ sum: '0.000000', balanced: true });
    // The buyer paid 4500 USDT; the seller received 3000 and the market maker 1500, each less the 0.1 % fee,
    // which went to the fees account.
    expect(usdt?.users.change).toBe('8497.000000');
    expect(usdt?.system.fees).toBe('4.500000');
    expect(usdt?.custody).toBe('10000.000000');
  });

  it('raises the alarm when a currency does not sum to zero', async () => {
    const { solvencyReport } = await import('../../src/admin/solvency.ts');
    const report = solvencyReport(
      [
        { owner: 7, wallet: 'change', currencyId: 3, available: 5n, locked: 0n },
        { owner: 'outside', wallet: 'change', currencyId: 3, available: -4n, locked: 0n },
      ],
      [{ currencyId: 3, code: 'USDT', scale: 6 }],
    );
    expect(report.balanced).toBe(false);
    expect(report.rows[0]).toMatchObject({ sum: '0.000001', balanced: false });
  });
});

describe('users', () => {
  it('finds a user, shows the six wallets, orders, ledger and log-ins', async () => {
    const user = await newUser(test.store);
    await fund(test.app, user.id, USDT, '250.5');
    const order = await call(
      test.app,
      'POST',
      '/transaction/in',
      { legal_id: USDT, currency_id: BTC, price: '1000', num: '0.01', mode: 2 },
      { token: user.token },
    );
    expect(order.type).toBe('ok');
    const { rows } = await test.store.query<{ account: string }>('select account from users where id = $1', [
      user.id,
    ]);
    const account = rows[0]?.account ?? '';
    const found = await get<{ data: { id: number }[] }>('/backoffice/users', { q: account.slice(0, 10) });
    expect(found.data.map((row) => row.id)).toContain(user.id);
    expect(
      (await get<{ data: { id: number }[] }>('/backoffice/users', { q: String(user.id) })).data[0]?.id,
    ).toBe(user.id);

    const detail = await get<{
      balances: { code: string; wallets: Record<string, { available: string; locked: string }> }[];
      open_orders: number;
    }>('/backoffice/users/detail', { id: user.id });
    const usdt = detail.balances.find((line) => line.code === 'USDT');
    expect(Object.keys(usdt?.wallets ?? {})).toEqual(['change', 'lever', 'micro', 'ico', 'miner', 'defi']);
    expect(usdt?.wallets.change).toEqual({ available: '240.500000', locked: '10.000000' });
    expect(detail.open_orders).toBe(1);
    const orders = await get<{ data: { symbol: string; price: string; quantity: string; status: string }[] }>(
      '/backoffice/users/orders',
      { id: user.id },
    );
    expect(orders.data[0]).toMatchObject({
      symbol: 'BTC/USDT',
      price: '1000.00',
      quantity: '0.01000000',
      status: 'resting',
    });
    const ledger = await get<{ data: { reason: string; change: string; locked_change: string }[] }>(
      '/backoffice/users/ledger',
      { id: user.id, currency_id: USDT },
    );
    expect(ledger.data.map((line) => line.reason)).toEqual(['orderHold', 'deposit']);
    expect(ledger.data[0]).toMatchObject({ change: '-10.000000', locked_change: '10.000000' });
    const logins = await get<{ data: { active: boolean }[] }>('/backoffice/users/logins', { id: user.id });
    expect(logins.data[0]?.active).toBe(true);
    expect(await auditActions(test.store, 'user', user.id)).toContain('user.view');
  });

  it("lists a user's open orders from the engine and closed ones from the projection, newest first", async () => {
    const user = await newUser(test.store);
    await fund(test.app, user.id, USDT, '100');
    const place = (price: string) =>
      call(
        test.app,
        'POST',
        '/transaction/in',
        { legal_id: USDT, currency_id: BTC, price, num: '0.01', mode: 2 },
        { token: user.token },
      );
    expect((await place('1000')).type).toBe('ok');
    expect((await call(test.app, 'POST', '/orders/cancel_all', {}, { token: user.token })).type).toBe('ok');
    expect((await place('1001')).type).toBe('ok');
    const orders = await get<{
      total: number;
      data: {
        order_id: string;
        price: string;
        status: string;
        cancel_reason: string | null;
        fee_paid: string;
      }[];
    }>('/backoffice/users/orders', { id: user.id });
    expect(orders.total).toBe(2);
    expect(orders.data.map((row) => [row.price, row.status, row.cancel_reason])).toEqual([
      ['1001.00', 'resting', null],
      ['1000.00', 'cancelled', 'user'],
    ]);
    expect(Number(orders.data[0]?.order_id)).toBeGreaterThan(Number(orders.data[1]?.order_id));
  });

  it('lists each log-in with the address and browser it came from', async () => {
    const user = await newUser(test.store);
    const { rows } = await test.store.query<{ account: string }>('select account from users where id = $1', [
      user.id,
    ]);
    await test.store.query('update users set password_hash = $2 where id = $1', [
      user.id,
      await hashPassword('Passw0rd!x'),
    ]);
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) FairexTest/1.0' },
      remoteAddress: '203.0.113.7',
      payload: { user_string: rows[0]?.account, password: 'Passw0rd!x' },
    });
    expect(response.json()).toMatchObject({ type: 'ok' });
    const logins = await get<{ data: { active: boolean; ip: string | null; user_agent: string | null }[] }>(
      '/backoffice/users/logins',
      { id: user.id },
    );
    expect(logins.data[0]).toMatchObject({
      active: true,
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) FairexTest/1.0',
    });
    // The session the test helper made directly has no request behind it.
    expect(logins.data[1]).toMatchObject({ ip: null, user_agent: null });
  });

  it('freezes trading and withdrawals with a reason, audited before and after, and lifts it', async () => {
    const user = await newUser(test.store);
    const freezes = freezesOf(test.app);
    expectOk(
      await post('/backoffice/users/freeze', {
        id: user.id,
        trading: true,
        withdrawals: false,
        reason: 'Disputed card payment',
      }),
    );
    // The freeze is engine state: the journaled command set it.
    expect(test.app.engine.freeze.kindsOf(user.id)).toEqual(['trading']);
    expect(freezes.isFrozen(user.id, 'trading')).toBe(true);
    expect(freezes.isFrozen(user.id, 'withdrawals')).toBe(false);
    const entry = await lastAudit('user.freeze');
    expect(entry).toMatchObject({
      admin: admin.username,
      target_id: String(user.id),
      detail: {
        before: { trading: false, withdrawals: false, full: false },
        after: { trading: true, withdrawals: false, full: false },
        reason: 'Disputed card payment',
      },
    });
    expect(entry.ip).toBeTruthy();
    const frozen = await get<{ data: { id: number; frozen_trading: boolean }[] }>('/backoffice/users', {
      frozen: 1,
    });
    expect(frozen.data.find((row) => row.id === user.id)?.frozen_trading).toBe(true);
    expectOk(
      await post('/backoffice/users/freeze', {
        id: user.id,
        trading: false,
        withdrawals: false,
        reason: 'Resolved',
      }),
    );
    expect(test.app.engine.freeze.kindsOf(user.id)).toEqual([]);
    expect(freezes.isFrozen(user.id, 'trading')).toBe(false);
  });

  it("resets a user's authenticator", async () => {
    const user = await newUser(test.store);
    await test.store.query(`update users set totp_secret = 'JBSWY3DPEHPK3PXP' where id = $1`, [user.id]);
    expectOk(
      await post('/backoffice/users/reset_second_factor', {
        id: user.id,
        reason: 'Lost phone, identity checked by video call',
      }),
    );
    const { rows } = await test.store.query<{ totp_secret: string | null }>(
      'select totp_secret from users where id = $1',
      [user.id],
    );
    expect(rows[0]?.totp_secret).toBeNull();
    expect(
      (await post('/backoffice/users/reset_second_factor', { id: user.id, reason: 'again' })).message,
    ).toBe(translate('en', 'backoffice.second_factor_not_on'));
  });
});

describe('real-name review', () => {
  it('shows the queue and the photos, approves one and rejects another with a reason', async () => {
    const first = await newUser(test.store);
    const second = await newUser(test.store);
    const firstId = await submitRealNameFor(test, first, 'Han Meimei');
    const secondId = await submitRealNameFor(test, second, 'Wang Wu');
    const queue = await get<{ data: { id: number }[] }>('/backoffice/real_name');
    expect(queue.data.map((row) => row.id)).toEqual(expect.arrayContaining([firstId, secondId]));
    const detail = await get<{ front_pic: string; name: string }>('/backoffice/real_name/detail', {
      id: firstId,
    });
    expect(detail.name).toBe('Han Meimei');
    expect(detail.front_pic).toMatch(/^\/api\/backoffice\/real_name\/photo\?id=[0-9a-f]{32}$/);
    const photo = await test.app.inject({
      method: 'GET',
      url: detail.front_pic,
      headers: { authorization: admin.token },
    });
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['cache-control']).toBe('private, no-store');
    expect(photo.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const asUser = await test.app.inject({
      method: 'GET',
      url: detail.front_pic,
      headers: { authorization: first.token },
    });
    expect(asUser.json()).toMatchObject({ type: '999' });

    expectOk(await post('/backoffice/real_name/approve', { id: firstId }));
    expectOk(await post('/backoffice/real_name/reject', { id: secondId, reason: 'The photo is blurred.' }));
    const { rows } = await test.store.query<{ id: number; review_status: number }>(
      'select id, review_status from users where id = any($1::int[]) order by id',
      [[first.id, second.id]],
    );
    expect(rows.map((row) => row.review_status)).toEqual([2, 0]);
    expect((await post('/backoffice/real_name/approve', { id: firstId })).message).toBe(
      translate('en', 'admin.submission_decided'),
    );
    expect(await auditActions(test.store, 'real_name_submission', firstId)).toEqual([
      'real_name.view',
      'real_name.approve',
    ]);
  });
});

describe('withdrawals', () => {
  it('shows the user beside the request, refuses approval while frozen, approves, and confirms the payout', async () => {
    const user = await newUser(test.store, { reviewStatus: 2 });
    await fund(test.app, user.id, USDT, '100');
    const request = await call(
      test.app,
      'POST',
      '/wallet/out',
      {
        currency: USDT,
        number: '40',
        address: TRON_ADDRESS,
        type: 0,
        code: await withdrawCode(test.store, user.id),
      },
      { token: user.token },
    );
    expect(request.type).toBe('ok');
    const pending = await get<{
      data: { id: number; user_id: number; amount: string; receive: string }[];
      sandbox: boolean;
    }>('/backoffice/withdrawals', { status: 'pending' });
    const withdrawal = pending.data.find((row) => row.user_id === user.id);
    expect(withdrawal).toMatchObject({ amount: '40.000000', receive: '39.000000' });
    expect(pending.sandbox).toBe(true);
    const id = withdrawal?.id ?? 0;
    const detail = await get<{
      user: { balance: { available: string; locked: string }; deposited_total: string };
    }>('/backoffice/withdrawals/detail', { id });
    expect(detail.user.balance).toEqual({ available: '60.000000', locked: '40.000000' });

    expectOk(
      await post('/backoffice/users/freeze', {
        id: user.id,
        trading: false,
        withdrawals: true,
        reason: 'Check',
      }),
    );
    expect((await post('/backoffice/withdrawals/approve', { id })).message).toBe(
      translate('en', 'backoffice.withdrawals_frozen'),
    );
    expectOk(
      await post('/backoffice/users/freeze', {
        id: user.id,
        trading: false,
        withdrawals: false,
        reason: 'Checked',
      }),
    );

    expect(expectOk<{ status: string }>(await post('/backoffice/withdrawals/approve', { id })).status).toBe(
      'approved',
    );
    expect((await post('/backoffice/withdrawals/reject', { id, reason: 'late' })).message).toBe(
      translate('en', 'wallet.withdrawal_decided'),
    );
    expectOk(await post('/backoffice/withdrawals/confirm', { id, tx_id: 'sandbox-tx-1' }));
    expect(test.app.engine.ledger.wallets(user.id, USDT).change).toEqual({
      available: 60_000_000n,
      locked: 0n,
    });
    expect(await auditActions(test.store, 'withdrawal', id)).toEqual([
      'wallet.withdrawal_approve',
      'wallet.withdrawal_sandbox_confirm',
    ]);
  });

  it('credits by hand in the sandbox, audited', async () => {
    const user = await newUser(test.store);
    const reply = expectOk<{ deposit_id: number; message: string }>(
      await post('/backoffice/deposits/manual', {
        user_id: user.id,
        currency_id: BTC,
        amount: '0.5',
        note: 'Sandbox test',
      }),
    );
    // The operator is told what the ledger took: amount, currency, user and the deposit's id.
    expect(reply.message).toBe(`Credited 0.5 BTC to user ${user.id} (deposit ${reply.deposit_id}).`);
    expect(test.app.engine.ledger.wallets(user.id, BTC).change.available).toBe(50_000_000n);
    const list = await get<{ data: { id: number; source: string; amount: string }[] }>(
      '/backoffice/deposits',
      { user_id: user.id },
    );
    expect(list.data[0]).toMatchObject({ id: reply.deposit_id, source: 'manual', amount: '0.50000000' });
  });

  it("edits a chain's confirmations, audited before and after", async () => {
    const chains = await get<{ list: { currency_id: number; chain_type: number; confirmations: number }[] }>(
      '/backoffice/chains',
    );
    const tron = chains.list.find((chain) => chain.currency_id === USDT && chain.chain_type === 0);
    expect(tron).toBeDefined();
    expectOk(
      await post('/backoffice/chains/update', { currency_id: USDT, chain_type: 0, confirmations: 25 }),
    );
    expect((await lastAudit('chain.update')).detail).toMatchObject({
      before: { confirmations: tron?.confirmations },
      after: { confirmations: 25 },
    });
  });
});

describe('pairs and currencies', () => {
  it("changes a pair's fees in the catalogue and, by command, in the engine; trades pay the new fee", async () => {
    const updated = expectOk<{ maker_fee: string; taker_fee: string; engine: { taker_fee: string } }>(
      await post('/backoffice/markets/update', { id: BTC_USDT, maker_fee: '0.02', taker_fee: '0.25' }),
    );
    expect(updated).toMatchObject({ maker_fee: '0.02', taker_fee: '0.25', engine: { taker_fee: '0.25' } });
    expect(test.app.engine.spot.market(BTC_USDT)).toMatchObject({ makerFeePpm: 200, takerFeePpm: 2500 });
    expect((await lastAudit('market.update')).detail).toMatchObject({
      before: { maker_fee: '0.1', taker_fee: '0.1' },
      after: { maker_fee: '0.02', taker_fee: '0.25' },
    });
    const { rows } = await test.store.query<{ maker_fee_ppm: number; taker_fee_ppm: number }>(
      'select maker_fee_ppm, taker_fee_ppm from markets where id = $1',
      [BTC_USDT],
    );
    expect(rows[0]).toEqual({ maker_fee_ppm: 200, taker_fee_ppm: 2500 });

    const maker = await newUser(test.store);
    const taker = await newUser(test.store);
    await fund(test.app, maker.id, BTC, '1');
    await fund(test.app, taker.id, USDT, '10000');
    await call(
      test.app,
      'POST',
      '/transaction/out',
      { legal_id: USDT, currency_id: BTC, price: '20000', num: '0.1', mode: 2 },
      { token: maker.token },
    );
    await call(
      test.app,
      'POST',
      '/transaction/in',
      { legal_id: USDT, currency_id: BTC, price: '20000', num: '0.1', mode: 2 },
      { token: taker.token },
    );
    // The taker (buyer) pays 0.25 % of the 0.1 BTC received; the maker (seller) 0.02 % of 2000 USDT.
    expect(test.app.engine.ledger.wallets(taker.id, BTC).change.available).toBe(9_975_000n);
    expect(test.app.engine.ledger.wallets(maker.id, USDT).change.available).toBe(1_999_600_000n);
  });

  it('adds a currency and a pair the engine then trades', async () => {
    expectOk(
      await post('/backoffice/currencies/create', {
        id: 40,
        code: 'TST',
        name: 'Test coin',
        scale: 8,
        udun_id: -1,
        withdraw_min: '1',
        withdraw_fee: '0.1',
        descriptions: { en: 'A coin for tests.', zh: '测试币。' },
      }),
    );
    expect(test.app.engine.ledger.currency(40)).toEqual({ currencyId: 40, code: 'TST', scale: 8 });
    expectOk(
      await post('/backoffice/markets/create', {
        id: 40,
        base_currency_id: 40,
        quote_currency_id: USDT,
        price_scale: 4,
        tick_size: '0.0001',
        lot_size: '0.01',
        min_size: '0.1',
        min_notional: '1',
        maker_fee: '0.1',
        taker_fee: '0.2',
      }),
    );
    expect(test.app.engine.spot.market(40)).toMatchObject({
      minimumLots: 10,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
    });
    // The trading calls look a new pair up again at most once a second.
    let deal = await call(test.app, 'POST', '/transaction/deal', { legal_id: USDT, currency_id: 40 });
    for (let attempt = 0; deal.type !== 'ok' && attempt < 20; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      deal = await call(test.app, 'POST', '/transaction/deal', { legal_id: USDT, currency_id: 40 });
    }
    expect(deal).toMatchObject({ type: 'ok', message: { market: { symbol: 'TST/USDT', taker_fee: '0.2' } } });
    const currencies = await get<{
      list: { code: string; in_engine: boolean; descriptions: Record<string, string> }[];
    }>('/backoffice/currencies');
    expect(currencies.list.find((currency) => currency.code === 'TST')).toMatchObject({
      in_engine: true,
      descriptions: { en: 'A coin for tests.', zh: '测试币。' },
    });
    const update = await post('/backoffice/currencies/update', {
      id: 40,
      withdraw_fee: '0.2',
      name: 'Test coin two',
    });
    expect(update.type).toBe('ok');
    expect((await lastAudit('currency.update')).detail).toMatchObject({
      before: { name: 'Test coin', withdraw_fee: '0.10000000' },
      after: { name: 'Test coin two', withdraw_fee: '0.20000000' },
    });
  });

  it('lists the settings and applies one through the same path', async () => {
    const settings = await get<{
      settings: {
        key: string;
        engine: boolean;
        rows: { target_id: number; values: Record<string, unknown> }[];
      }[];
      environment: { variable: string; value: string; value_code?: string }[];
    }>('/backoffice/settings');
    expect(settings.settings.map((setting) => [setting.key, setting.engine])).toEqual([
      ['market.fees', true],
      ['market.display', false],
      ['currency.withdrawal', false],
      ['market.maker', false],
      ['site.links', false],
      ['market.price_band', true],
    ]);
    expect(settings.environment.map((entry) => entry.variable)).toContain('PRICE_SOURCE');
    // Words come with a code the back office translates; names and numbers are shown as they are.
    const byVariable = new Map(settings.environment.map((entry) => [entry.variable, entry]));
    expect(byVariable.get('DATABASE_URL')).toMatchObject({
      value_code: expect.stringMatching(/^(embedded|postgresql)$/),
    });
    // SEED is unset by default (the simulator draws from the operating system): a word, not a number.
    expect(byVariable.get('SEED')?.value_code).toBe('not_set');
    expect(byVariable.get('PRICE_SOURCE')?.value_code).toBeUndefined();
    expectOk(
      await post('/backoffice/settings/apply', {
        key: 'market.fees',
        target_id: 2,
        values: { taker_fee: '0.3' },
      }),
    );
    expect(test.app.engine.spot.market(2)?.takerFeePpm).toBe(3000);
    expectOk(
      await post('/backoffice/settings/apply', {
        key: 'market.display',
        target_id: 2,
        values: { is_display: false },
      }),
    );
    const markets = await get<{ list: { id: number; is_display: boolean }[]; price_source: string }>(
      '/backoffice/markets',
    );
    expect(markets.list.find((market) => market.id === 2)?.is_display).toBe(false);
    expect(markets.price_source).toBe('simulated');
  });
});

describe('market maker settings', () => {
  interface MakerSetting {
    key: string;
    rows: {
      target_id: number;
      target: string;
      values: Record<string, unknown>;
      scales?: Record<string, number>;
    }[];
  }
  const makerRow = async (id: number) => {
    const answer = await get<{ settings: MakerSetting[] }>('/backoffice/settings');
    return answer.settings
      .find((setting) => setting.key === 'market.maker')
      ?.rows.find((row) => row.target_id === id);
  };

  it('shows the values in force per pair, changes them with an audit entry, and refuses bad ones', async () => {
    const before = await makerRow(BTC_USDT);
    expect(before).toMatchObject({
      target: 'BTC/USDT',
      values: {
        enabled: true,
        levels: 10,
        half_spread: '0.05',
        level_step: '0.03',
        level_notional: '2000',
      },
      scales: { level_notional: 6 },
    });
    expectOk(
      await post('/backoffice/settings/apply', {
        key: 'market.maker',
        target_id: BTC_USDT,
        values: { enabled: false, levels: 4, half_spread: '0.1', level_notional: '150.5' },
      }),
    );
    expect((await makerRow(BTC_USDT))?.values).toMatchObject({
      enabled: false,
      levels: 4,
      half_spread: '0.1',
      level_step: '0.03',
      level_notional: '150.5',
    });
    const { rows } = await test.store.query<{ enabled: boolean; levels: number; half_spread_ppm: number }>(
      'select enabled, levels, half_spread_ppm from market_maker_settings where market_id = $1',
      [BTC_USDT],
    );
    expect(rows).toEqual([{ enabled: false, levels: 4, half_spread_ppm: 1000 }]);
    const audit = await lastAudit('market.market_maker');
    expect(audit.target_id).toBe(String(BTC_USDT));
    expect(audit.detail).toMatchObject({
      before: { enabled: true, levels: 10, half_spread: '0.05', level_notional: '2000' },
      after: { enabled: false, levels: 4, half_spread: '0.1', level_notional: '150.5' },
    });

    const refusals: [Record<string, unknown>, string][] = [
      [{ levels: 0 }, 'Levels per side must be a whole number from 1 to 50.'],
      [{ levels: 51 }, 'Levels per side must be a whole number from 1 to 50.'],
      [{ half_spread: '0' }, 'Half spread must be more than 0 and at most 10 %.'],
      [{ level_step: '10.0001' }, 'Step between levels must be more than 0 and at most 10 %.'],
      [{ level_step: '0.00001' }, 'Step between levels allows at most 4 decimal places.'],
      [{ level_notional: '0' }, 'Value of the first level must be greater than zero.'],
      [{ level_notional: '1.0000001' }, 'Value of the first level allows at most 6 decimal places.'],
      [{ level_notional: '1e3' }, 'Value of the first level must be a plain number such as 12.5.'],
      [{ levels: 4 }, 'Nothing was changed.'],
    ];
    for (const [values, message] of refusals) {
      const reply = await post('/backoffice/settings/apply', {
        key: 'market.maker',
        target_id: BTC_USDT,
        values,
      });
      expect(reply, JSON.stringify(values)).toMatchObject({ type: 'error', message });
    }
    const unknownPair = await post('/backoffice/settings/apply', {
      key: 'market.maker',
      target_id: 999,
      values: { enabled: true },
    });
    expect(unknownPair).toMatchObject({ type: 'error' });
    // Nothing of the refused changes was stored.
    expect((await makerRow(BTC_USDT))?.values).toMatchObject({ levels: 4, half_spread: '0.1' });
    expectOk(
      await post('/backoffice/settings/apply', {
        key: 'market.maker',
        target_id: BTC_USDT,
        values: { enabled: true, levels: 10, half_spread: '0.05', level_notional: '2000' },
      }),
    );
  });
});

describe('content', () => {
  it('publishes an item in two languages, sanitised, that the site then serves', async () => {
    const created = expectOk<{ id: number }>(
      await post('/backoffice/news/items/create', {
        category_id: 3,
        is_published: true,
        translations: {
          en: {
            title: 'Maintenance on Sunday',
            abstract: 'Short pause',
            content:
              '<p>We <b>pause</b> deposits.</p><script>alert(1)</script><img src="x" onerror="alert(2)">',
          },
          zh: { title: '周日维护', content: '<p>我们将暂停充值。</p><a href="javascript:alert(3)">点此</a>' },
        },
      }),
    );
    const detail = await get<{ translations: Record<string, { content: string }> }>(
      '/backoffice/news/items/detail',
      { id: created.id },
    );
    expect(detail.translations.en?.content).toMatch(/^<p>We <b>pause<\/b> deposits.<\/p><img[^>]*>$/);
    expect(detail.translations.en?.content).not.toMatch(/script|onerror|alert/);
    expect(detail.translations.zh?.content).toBe('<p>我们将暂停充值。</p><a>点此</a>');
    const listEn = expectOk<{ data: { id: number; title: string }[] }>(
      await call(test.app, 'POST', '/news/list', { c_id: 3 }, { lang: 'en' }),
    );
    expect(listEn.data.find((item) => item.id === created.id)?.title).toBe('Maintenance on Sunday');
    const listZh = expectOk<{ data: { id: number; title: string }[] }>(
      await call(test.app, 'POST', '/news/list', { c_id: 3 }, { lang: 'zh' }),
    );
    expect(listZh.data.find((item) => item.id === created.id)?.title).toBe('周日维护');
    // The back office lists an item under its title in the console's language when it has one.
    for (const [lang, title] of [
      ['zh', '周日维护'],
      ['jp', 'Maintenance on Sunday'],
    ] as const) {
      const items = expectOk<{ data: { id: number; title: string }[] }>(
        await call(test.app, 'GET', '/backoffice/news/items', {}, { token: admin.token, lang }),
      );
      expect(items.data.find((item) => item.id === created.id)?.title).toBe(title);
    }

    expectOk(await post('/backoffice/news/items/publish', { id: created.id, published: false }));
    const hidden = expectOk<{ data: { id: number }[] }>(
      await call(test.app, 'POST', '/news/list', { c_id: 3 }, { lang: 'en' }),
    );
    expect(hidden.data.map((item) => item.id)).not.toContain(created.id);
    expectOk(await post('/backoffice/news/items/delete', { id: created.id }));
    expect(await auditActions(test.store, 'news_item', created.id)).toEqual([
      'news_item.create',
      'news_item.unpublish',
      'news_item.delete',
    ]);
    const creation = await test.store.query<{
      detail: { after: { translations: Record<string, { title: string; content_sha256: string }> } };
    }>(`select detail from audit_log where action = 'news_item.create' and target_id = $1`, [
      String(created.id),
    ]);
    expect(creation.rows[0]?.detail.after.translations.zh?.title).toBe('周日维护');
    expect(creation.rows[0]?.detail.after.translations.zh?.content_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps seeded items (unpublish instead) and renames a category', async () => {
    const items = await get<{ data: { id: number; seeded: boolean }[] }>('/backoffice/news/items', {
      category_id: 30,
    });
    const seeded = items.data.find((item) => item.seeded);
    expect(seeded).toBeDefined();
    expect((await post('/backoffice/news/items/delete', { id: seeded?.id })).message).toBe(
      translate('en', 'backoffice.seeded_item_delete'),
    );
    expectOk(
      await post('/backoffice/news/categories/update', { id: 3, names: { en: 'Announcements', zh: '公告' } }),
    );
    const categories = await get<{ list: { id: number; names: Record<string, string> }[] }>(
      '/backoffice/news/categories',
    );
    expect(categories.list.find((category) => category.id === 3)?.names).toEqual({
      en: 'Announcements',
      zh: '公告',
    });
  });
});

describe('administrators and the audit log', () => {
  it('creates a reviewer, resets their authenticator and disables them, ending their sessions', async () => {
    const reviewer = await newAdmin(test, 'reviewer');
    const admins = await get<{ list: { id: number; second_factor: boolean }[] }>('/backoffice/admins');
    expect(admins.list.find((row) => row.id === reviewer.id)?.second_factor).toBe(true);
    expectOk(await post('/backoffice/admins/reset_second_factor', { id: reviewer.id }));
    expect(
      (await call(test.app, 'GET', '/backoffice/real_name', {}, { token: reviewer.token })).second_factor,
    ).toBe('enrol');
    expectOk(await post('/backoffice/admins/disable', { id: reviewer.id, disabled: true }));
    expect((await call(test.app, 'GET', '/backoffice/session', {}, { token: reviewer.token })).type).toBe(
      '999',
    );
    expect((await post('/backoffice/admins/disable', { id: admin.id, disabled: true })).message).toBe(
      translate('en', 'backoffice.admin_self'),
    );
    const created = expectOk<{ id: number }>(
      await post('/backoffice/admins/create', {
        username: 'night.shift',
        password: 'long-enough-password',
        role: 'reviewer',
      }),
    );
    expect(created.id).toBeGreaterThan(0);
  });

  it('filters the audit log by action prefix, administrator and target', async () => {
    const page = await get<{ data: AuditRow[]; total: number }>('/backoffice/audit', {
      action: 'market.',
      admin: admin.username.toUpperCase(),
    });
    expect(page.total).toBeGreaterThan(0);
    expect(page.data.every((row) => row.action.startsWith('market.') && row.admin === admin.username)).toBe(
      true,
    );
    const byTarget = await get<{ data: AuditRow[] }>('/backoffice/audit', {
      target_type: 'market',
      target_id: '40',
    });
    expect(byTarget.data.map((row) => row.action)).toEqual(['market.create']);
    const none: Reply = await call(
      test.app,
      'GET',
      '/backoffice/audit',
      { admin: 'nobody' },
      { token: admin.token },
    );
    expect(none.message).toMatchObject({ total: 0, data: [] });
  });
});
