// Withdrawals and the address book through the routes: real-name and second factor, address checks,
// minimum and fee, the hold, review by an administrator, payout through the sandbox or a stand-in custody
// provider that speaks its protocol, and the provider's completion or failure callbacks.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import { custodySignMatches } from '../../src/wallets/custody/protocol.ts';
import { createUser, loginAs, removeTempDirs } from '../helper.ts';
import { signedInAdmin } from '../helper-admin.ts';
import type { TestUser, WalletTestApp } from './wallet-helper.ts';
import {
  BTC,
  USDT,
  call,
  callback,
  expectLedgerBalanced,
  moneyState,
  newUser,
  ok,
  refused,
  walletApp,
  txHash,
  withdrawCode,
} from './wallet-helper.ts';

const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

let test: WalletTestApp;
let alice: TestUser;
let bob: TestUser;

interface Withdrawal {
  id: number;
  number: string;
  fee: string;
  receive: string;
  address: string;
  chain: string;
  status: string;
  tx_id: string;
}

/** The payload with a fresh withdrawal code of the user: the second factor a session alone cannot give. */
async function coded(user: TestUser, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  return { ...payload, code: await withdrawCode(test.store, user.id) };
}

async function fund(user: TestUser, currency: number, amount: string): Promise<void> {
  await ok(
    test.app,
    '/admin/wallet/deposit',
    { user_id: user.id, currency, amount, note: 'test' },
    test.adminToken,
  );
}

async function latestWithdrawal(user: TestUser): Promise<Withdrawal> {
  const list = await ok<{ data: Withdrawal[] }>(test.app, '/wallet/out_list', { currency: USDT }, user.token);
  return list.data[0] as Withdrawal;
}

function withdrawalTrade(
  withdrawal: Withdrawal,
  status: number,
  amount = '99000000',
): Record<string, unknown> {
  return {
    address: withdrawal.address,
    amount,
    decimals: '6',
    fee: '0',
    mainCoinType: '195',
    coinType: TRON_ADDRESS,
    txId: `payout-${withdrawal.id}-${status}`,
    tradeId: `t-${withdrawal.id}`,
    tradeType: 2,
    status,
    businessId: String(withdrawal.id),
    memo: '',
  };
}

beforeAll(async () => {
  test = await walletApp();
  alice = await newUser(test.store);
  bob = await newUser(test.store);
  await fund(alice, USDT, '1000');
  await fund(bob, USDT, '50');
});

afterAll(async () => {
  await test.close();
  await removeTempDirs();
});

describe('withdrawal page data', () => {
  it('shows balance, fee, minimum and chains', async () => {
    expect(await ok(test.app, '/wallet/get_info', { currency: USDT }, alice.token)).toEqual({
      currency: USDT,
      name: 'USDT',
      scale: 6,
      change_balance: '1000.000000',
      lock_change_balance: '0.000000',
      rate: '1.000000',
      min_number: '10.000000',
      chains: [
        { type: 0, code: 'TRC20', network: 'tron' },
        { type: 1, code: 'ERC20', network: 'ethereum' },
      ],
      totp_required: false,
      second_factor: { method: 'email', destination: expect.stringMatching(/\*\*\*@\*\*\*/) },
      real_name_required: false,
    });
  });

  it('tells the page up front that an unverified user must verify the real name first', async () => {
    for (const status of [0, 1]) {
      const unverified = await newUser(test.store, status);
      expect(
        await ok(test.app, '/wallet/get_info', { currency: USDT }, unverified.token),
        `review_status ${status}`,
      ).toMatchObject({ real_name_required: true });
    }
  });
});

describe('address book', () => {
  it('adds addresses on the chain their format names, checksummed, and lists them', async () => {
    const tron = await ok<{ address: Record<string, unknown> }>(
      test.app,
      '/wallet/addaddress',
      await coded(alice, { currency_id: USDT, address: TRON_ADDRESS, notes: 'cold wallet' }),
      alice.token,
    );
    expect(tron.address).toMatchObject({
      chain_type: 0,
      chain: 'TRC20',
      address: TRON_ADDRESS,
      notes: 'cold wallet',
    });
    const eth = await ok<{ address: Record<string, unknown> }>(
      test.app,
      '/wallet/addaddress',
      await coded(alice, { currency_id: USDT, address: ETH_ADDRESS.toLowerCase() }),
      alice.token,
    );
    expect(eth.address).toMatchObject({ chain_type: 1, chain: 'ERC20', address: ETH_ADDRESS, notes: '' });
    const list = await ok<Record<string, unknown>[]>(
      test.app,
      '/wallet/get_address',
      { currency: USDT },
      alice.token,
    );
    expect(list.map((entry) => entry.address)).toEqual([TRON_ADDRESS, ETH_ADDRESS]);
    expect(await ok(test.app, '/wallet/get_address', { currency: USDT }, bob.token)).toEqual([]);
  });

  it.each([
    ['an address already in the book', { currency_id: USDT, address: TRON_ADDRESS }, 'wallet.address_exists'],
    [
      'a mistyped address',
      { currency_id: USDT, address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' },
      'wallet.address_checksum',
    ],
    ['an address of another coin', { currency_id: USDT, address: BTC_ADDRESS }, 'wallet.address_invalid'],
    [
      'a chain the address is not on',
      { currency_id: USDT, address: ETH_ADDRESS, type: 0 },
      'wallet.address_wrong_chain',
    ],
    ['an unknown currency', { currency_id: 999, address: TRON_ADDRESS }, 'wallet.currency_unknown'],
    ['no address', { currency_id: USDT }, undefined],
    ['an over-long note', { currency_id: USDT, address: TRON_ADDRESS, notes: 'x'.repeat(65) }, undefined],
  ] as const)('refuses %s', async (_name, payload, key) => {
    const message = await refused(test.app, '/wallet/addaddress', await coded(alice, payload), alice.token);
    if (key !== undefined)
      expect(message).toContain(translate('en', key, { chain: 'TRC20', other: 'ERC20' }).slice(0, 12));
  });

  it("does not delete another user's address", async () => {
    const [entry] = await ok<{ id: number }[]>(
      test.app,
      '/wallet/get_address',
      { currency: USDT },
      alice.token,
    );
    expect(await refused(test.app, '/wallet/deladdress', { address_id: entry?.id }, bob.token)).toBe(
      translate('en', 'wallet.address_not_found'),
    );
    expect(
      await ok<unknown[]>(test.app, '/wallet/get_address', { currency: USDT }, alice.token),
    ).toHaveLength(2);
  });

  it('deletes its own address', async () => {
    const added = await ok<{ address: { id: number } }>(
      test.app,
      '/wallet/addaddress',
      await coded(alice, { currency_id: BTC, address: BTC_ADDRESS }),
      alice.token,
    );
    expect(await ok(test.app, '/wallet/deladdress', { address_id: added.address.id }, alice.token)).toBe(
      translate('en', 'wallet.address_deleted'),
    );
    expect(await ok(test.app, '/wallet/get_address', { currency: BTC }, alice.token)).toEqual([]);
  });
});

describe('withdrawal requests', () => {
  it('asks for real-name verification first (998)', async () => {
    const unverified = await newUser(test.store, 1);
    const reply = await call(
      test.app,
      '/wallet/out',
      { currency: USDT, number: '20', address: TRON_ADDRESS },
      unverified.token,
    );
    expect(reply.type).toBe('998');
  });

  it.each([
    [
      'less than the minimum',
      { number: '9.99', address: TRON_ADDRESS },
      translate('en', 'wallet.amount_too_small', { min: '10', currency: 'USDT' }),
    ],
    [
      'a negative amount',
      { number: '-20', address: TRON_ADDRESS },
      translate('en', 'validation.decimal_negative', { field: 'Quantity' }),
    ],
    [
      'more decimals than USDT has',
      { number: '20.0000001', address: TRON_ADDRESS },
      translate('en', 'validation.decimal_scale', { field: 'Quantity', scale: 6 }),
    ],
    [
      'more than the balance',
      { number: '1000.000001', address: TRON_ADDRESS },
      translate('en', 'wallet.insufficient_balance'),
    ],
    [
      'an invalid address',
      { number: '20', address: 'not-an-address' },
      translate('en', 'wallet.address_invalid', { chain: 'TRC20' }),
    ],
    [
      'a mistyped address',
      { number: '20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' },
      translate('en', 'wallet.address_checksum', { chain: 'TRC20' }),
    ],
    [
      'an address of the other chain',
      { number: '20', address: ETH_ADDRESS, type: 0 },
      translate('en', 'wallet.address_wrong_chain', { chain: 'TRC20', other: 'ERC20' }),
    ],
    [
      'a Bitcoin address for USDT',
      { number: '20', address: BTC_ADDRESS, type: 1 },
      translate('en', 'wallet.address_invalid', { chain: 'ERC20' }),
    ],
    [
      'a chain USDT does not have',
      { number: '20', address: TRON_ADDRESS, type: 5 },
      translate('en', 'wallet.chain_unavailable'),
    ],
    ['no address at all', { number: '20' }, undefined],
    [
      'an unknown currency',
      { currency: 999, number: '20', address: TRON_ADDRESS },
      translate('en', 'wallet.currency_unknown'),
    ],
  ] as const)('refuses %s with no change', async (_name, payload, expected) => {
    const before = moneyState(test.app);
    const message = await refused(test.app, '/wallet/out', { currency: USDT, ...payload }, alice.token);
    if (expected !== undefined) expect(message).toBe(expected);
    expect(moneyState(test.app)).toBe(before);
    const { rows } = await test.store.query('select 1 from withdrawals');
    expect(rows).toHaveLength(0);
  });

  it("refuses another user's address book entry", async () => {
    const [entry] = await ok<{ id: number }[]>(
      test.app,
      '/wallet/get_address',
      { currency: USDT },
      alice.token,
    );
    const before = moneyState(test.app);
    expect(
      await refused(
        test.app,
        '/wallet/out',
        { currency: USDT, number: '20', address_id: entry?.id },
        bob.token,
      ),
    ).toBe(translate('en', 'wallet.address_not_found'));
    expect(moneyState(test.app)).toBe(before);
  });

  it('holds the amount, fee included, until a decision', async () => {
    const [entry] = await ok<{ id: number }[]>(
      test.app,
      '/wallet/get_address',
      { currency: USDT },
      alice.token,
    );
    expect(
      await ok(
        test.app,
        '/wallet/out',
        await coded(alice, { currency: USDT, number: '100', address_id: entry?.id }),
        alice.token,
      ),
    ).toBe(translate('en', 'wallet.withdrawal_requested'));
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT)).toEqual({
      available: 900_000_000n,
      locked: 100_000_000n,
    });
    expect(await latestWithdrawal(alice)).toMatchObject({
      number: '100.000000',
      fee: '1.000000',
      receive: '99.000000',
      address: TRON_ADDRESS,
      chain: 'TRC20',
      status: 'pending',
    });
    expectLedgerBalanced(test.app);
  });
});

describe('review and payout', () => {
  it('keeps the administrator calls to administrators', async () => {
    expect((await call(test.app, '/admin/wallet/withdrawals', {}, undefined, 'GET')).type).toBe('999');
    expect((await call(test.app, '/admin/wallet/withdrawals', {}, alice.token, 'GET')).type).toBe('999');
    expect((await call(test.app, '/admin/wallet/withdrawal/approve', { id: 1 }, alice.token)).type).toBe(
      '999',
    );
  });

  it('approves through the sandbox and completes on the confirmed callback, once', async () => {
    const withdrawal = await latestWithdrawal(alice);
    const queue = await ok<{ data: { id: number; user_id: number; status: string }[] }>(
      test.app,
      '/admin/wallet/withdrawals',
      { status: 'pending' },
      test.adminToken,
      'GET',
    );
    expect(queue.data).toEqual([
      expect.objectContaining({ id: withdrawal.id, user_id: alice.id, status: 'pending' }),
    ]);
    const approved = await ok<{ status: string; payout_error: string }>(
      test.app,
      '/admin/wallet/withdrawal/approve',
      { id: withdrawal.id },
      test.adminToken,
    );
    expect(approved).toMatchObject({ status: 'approved', payout_error: '' });
    expect(
      await refused(test.app, '/admin/wallet/withdrawal/approve', { id: withdrawal.id }, test.adminToken),
    ).toBe(translate('en', 'wallet.withdrawal_decided'));
    // Still held while the chain has not confirmed.
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT).locked).toBe(100_000_000n);

    expect(await callback(test.app, withdrawalTrade(withdrawal, 1))).toBe('success');
    expect((await latestWithdrawal(alice)).status).toBe('approved');
    expect(await callback(test.app, withdrawalTrade(withdrawal, 3))).toBe('success');
    expect(await latestWithdrawal(alice)).toMatchObject({
      status: 'completed',
      tx_id: `payout-${withdrawal.id}-3`,
    });
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT)).toEqual({
      available: 900_000_000n,
      locked: 0n,
    });
    expect(test.app.engine.ledger.balance('fees', 'change', USDT).available).toBe(1_000_000n);
    // The repeat changes nothing and is acknowledged.
    const before = moneyState(test.app);
    expect(await callback(test.app, withdrawalTrade(withdrawal, 3))).toBe('success');
    expect(moneyState(test.app)).toBe(before);
    const audit = await test.store.query<{ action: string }>(
      `select action from audit_log where target_type = 'withdrawal' and target_id = $1`,
      [String(withdrawal.id)],
    );
    expect(audit.rows.map((row) => row.action)).toEqual(['wallet.withdrawal_approve']);
    expectLedgerBalanced(test.app);
  });

  it('returns the whole amount when an administrator rejects', async () => {
    await ok(
      test.app,
      '/wallet/out',
      await coded(alice, { currency: USDT, number: '30', address: TRON_ADDRESS }),
      alice.token,
    );
    const withdrawal = await latestWithdrawal(alice);
    await ok(
      test.app,
      '/admin/wallet/withdrawal/reject',
      { id: withdrawal.id, reason: 'address under review' },
      test.adminToken,
    );
    expect(await latestWithdrawal(alice)).toMatchObject({ status: 'rejected' });
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT)).toEqual({
      available: 900_000_000n,
      locked: 0n,
    });
    // A completion report for a rejected withdrawal is refused and moves nothing.
    const before = moneyState(test.app);
    expect(await callback(test.app, withdrawalTrade(withdrawal, 3, '29000000'))).toBe('error');
    expect(moneyState(test.app)).toBe(before);
    expectLedgerBalanced(test.app);
  });

  it('returns the amount when the chain reports a failure', async () => {
    await ok(
      test.app,
      '/wallet/out',
      await coded(alice, { currency: USDT, number: '40', address: TRON_ADDRESS }),
      alice.token,
    );
    const withdrawal = await latestWithdrawal(alice);
    await ok(test.app, '/admin/wallet/withdrawal/approve', { id: withdrawal.id }, test.adminToken);
    const before = moneyState(test.app);
    expect(await callback(test.app, withdrawalTrade(withdrawal, 3, '40000000'))).toBe('error');
    expect(
      await callback(test.app, { ...withdrawalTrade(withdrawal, 3, '39000000'), address: ETH_ADDRESS }),
    ).toBe('error');
    expect(moneyState(test.app)).toBe(before);
    expect(await callback(test.app, withdrawalTrade(withdrawal, 4, '39000000'))).toBe('success');
    expect(await latestWithdrawal(alice)).toMatchObject({ status: 'failed' });
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT)).toEqual({
      available: 900_000_000n,
      locked: 0n,
    });
    expectLedgerBalanced(test.app);
  });

  it('refuses a completion report for a withdrawal nobody approved', async () => {
    await ok(
      test.app,
      '/wallet/out',
      await coded(alice, { currency: USDT, number: '25', address: TRON_ADDRESS }),
      alice.token,
    );
    const withdrawal = await latestWithdrawal(alice);
    const before = moneyState(test.app);
    expect(await callback(test.app, withdrawalTrade(withdrawal, 3, '24000000'))).toBe('error');
    expect(
      await callback(test.app, { ...withdrawalTrade(withdrawal, 3, '24000000'), businessId: '999999' }),
    ).toBe('error');
    expect(moneyState(test.app)).toBe(before);
    // The sandbox's confirmation needs an approval first, too.
    expect(
      await refused(
        test.app,
        '/admin/wallet/withdrawal/confirm',
        { id: withdrawal.id, tx_id: 'x' },
        test.adminToken,
      ),
    ).toBe(translate('en', 'wallet.withdrawal_decided'));
    await ok(test.app, '/admin/wallet/withdrawal/approve', { id: withdrawal.id }, test.adminToken);
    await ok(
      test.app,
      '/admin/wallet/withdrawal/confirm',
      { id: withdrawal.id, tx_id: 'sandbox-tx-1' },
      test.adminToken,
    );
    // A sandbox payout has no real transaction, so no explorer link.
    expect(await latestWithdrawal(alice)).toMatchObject({
      status: 'completed',
      tx_id: 'sandbox-tx-1',
      explorer_url: null,
    });
    expectLedgerBalanced(test.app);
  });

  it('lets one of 100 simultaneous withdrawals with one code through: a code counts once', async () => {
    const carol = await newUser(test.store);
    await fund(carol, USDT, '1000');
    const payload = await coded(carol, { currency: USDT, number: '15', address: TRON_ADDRESS });
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => call(test.app, '/wallet/out', payload, carol.token)),
    );
    expect(replies.filter((reply) => reply.type === 'ok')).toHaveLength(1);
    expect(replies.filter((reply) => reply.type === 'error')).toHaveLength(99);
    expect(test.app.engine.ledger.balance(carol.id, 'change', USDT)).toEqual({
      available: 985_000_000n,
      locked: 15_000_000n,
    });
    const { rows } = await test.store.query(`select 1 from withdrawals where user_id = $1`, [carol.id]);
    expect(rows).toHaveLength(1);
    expectLedgerBalanced(test.app);
  });

  it('holds no more than the balance when withdrawals race (each with its own code, one after another)', async () => {
    const erin = await newUser(test.store);
    await fund(erin, USDT, '40');
    const first = await call(
      test.app,
      '/wallet/out',
      await coded(erin, { currency: USDT, number: '30', address: TRON_ADDRESS }),
      erin.token,
    );
    expect(first.type).toBe('ok');
    const second = await call(
      test.app,
      '/wallet/out',
      await coded(erin, { currency: USDT, number: '30', address: TRON_ADDRESS }),
      erin.token,
    );
    expect(second).toEqual({ type: 'error', message: translate('en', 'wallet.insufficient_balance') });
    expect(test.app.engine.ledger.balance(erin.id, 'change', USDT)).toEqual({
      available: 10_000_000n,
      locked: 30_000_000n,
    });
  });
});

describe('second factor', () => {
  it('asks for the authenticator code when the user turned it on', async () => {
    const dave = await newUser(test.store);
    await fund(dave, USDT, '100');
    const secret = new Secret({ size: 20 }).base32;
    await test.store.query('update users set totp_secret = $2 where id = $1', [dave.id, secret]);
    const info = await ok<{ totp_required: boolean }>(
      test.app,
      '/wallet/get_info',
      { currency: USDT },
      dave.token,
    );
    expect(info.totp_required).toBe(true);
    const payload = { currency: USDT, number: '20', address: TRON_ADDRESS };
    expect(await refused(test.app, '/wallet/out', payload, dave.token)).toBe(
      translate('en', 'totp.required'),
    );
    expect(await refused(test.app, '/wallet/out', { ...payload, totp_code: '000000' }, dave.token)).toBe(
      translate('en', 'totp.wrong'),
    );
    expect(test.app.engine.ledger.balance(dave.id, 'change', USDT).locked).toBe(0n);
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    await ok(test.app, '/wallet/out', { ...payload, totp_code: code }, dave.token);
    expect(test.app.engine.ledger.balance(dave.id, 'change', USDT).locked).toBe(20_000_000n);
    // The same code does not work twice.
    expect(await refused(test.app, '/wallet/out', { ...payload, totp_code: code }, dave.token)).toBe(
      translate('en', 'totp.wrong'),
    );
    // The account centre says the authenticator protects it, and no e-mail code is sent instead.
    expect(await ok(test.app, '/wallet/protection', {}, dave.token)).toEqual({
      method: 'totp',
      destination: null,
    });
    expect(await refused(test.app, '/wallet/security_code', {}, dave.token)).toBe(
      translate('en', 'wallet.use_authenticator'),
    );
    // An address needs the authenticator's code too.
    expect(
      await refused(test.app, '/wallet/addaddress', { currency_id: USDT, address: TRON_ADDRESS }, dave.token),
    ).toBe(translate('en', 'totp.required'));
  });

  it('without an authenticator, a session alone can neither add an address nor withdraw: an e-mailed code is needed', async () => {
    const frank = await newUser(test.store);
    await fund(frank, USDT, '100');
    const protection = await ok<{ method: string; destination: string }>(
      test.app,
      '/wallet/protection',
      {},
      frank.token,
    );
    expect(protection.method).toBe('email');
    expect(protection.destination).toMatch(/^.{1,2}\*\*\*@\*\*\*\.[a-z]+$/);
    const info = await ok<{ second_factor: unknown }>(
      test.app,
      '/wallet/get_info',
      { currency: USDT },
      frank.token,
    );
    expect(info.second_factor).toEqual(protection);

    const before = moneyState(test.app);
    const address = { currency_id: USDT, address: TRON_ADDRESS };
    expect(await refused(test.app, '/wallet/addaddress', address, frank.token)).toBe(
      translate('en', 'wallet.code_required_email'),
    );
    const withdrawal = { currency: USDT, number: '20', address: TRON_ADDRESS };
    expect(await refused(test.app, '/wallet/out', withdrawal, frank.token)).toBe(
      translate('en', 'wallet.code_required_email'),
    );
    expect(await refused(test.app, '/wallet/out', { ...withdrawal, code: '000000' }, frank.token)).toBe(
      translate('en', 'code.not_sent'),
    );
    expect(moneyState(test.app)).toBe(before);
    expect(await ok(test.app, '/wallet/get_address', { currency: USDT }, frank.token)).toEqual([]);

    // The code goes to the account's e-mail (the dev outbox here), and works once.
    const sent = await call(test.app, '/wallet/security_code', {}, frank.token);
    expect(sent).toMatchObject({ type: 'ok', method: 'email', destination: protection.destination });
    const { rows } = await test.store.query<{ body: string }>(
      `select body from outbound_messages where recipient = (select email from users where id = $1)
        order by id desc limit 1`,
      [frank.id],
    );
    const code = /\b(\d{6})\b/.exec(rows[0]?.body ?? '')?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '000001' : '000000';
    expect(await refused(test.app, '/wallet/addaddress', { ...address, code: wrong }, frank.token)).toBe(
      translate('en', 'code.wrong', { left: 4 }),
    );
    await ok(test.app, '/wallet/addaddress', { ...address, code }, frank.token);
    expect(await refused(test.app, '/wallet/out', { ...withdrawal, code }, frank.token)).toBe(
      translate('en', 'code.used'),
    );
    await ok(test.app, '/wallet/out', await coded(frank, withdrawal), frank.token);
    expect(test.app.engine.ledger.balance(frank.id, 'change', USDT).locked).toBe(20_000_000n);
  });
});

describe('manual credits', () => {
  it('credits by hand in the sandbox through the same ledger path, audited', async () => {
    const erin = await newUser(test.store);
    const before = test.app.engine.ledger.balance('outside', 'change', BTC).available;
    const reply = await ok<{ deposit_id: number }>(
      test.app,
      '/admin/wallet/deposit',
      { user_id: erin.id, currency: BTC, amount: '0.5', note: 'bank wire 42' },
      test.adminToken,
    );
    expect(test.app.engine.ledger.balance(erin.id, 'change', BTC).available).toBe(50_000_000n);
    expect(test.app.engine.ledger.balance('outside', 'change', BTC).available).toBe(before - 50_000_000n);
    const audit = await test.store.query<{ detail: Record<string, unknown> }>(
      `select detail from audit_log where action = 'wallet.manual_deposit' and target_id = $1`,
      [String(reply.deposit_id)],
    );
    expect(audit.rows[0]?.detail).toMatchObject({ user_id: erin.id, currency: 'BTC', amount: '0.50000000' });
    const log = await test.store.query<{ reason: number; memo: string }>(
      `select reason, memo from account_log where owner_key = $1`,
      [erin.id],
    );
    expect(log.rows).toEqual([{ reason: 100, memo: `deposit:${reply.deposit_id}` }]);
  });

  it.each([
    ['an unknown user', { user_id: 99999, currency: BTC, amount: '1', note: 'x' }, 'wallet.user_unknown'],
    ['a negative amount', { user_id: 1, currency: BTC, amount: '-1', note: 'x' }, undefined],
    ['an unknown currency', { user_id: 1, currency: 999, amount: '1', note: 'x' }, 'wallet.currency_unknown'],
  ] as const)('refuses %s', async (_name, payload, key) => {
    const before = moneyState(test.app);
    const message = await refused(test.app, '/admin/wallet/deposit', payload, test.adminToken);
    if (key !== undefined) expect(message).toBe(translate('en', key));
    expect(moneyState(test.app)).toBe(before);
  });

  it('refuses reviewers', async () => {
    const token = await signedInAdmin(test.app, test.store, {
      username: 'reviewer',
      role: 'reviewer',
      ip: null,
    });
    expect(
      await refused(
        test.app,
        '/admin/wallet/deposit',
        { user_id: alice.id, currency: BTC, amount: '1', note: 'x' },
        token,
      ),
    ).toBe(translate('en', 'admin.forbidden'));
  });

  it('reports every currency summing to zero', async () => {
    const ledger = await ok<{ list: { currency_name: string; sum: string }[] }>(
      test.app,
      '/admin/wallet/ledger',
      {},
      test.adminToken,
      'GET',
    );
    expect(ledger.list.every((row) => /^0\.?0*$/.test(row.sum))).toBe(true);
  });
});

describe('payouts through a custody provider', () => {
  it('sends the approved payout signed to the provider and keeps a refusal pending', async () => {
    const received: { body: Record<string, string> }[] = [];
    let answer: Record<string, unknown> = { code: 200, message: 'ok', data: {} };
    const provider = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        received.push({ body: JSON.parse(text) as Record<string, string> });
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const port = (provider.address() as AddressInfo).port;
    const custody = await walletApp({
      CUSTODY_API_URL: `http://127.0.0.1:${port}/gateway`,
      CUSTODY_MERCHANT_ID: '300123',
      CUSTODY_CALLBACK_URL: 'https://exchange.example/api/custody/callback',
    });
    try {
      const userId = await createUser(custody.store, { reviewStatus: 2 });
      const token = await loginAs(custody.store, userId);
      // Manual credits are for the sandbox only: fund through a custody deposit instead.
      expect(
        await refused(
          custody.app,
          '/admin/wallet/deposit',
          { user_id: userId, currency: USDT, amount: '1', note: 'x' },
          custody.adminToken,
        ),
      ).toBe(translate('en', 'wallet.sandbox_only'));
      const view = await ok<{ address: string }>(
        custody.app,
        '/wallet/get_in_address',
        { currency: USDT },
        token,
      );
      await callback(custody.app, {
        address: view.address,
        amount: '500000000',
        decimals: '6',
        mainCoinType: '195',
        coinType: TRON_ADDRESS,
        txId: txHash('custody-deposit-1'),
        tradeType: 1,
        status: 3,
      });
      await ok(
        custody.app,
        '/wallet/out',
        {
          currency: USDT,
          number: '120.5',
          address: TRON_ADDRESS,
          code: await withdrawCode(custody.store, userId),
        },
        token,
      );
      const list = await ok<{ data: Withdrawal[] }>(custody.app, '/wallet/out_list', {}, token);
      const withdrawal = list.data[0] as Withdrawal;

      answer = { code: 500, message: 'insufficient hot wallet balance' };
      expect(
        await refused(
          custody.app,
          '/admin/wallet/withdrawal/approve',
          { id: withdrawal.id },
          custody.adminToken,
        ),
      ).toBe(translate('en', 'wallet.payout_refused', { reason: '500: insufficient hot wallet balance' }));
      expect(
        (await ok<{ data: Withdrawal[] }>(custody.app, '/wallet/out_list', {}, token)).data[0]?.status,
      ).toBe('pending');

      answer = { code: 200, message: 'ok', data: {} };
      await ok(custody.app, '/admin/wallet/withdrawal/approve', { id: withdrawal.id }, custody.adminToken);
      expect(received).toHaveLength(2);
      const sent = received[1]?.body as Record<string, string>;
      expect(
        custodySignMatches(
          sent.sign ?? '',
          sent.body ?? '',
          'test-custody-key-0123',
          sent.nonce ?? '',
          sent.timestamp ?? '',
        ),
      ).toBe(true);
      expect(JSON.parse(sent.body ?? '[]')).toEqual([
        {
          address: TRON_ADDRESS,
          amount: '119.5',
          merchantId: '300123',
          mainCoinType: '195',
          coinType: TRON_ADDRESS,
          callUrl: 'https://exchange.example/api/custody/callback',
          businessId: String(withdrawal.id),
          memo: '',
        },
      ]);
      expect(await callback(custody.app, { ...withdrawalTrade(withdrawal, 3, '119500000') })).toBe('success');
      expect(custody.app.engine.ledger.balance(userId, 'change', USDT)).toEqual({
        available: 379_500_000n,
        locked: 0n,
      });
      expectLedgerBalanced(custody.app);
    } finally {
      await custody.close();
      await new Promise<void>((resolve) => provider.close(() => resolve()));
    }
  });
});
