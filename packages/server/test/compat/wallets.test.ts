// The wallet calls as a template-era client makes them (form bodies, the raw token, the lang header) and
// the fields it reads: per-currency flags and `usdt_price`, totals under `usdt_totle`, a `legal_wallet`,
// the user's currency list, and transfers by the older `type` 1/2. Money stays exact decimal text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldName, parseDecimal, translate } from '@fairex/shared';
import { removeTempDirs } from '../helper.ts';
import type { TestUser, WalletTestApp } from '../wallets/wallet-helper.ts';
import {
  BTC,
  BTC_MARKET,
  ETH,
  USDT,
  expectLedgerBalanced,
  moneyState,
  newUser,
  setIndexPrice,
  walletApp,
} from '../wallets/wallet-helper.ts';
import { templateCall } from './template-client.ts';

let test: WalletTestApp;
let alice: TestUser;
let bob: TestUser;

type Line = Record<string, unknown> & { currency: number };
interface Group {
  usdt_total: string | null;
  usdt_totle: string | null;
  btc_total: string | null;
  balance: Line[];
}

async function deposit(userId: number, currencyId: number, amount: string, scale: number): Promise<void> {
  const outcome = await test.app.runner.submit({
    type: 'deposit',
    userId,
    currencyId,
    amount: parseDecimal(amount, scale),
  });
  expect(outcome.code).toBe(0);
}

async function templateOk<T>(
  path: string,
  fields: Record<string, string | number>,
  user: TestUser,
  method?: 'GET',
) {
  const reply = await templateCall(test.app, path, fields, {
    token: user.token,
    lang: 'zh',
    ...(method ? { method } : {}),
  });
  expect(reply.type, JSON.stringify(reply)).toBe('ok');
  return reply.message as T;
}

beforeAll(async () => {
  test = await walletApp();
  alice = await newUser(test.store);
  bob = await newUser(test.store);
  // BTC/USDT at 65,000.01; ETH/USDT has no index price yet.
  await setIndexPrice(test.app, BTC_MARKET, 6_500_001);
  await deposit(alice.id, USDT, '1502.5', 6);
  await deposit(alice.id, BTC, '0.25', 8);
  await deposit(alice.id, ETH, '2', 8);
});

afterAll(async () => {
  await test.close();
  await removeTempDirs();
});

describe('wallet/list for template clients', () => {
  it('gives every row its flags and exact USDT price, and every total under usdt_totle too', async () => {
    const overview = await templateOk<Record<string, unknown>>('/wallet/list', {}, alice);
    const change = overview.change_wallet as Group;
    const usdt = change.balance.find((line) => line.currency === USDT);
    const btc = change.balance.find((line) => line.currency === BTC);
    const eth = change.balance.find((line) => line.currency === ETH);
    expect(usdt).toMatchObject({
      change_balance: '1502.500000',
      usdt_price: '1',
      usdt_total: '1502.50000000',
      // Traded on spot markets; the margin of the pairs open to leverage; seconds contracts are not open (this
      // app's reserve is empty); never the fiat wallet's, which Fairex does not have.
      is_match: 1,
      is_legal: 0,
      is_lever: 1,
      is_micro: 0,
    });
    // 0.25 x 65,000.01 = 16,250.0025 exactly.
    expect(btc).toMatchObject({
      change_balance: '0.25000000',
      usdt_price: '65000.01',
      usdt_total: '16250.00250000',
      is_match: 1,
      is_legal: 0,
      is_lever: 0,
      is_micro: 0,
    });
    // No recorded price: nothing is guessed.
    expect(eth).toMatchObject({
      change_balance: '2.00000000',
      usdt_price: null,
      usdt_total: null,
      is_match: 1,
    });
    expect(change.usdt_total).toBe('17752.50250000');
    expect(change.usdt_totle).toBe(change.usdt_total);
    for (const name of ['lever', 'micro', 'ico', 'miner', 'defi']) {
      const group = overview[`${name}_wallet`] as Group;
      expect(group.usdt_totle).toBe(group.usdt_total);
      expect(group.balance.every((line) => typeof line.is_match === 'number' && 'usdt_price' in line)).toBe(
        true,
      );
    }
    expect(overview.usdt_totle).toBe(overview.usdt_total);
    expect(overview.usdt_total).toBe('17752.50250000');
  });

  it('answers a legal (fiat) wallet that holds nothing, because Fairex has none', async () => {
    const overview = await templateOk<Record<string, unknown>>('/wallet/list', {}, alice);
    const legal = overview.legal_wallet as Group;
    expect({ ...legal, balance: undefined }).toEqual({
      balance: undefined,
      usdt_total: '0.00000000',
      usdt_totle: '0.00000000',
      btc_total: '0.00000000',
      priced: true,
    });
    // Every currency at zero, for the transfer page that takes its coins from these lines.
    const change = overview.change_wallet as Group;
    expect(legal.balance.map((line) => line.currency)).toEqual(change.balance.map((line) => line.currency));
    expect(legal.balance.find((line) => line.currency === BTC)).toMatchObject({
      currency_name: 'BTC',
      legal_balance: '0.00000000',
      lock_legal_balance: '0.00000000',
      usdt_total: '0.00000000',
    });
  });
});

describe('currency/user_currency_list', () => {
  it("lists every currency a transfer moves, with the flags and the caller's own balances", async () => {
    const list = await templateOk<Record<string, unknown>[]>(
      '/currency/user_currency_list',
      {},
      alice,
      'GET',
    );
    const currencies = await templateOk<{ id: number }[]>('/wallet/currencylist', {}, alice, 'GET');
    expect(list.map((row) => row.id)).toEqual(currencies.map((row) => row.id));
    const btc = list.find((row) => row.id === BTC);
    expect(btc).toMatchObject({ name: 'BTC', is_match: 1, is_legal: 0, is_lever: 0, is_micro: 0 });
    expect(btc?.wallet).toMatchObject({
      currency: BTC,
      change_balance: '0.25000000',
      lock_change_balance: '0.00000000',
      lever_balance: '0.00000000',
      defi_balance: '0.00000000',
    });
    const bobs = await templateOk<Record<string, unknown>[]>('/currency/user_currency_list', {}, bob, 'GET');
    expect(bobs.find((row) => row.id === BTC)?.wallet).toMatchObject({ change_balance: '0.00000000' });
  });

  it('needs a login', async () => {
    const reply = await templateCall(
      test.app,
      '/currency/user_currency_list',
      {},
      { method: 'GET', lang: 'zh' },
    );
    expect(reply).toEqual({ type: '999', message: translate('zh', 'auth.login_required') });
  });
});

describe('wallet/change with the older type', () => {
  it('moves spot to lever with type 1 and back with type 2', async () => {
    await templateOk('/wallet/change', { type: 1, currency_id: USDT, number: '100.5' }, alice);
    expect(test.app.engine.ledger.balance(alice.id, 'lever', USDT).available).toBe(100_500_000n);
    await templateOk('/wallet/change', { type: 2, currency_id: USDT, number: '40' }, alice);
    expect(test.app.engine.ledger.balance(alice.id, 'lever', USDT).available).toBe(60_500_000n);
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT).available).toBe(1_442_000_000n);
    expectLedgerBalanced(test.app);
  });

  it('refuses any other type, or none, in the request language and moves nothing', async () => {
    const before = moneyState(test.app, [alice.id]);
    const oneOf = translate('kr', 'validation.one_of', { values: '1, 2', field: fieldName('kr', 'type') });
    const required = (field: 'from_field' | 'to_field') =>
      translate('kr', 'validation.required', { field: translate('kr', `field.${field}`) });
    const cases: [Record<string, string | number>, string][] = [
      [{ type: 3, currency_id: USDT, number: '1' }, oneOf],
      [{ type: 'lever', currency_id: USDT, number: '1' }, oneOf],
      [{ currency_id: USDT, number: '1' }, required('from_field')],
      [{ type: 1, from_field: 'change', currency_id: USDT, number: '1' }, required('to_field')],
    ];
    for (const [fields, message] of cases) {
      const reply = await templateCall(test.app, '/wallet/change', fields, {
        token: alice.token,
        lang: 'kr',
      });
      expect(reply, JSON.stringify(fields)).toEqual({ type: 'error', message });
    }
    expect(moneyState(test.app, [alice.id])).toBe(before);
  });

  it('still takes from_field and to_field, which decide when given', async () => {
    await templateOk(
      '/wallet/change',
      { from_field: 'lever', to_field: 'micro', currency_id: USDT, number: '0.5' },
      alice,
    );
    expect(test.app.engine.ledger.balance(alice.id, 'micro', USDT).available).toBe(500_000n);
  });
});
