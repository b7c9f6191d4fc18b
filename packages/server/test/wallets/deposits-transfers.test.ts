// Deposits through the custody callback, transfers between wallets, the assets overview and the account
// ledger, through app.inject() on PGlite (or PostgreSQL with DATABASE_URL). Every refusal is translated and
// leaves the ledger exactly as it was; after every flow each currency sums to zero.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import type { Network } from '../../src/wallets/chains/addresses.ts';
import { checkAddress } from '../../src/wallets/chains/addresses.ts';
import { removeTempDirs } from '../helper.ts';
import type { TestUser, WalletTestApp } from './wallet-helper.ts';
import {
  BTC,
  BTC_MARKET,
  USDT,
  call,
  callback,
  depositTrade,
  expectLedgerBalanced,
  moneyState,
  newUser,
  ok,
  refused,
  setIndexPrice,
  txHash,
  walletApp,
} from './wallet-helper.ts';

const USDT_TRC20 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

let test: WalletTestApp;
let alice: TestUser;
let bob: TestUser;
let aliceTron: string;
let aliceBitcoin: string;

beforeAll(async () => {
  test = await walletApp();
  alice = await newUser(test.store);
  bob = await newUser(test.store);
  await setIndexPrice(test.app, BTC_MARKET, 6_500_000);
});

afterAll(async () => {
  await test.close();
  await removeTempDirs();
});

interface WalletGroup {
  usdt_total: string | null;
  btc_total: string | null;
  balance: ({ currency: number } & Record<string, unknown>)[];
}

type Overview = Record<'change_wallet' | 'lever_wallet', WalletGroup> & {
  usdt_total: string | null;
  btc_total: string | null;
  priced: boolean;
};

interface AddressReply {
  currency: { id: number; name: string };
  address: string;
  type: number;
  chain: string;
  chains: { type: number; code: string }[];
  development: boolean;
}

describe('deposit addresses', () => {
  it('gives a real address per user, currency and chain, the same every time', async () => {
    const trc20 = await ok<AddressReply>(
      test.app,
      '/wallet/get_in_address',
      { currency: USDT, type: 0 },
      alice.token,
    );
    expect(trc20).toMatchObject({ currency: { id: USDT, name: 'USDT' }, chain: 'TRC20', development: true });
    expect(trc20.chains).toEqual([
      { type: 0, code: 'TRC20' },
      { type: 1, code: 'ERC20' },
    ]);
    expect(checkAddress('tron', trc20.address)).toEqual({ ok: true, address: trc20.address });
    aliceTron = trc20.address;

    const erc20 = await ok<AddressReply>(
      test.app,
      '/wallet/get_in_address',
      { currency: USDT, type: 1 },
      alice.token,
    );
    expect(erc20.chain).toBe('ERC20');
    expect(checkAddress('ethereum', erc20.address)).toEqual({ ok: true, address: erc20.address });

    const bitcoin = await ok<AddressReply>(
      test.app,
      '/wallet/get_in_address',
      { currency: BTC },
      alice.token,
    );
    expect(bitcoin.address).toMatch(/^bc1q/);
    aliceBitcoin = bitcoin.address;

    const again = await ok<AddressReply>(
      test.app,
      '/wallet/get_in_address',
      { currency: USDT, type: 0 },
      alice.token,
    );
    expect(again.address).toBe(aliceTron);
    const bobs = await ok<AddressReply>(
      test.app,
      '/wallet/get_in_address',
      { currency: USDT, type: 0 },
      bob.token,
    );
    expect(bobs.address).not.toBe(aliceTron);
  });

  it.each([
    ['an unknown currency', { currency: 999 }, 'wallet.currency_unknown'],
    ['a chain the currency lacks', { currency: BTC, type: 1 }, 'wallet.chain_unavailable'],
    ['no currency', {}, undefined],
  ] as const)('refuses %s', async (_name, payload, key) => {
    const message = await refused(test.app, '/wallet/get_in_address', payload, alice.token);
    if (key !== undefined) expect(message).toBe(translate('en', key));
  });

  it('asks visitors to log in', async () => {
    expect((await call(test.app, '/wallet/get_in_address', { currency: USDT })).type).toBe('999');
  });
});

describe('custody callbacks', () => {
  const usdtDeposit = (txId: string, amount = '1500000000') =>
    depositTrade({
      address: aliceTron,
      amount,
      decimals: 6,
      mainCoinType: '195',
      coinType: USDT_TRC20,
      txId: txHash(txId),
    });

  it('credits a confirmed deposit once, however often it is repeated', async () => {
    expect(await callback(test.app, usdtDeposit('tx-1'))).toBe('success');
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT)).toEqual({
      available: 1_500_000_000n,
      locked: 0n,
    });
    // The provider repeats (it did not hear our answer), later and with a new nonce: still once.
    expect(await callback(test.app, usdtDeposit('tx-1'))).toBe('success');
    expect(await callback(test.app, usdtDeposit('tx-1'), { timestampMs: Date.now() + 1000 })).toBe('success');
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT).available).toBe(1_500_000_000n);
    const { rows } = await test.store.query<{ outcome: string }>(
      `select outcome from custody_callbacks where tx_id = $1 order by id`,
      [txHash('tx-1')],
    );
    expect(rows.map((row) => row.outcome)).toEqual(['credited', 'duplicate', 'duplicate']);
    expectLedgerBalanced(test.app);
    // The administrator's log shows them, newest first (ids of a bigint column travel as text).
    const log = await ok<{ data: { id: string; outcome: string; tx_id: string | null }[] }>(
      test.app,
      '/admin/wallet/callbacks',
      {},
      test.adminToken,
      'GET',
    );
    const mine = log.data.filter((line) => line.tx_id === txHash('tx-1'));
    expect(mine.map((line) => line.outcome)).toEqual(['duplicate', 'duplicate', 'credited']);
    expect(typeof mine[0]?.id).toBe('string');
  });

  it('credits a Bitcoin deposit and converts its decimals', async () => {
    const trade = depositTrade({
      address: aliceBitcoin,
      amount: '25000000',
      decimals: 8,
      mainCoinType: '0',
      coinType: '0',
      txId: txHash('btc-tx-1'),
    });
    expect(await callback(test.app, trade)).toBe('success');
    expect(test.app.engine.ledger.balance(alice.id, 'change', BTC).available).toBe(25_000_000n);
  });

  it('notes an unconfirmed deposit and credits it when it is confirmed', async () => {
    const before = moneyState(test.app);
    expect(await callback(test.app, { ...usdtDeposit('tx-2', '2000000'), status: 0 })).toBe('success');
    expect(moneyState(test.app)).toBe(before);
    expect(await callback(test.app, usdtDeposit('tx-2', '2000000'))).toBe('success');
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT).available).toBe(1_502_000_000n);
  });

  it.each([
    ['a forged signature', { key: 'not-the-key-0000' }, usdtDepositFor('forged-1')],
    ['a made-up sign', { sign: 'a'.repeat(32) }, usdtDepositFor('forged-2')],
    ['an old timestamp (replayed)', { timestampMs: Date.now() - 3_600_000 }, usdtDepositFor('old-1')],
    ['a timestamp from the future', { timestampMs: Date.now() + 3_600_000 }, usdtDepositFor('future-1')],
    [
      'an unknown address',
      {},
      { ...usdtDepositFor('unknown-1'), address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' },
    ],
    [
      'an address of another network',
      {},
      { ...usdtDepositFor('other-1'), address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    ],
    ['an unknown coin', {}, { ...usdtDepositFor('coin-1'), coinType: 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj' }],
    ['a negative amount', {}, usdtDepositFor('negative-1', '-5')],
    ['a body that is not JSON', {}, undefined],
  ] as const)('credits nothing for %s and answers error', async (_name, options, trade) => {
    const before = moneyState(test.app);
    let reply: string;
    if (trade === undefined) {
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/custody/callback',
        payload: 'timestamp=1&nonce=2&sign=3&body=%7B',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      reply = response.body;
    } else {
      reply = await callback(test.app, trade, options);
    }
    expect(reply).toBe('error');
    expect(moneyState(test.app)).toBe(before);
  });

  it('answers error to a request without the four fields', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/custody/callback',
      payload: { nothing: 'here' },
    });
    expect(response.body).toBe('error');
  });

  it('answers error, not a server error, to fields holding a NUL character', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/custody/callback',
      payload: { timestamp: '1', nonce: 'a\u0000b', sign: 'x', body: '{}' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('error');
  });

  it('credits a transaction id once on every chain, whatever its letter case or 0x', async () => {
    const { rows: chains } = await test.store.query<{
      currency_id: number;
      chain_type: number;
      network: Network;
      main_coin_type: number;
      coin_type: string;
      chain_decimals: number;
    }>(
      `select currency_id, chain_type, network, main_coin_type, coin_type, chain_decimals
         from wallet_chains order by currency_id, chain_type`,
    );
    const networks = new Set(chains.map((chain) => chain.network));
    expect([...networks].sort()).toEqual(['bitcoin', 'dogecoin', 'ethereum', 'litecoin', 'tron', 'xrpl']);
    const user = await newUser(test.store);
    for (const chain of chains) {
      const view = await ok<AddressReply>(
        test.app,
        '/wallet/get_in_address',
        { currency: chain.currency_id, type: chain.chain_type },
        user.token,
      );
      const digits = txHash(`${chain.currency_id}-${chain.chain_type}`);
      const canonical =
        chain.network === 'ethereum'
          ? `0x${digits}`
          : chain.network === 'xrpl'
            ? digits.toUpperCase()
            : digits;
      const spellings = [canonical, canonical.toUpperCase(), canonical.toLowerCase()];
      if (chain.network === 'ethereum') spellings.push(digits, `0X${digits.toUpperCase()}`);
      if (chain.network === 'tron') spellings.push(`0x${digits}`);
      const trade = (txId: string) =>
        depositTrade({
          address: view.address,
          amount: '1'.padEnd(chain.chain_decimals + 1, '0'),
          decimals: chain.chain_decimals,
          mainCoinType: String(chain.main_coin_type),
          coinType: chain.coin_type,
          txId,
        });
      const what = `${chain.network} ${chain.coin_type}`;
      for (const spelling of spellings)
        expect(await callback(test.app, trade(spelling)), what).toBe('success');
      const balance = test.app.engine.ledger.balance(user.id, 'change', chain.currency_id).available;
      const { rows } = await test.store.query<{ tx_id: string }>(
        'select tx_id from deposits where user_id = $1 and currency_id = $2 and chain_type = $3',
        [user.id, chain.currency_id, chain.chain_type],
      );
      expect(rows, what).toEqual([{ tx_id: canonical }]);
      const { rows: outcomes } = await test.store.query<{ outcome: string }>(
        `select outcome from custody_callbacks where lower(tx_id) like '%' || $1 order by id`,
        [digits],
      );
      expect(
        outcomes.map((row) => row.outcome),
        what,
      ).toEqual(['credited', ...spellings.slice(1).map(() => 'duplicate')]);
      // A malformed id credits nothing and tells the provider to try again.
      const before = moneyState(test.app);
      for (const bad of ['tx-1', digits.slice(1), `${digits}00`, `${digits.slice(2)}zz`]) {
        expect(await callback(test.app, trade(bad)), `${what} ${bad}`).toBe('error');
      }
      expect(moneyState(test.app)).toBe(before);
      expect(test.app.engine.ledger.balance(user.id, 'change', chain.currency_id).available).toBe(balance);
    }
    expectLedgerBalanced(test.app);
  });

  it('refuses in the database a second deposit whose transaction id differs only in letter case', async () => {
    const digits = txHash('database');
    const insert = (txId: string) =>
      test.store.query(
        `insert into deposits (user_id, currency_id, chain_type, address, coin_type, tx_id, chain_amount,
                               chain_decimals, amount, source, status)
         values ($1, $2, 0, $3, $4, $5, 1, 6, 1, 'custody', 'pending')`,
        [alice.id, USDT, 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', USDT_TRC20, txId],
      );
    await insert(digits);
    await expect(insert(digits.toUpperCase())).rejects.toThrow(/deposits_tx_id_canonical/);
    await expect(insert(`${digits.slice(0, 10).toUpperCase()}${digits.slice(10)}`)).rejects.toThrow(
      /deposits_tx_id_canonical/,
    );
    await test.store.query('delete from deposits where tx_id = $1', [digits]);
  });

  it('refuses every callback when no key is configured', async () => {
    const { walletApp: build } = await import('./wallet-helper.ts');
    const bare = await build({ CUSTODY_API_KEY: '' });
    try {
      const user = await newUser(bare.store);
      const view = await ok<AddressReply>(bare.app, '/wallet/get_in_address', { currency: USDT }, user.token);
      const trade = depositTrade({
        address: view.address,
        amount: '5000000',
        decimals: 6,
        mainCoinType: '195',
        coinType: USDT_TRC20,
        txId: txHash('no-key-1'),
      });
      expect(await callback(bare.app, trade)).toBe('error');
      expect(bare.app.engine.ledger.balance(user.id, 'change', USDT).available).toBe(0n);
    } finally {
      await bare.close();
    }
  });
});

function usdtDepositFor(txId: string, amount = '7000000'): Record<string, unknown> {
  // The address is filled in lazily: the deposit-address test runs first.
  return {
    get address() {
      return aliceTron;
    },
    amount,
    decimals: '6',
    fee: '0',
    mainCoinType: '195',
    coinType: USDT_TRC20,
    txId: txHash(txId),
    tradeId: txId,
    tradeType: 1,
    status: 3,
    businessId: '',
  };
}

describe('transfers between wallets', () => {
  it('moves funds to the lever wallet and back, with records', async () => {
    const start = test.app.engine.ledger.balance(alice.id, 'change', USDT).available;
    expect(
      await ok(
        test.app,
        '/wallet/change',
        { from_field: 'change', to_field: 'lever', currency_id: USDT, number: '100.5' },
        alice.token,
      ),
    ).toBe(translate('en', 'wallet.transfer_done'));
    expect(test.app.engine.ledger.balance(alice.id, 'lever', USDT).available).toBe(100_500_000n);
    await ok(
      test.app,
      '/wallet/change',
      { from_field: 'lever', to_field: 'change', currency_id: USDT, number: '40' },
      alice.token,
    );
    expect(test.app.engine.ledger.balance(alice.id, 'lever', USDT).available).toBe(60_500_000n);
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT).available).toBe(start - 60_500_000n);

    const detail = await ok<Record<string, unknown>>(
      test.app,
      '/wallet/detail',
      { type: 'lever', currency: USDT },
      alice.token,
    );
    expect(detail).toMatchObject({
      currency_name: 'USDT',
      lever_balance: '60.500000',
      lock_lever_balance: '0.000000',
    });

    const records = await ok<{ list: Record<string, unknown>[] }>(
      test.app,
      '/wallet/change_list',
      {},
      alice.token,
    );
    expect(records.list.slice(0, 2)).toMatchObject([
      { currency_name: 'USDT', from_account: 'lever', to_account: 'change', number: '40.000000' },
      { currency_name: 'USDT', from_account: 'change', to_account: 'lever', number: '100.500000' },
    ]);
    const history = await ok<{ data: unknown[]; total: number }>(
      test.app,
      '/wallet/hzhistory',
      { page: 1 },
      alice.token,
    );
    expect(history.total).toBe(2);
    const leverLog = await ok<{ list: Record<string, unknown>[] }>(
      test.app,
      '/wallet/legal_log',
      { currency: USDT, type: 'lever', page: 1 },
      alice.token,
    );
    expect(leverLog.list.map((entry) => entry.value)).toEqual(['-40.000000', '+100.500000']);
    expectLedgerBalanced(test.app);
  });

  it.each([
    [
      'the same wallet on both sides',
      { from_field: 'change', to_field: 'change', currency_id: USDT, number: '1' },
      'wallet.same_wallet',
    ],
    [
      'an unknown wallet',
      { from_field: 'savings', to_field: 'change', currency_id: USDT, number: '1' },
      'wallet.wallet_unknown',
    ],
    [
      'more than the balance',
      { from_field: 'change', to_field: 'micro', currency_id: USDT, number: '1000000' },
      'wallet.insufficient_balance',
    ],
    [
      'an empty wallet',
      { from_field: 'defi', to_field: 'change', currency_id: USDT, number: '1' },
      'wallet.insufficient_balance',
    ],
    [
      'a negative amount',
      { from_field: 'change', to_field: 'lever', currency_id: USDT, number: '-5' },
      undefined,
    ],
    ['a zero amount', { from_field: 'change', to_field: 'lever', currency_id: USDT, number: '0' }, undefined],
    [
      'too many decimals',
      { from_field: 'change', to_field: 'lever', currency_id: USDT, number: '1.0000001' },
      undefined,
    ],
    [
      'a number in exponent form',
      { from_field: 'change', to_field: 'lever', currency_id: USDT, number: '1e3' },
      undefined,
    ],
    [
      'an unknown currency',
      { from_field: 'change', to_field: 'lever', currency_id: 999, number: '1' },
      'wallet.currency_unknown',
    ],
    ['a missing number', { from_field: 'change', to_field: 'lever', currency_id: USDT }, undefined],
  ] as const)('refuses %s with no change', async (_name, payload, key) => {
    const before = moneyState(test.app);
    const message = await refused(test.app, '/wallet/change', payload, alice.token);
    if (key !== undefined) expect(message).toBe(translate('en', key));
    expect(moneyState(test.app)).toBe(before);
  });

  it('translates the refusal into the request language', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/wallet/change?lang=zh',
      payload: { from_field: 'change', to_field: 'change', currency_id: USDT, number: '1' },
      headers: { authorization: alice.token },
    });
    expect(response.json()).toEqual({ type: 'error', message: translate('zh', 'wallet.same_wallet') });
  });

  it('lets only as many of 100 simultaneous transfers through as the balance pays for', async () => {
    const carol = await newUser(test.store);
    const view = await ok<AddressReply>(test.app, '/wallet/get_in_address', { currency: USDT }, carol.token);
    await callback(
      test.app,
      depositTrade({
        address: view.address,
        amount: '37000000',
        decimals: 6,
        mainCoinType: '195',
        coinType: USDT_TRC20,
        txId: txHash('carol-1'),
      }),
    );
    const replies = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(
          test.app,
          '/wallet/change',
          { from_field: 'change', to_field: 'micro', currency_id: USDT, number: '1' },
          carol.token,
        ),
      ),
    );
    expect(replies.filter((reply) => reply.type === 'ok')).toHaveLength(37);
    expect(
      replies
        .filter((reply) => reply.type === 'error')
        .every((reply) => reply.message === translate('en', 'wallet.insufficient_balance')),
    ).toBe(true);
    expect(test.app.engine.ledger.balance(carol.id, 'change', USDT).available).toBe(0n);
    expect(test.app.engine.ledger.balance(carol.id, 'micro', USDT).available).toBe(37_000_000n);
    expectLedgerBalanced(test.app);
  });
});

describe('assets overview and ledger', () => {
  it('values every wallet exactly in USDT and BTC from the index price', async () => {
    const overview = await ok<Overview>(test.app, '/wallet/list', {}, alice.token);
    const change = overview.change_wallet;
    const usdtLine = change.balance.find((line) => line.currency === USDT);
    const btcLine = change.balance.find((line) => line.currency === BTC);
    // 1,502 USDT deposited, 60.5 moved to lever: 1,441.5 on spot; 0.25 BTC at 65,000 = 16,250.
    expect(usdtLine).toMatchObject({
      change_balance: '1441.500000',
      lock_change_balance: '0.000000',
      usdt_total: '1441.50000000',
      udun_id: 195,
    });
    expect(btcLine).toMatchObject({ change_balance: '0.25000000', usdt_total: '16250.00000000', udun_id: 0 });
    expect(change.usdt_total).toBe('17691.50000000');
    // 17,691.5 / 65,000 = 0.27217692... BTC, rounded down to 8 decimals.
    expect(change.btc_total).toBe('0.27217692');
    expect(overview.lever_wallet.usdt_total).toBe('60.50000000');
    expect(overview.usdt_total).toBe('17752.00000000');
    expect(overview.btc_total).toBe('0.27310769');
    // ETH has no index price here: its value is not guessed, and the totals say so only if ETH is held.
    expect(overview.priced).toBe(true);
    const ethLine = change.balance.find((line) => line.currency === 2);
    expect(ethLine).toMatchObject({ usdt_total: null, priced: false });
  });

  it('answers the same overview to GET', async () => {
    const viaGet = await ok<Record<string, unknown>>(test.app, '/wallet/list', {}, alice.token, 'GET');
    expect(viaGet.usdt_total).toBe('17752.00000000');
  });

  it('pages the account ledger 20 at a time, newest first, translated', async () => {
    const first = await ok<{ data: Record<string, string>[]; total: number; per_page: number }>(
      test.app,
      '/account/list',
      { page: 1 },
      alice.token,
    );
    expect(first.per_page).toBe(20);
    expect(first.total).toBe(7);
    expect(first.data[0]).toMatchObject({
      wallet: 'change',
      currency_name: 'USDT',
      reason: 'walletTransfer',
      value: '+40.000000',
    });
    expect(first.data.at(-1)).toMatchObject({
      reason: 'deposit',
      info: 'Deposit',
      value: '+1500.000000',
      account: 'Spot wallet · USDT',
    });
    const zh = await test.app.inject({
      method: 'POST',
      url: '/api/account/list?lang=zh',
      payload: { page: 1, limit: 1 },
      headers: { authorization: alice.token },
    });
    expect(zh.json().message.data[0]).toMatchObject({ info: '账户划转', account: '币币账户 · USDT' });
    const empty = await ok<{ data: unknown[] }>(test.app, '/account/list', { page: 2 }, alice.token);
    expect(empty.data).toEqual([]);
  });

  it('shows deposit records', async () => {
    const records = await ok<{ list: Record<string, unknown>[] }>(
      test.app,
      '/wallet/legal_log',
      { currency: USDT, type: '1580', page: 1 },
      alice.token,
    );
    expect(records.list.map((record) => record.value)).toEqual(['2.000000', '1500.000000']);
    expect(records.list[0]).toMatchObject({
      currency_name: 'USDT',
      chain: 'TRC20',
      tx_id: txHash('tx-2'),
      status: 'credited',
    });
  });

  it('keeps each user to their own records', async () => {
    const bobs = await ok<{ data: unknown[] }>(test.app, '/account/list', {}, bob.token);
    expect(bobs.data).toEqual([]);
    expect(test.app.engine.ledger.balance(bob.id, 'change', USDT).available).toBe(0n);
  });
});
