import { describe, expect, it } from 'vitest';
import { ReasonCode, ResultCode } from '../src/index.ts';
import type { BalanceChangedEvent, Command } from '../src/index.ts';
import { BASE, QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

function setUp(): TestExchange {
  const exchange = new TestExchange();
  exchange.ok({ type: 'addCurrency', currencyId: BASE, code: 'BTC', scale: 8 });
  exchange.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'USDT', scale: 6 });
  return exchange;
}

describe('ledger', () => {
  it('credits a deposit from the outside world, which goes below zero by the same amount', () => {
    const exchange = setUp();
    const outcome = exchange.ok({
      type: 'deposit',
      userId: 7,
      currencyId: QUOTE,
      amount: 2_500_000n,
      memo: 'tx 0xabc',
    });
    expect(outcome.reply).toEqual({ transferId: 1 });
    expect(outcome.events).toEqual([
      {
        type: 'balanceChanged',
        transferId: 1,
        owner: 'outside',
        wallet: 'change',
        currencyId: QUOTE,
        availableBefore: 0n,
        availableAfter: -2_500_000n,
        lockedBefore: 0n,
        lockedAfter: 0n,
        reason: ReasonCode.deposit,
        referenceId: 0,
        memo: 'tx 0xabc',
      },
      {
        type: 'balanceChanged',
        transferId: 1,
        owner: 7,
        wallet: 'change',
        currencyId: QUOTE,
        availableBefore: 0n,
        availableAfter: 2_500_000n,
        lockedBefore: 0n,
        lockedAfter: 0n,
        reason: ReasonCode.deposit,
        referenceId: 0,
        memo: 'tx 0xabc',
      },
    ]);
    expect(exchange.engine.ledger.balance('outside', 'change', QUOTE)).toEqual({
      available: -2_500_000n,
      locked: 0n,
    });
  });

  it('reads zero for malformed keys instead of another account', () => {
    const exchange = setUp();
    exchange.ok({ type: 'deposit', userId: 7, currencyId: QUOTE, amount: 1000n });
    exchange.ok({
      type: 'transfer',
      userId: 7,
      currencyId: QUOTE,
      fromWallet: 'change',
      toWallet: 'lever',
      amount: 400n,
    });
    // Currency 65,536 + QUOTE would alias wallet 'lever' of currency QUOTE in a packed key.
    expect(exchange.engine.ledger.balance(7, 'change', 65_536 + QUOTE)).toEqual({
      available: 0n,
      locked: 0n,
    });
    expect(exchange.engine.ledger.balance(7, 'vault' as never, QUOTE)).toEqual({ available: 0n, locked: 0n });
    expect(exchange.engine.ledger.balance(0, 'change', QUOTE)).toEqual({ available: 0n, locked: 0n });
    expect(exchange.engine.ledger.balance(7, 'change', QUOTE)).toEqual({ available: 600n, locked: 0n });
    expect(exchange.engine.ledger.balance(7, 'lever', QUOTE)).toEqual({ available: 400n, locked: 0n });
  });

  it('moves funds between any two of a user\u2019s six wallets, same currency', () => {
    const exchange = setUp();
    exchange.ok({ type: 'deposit', userId: 7, currencyId: QUOTE, amount: 1000n });
    exchange.ok({
      type: 'transfer',
      userId: 7,
      currencyId: QUOTE,
      fromWallet: 'change',
      toWallet: 'lever',
      amount: 600n,
    });
    exchange.ok({
      type: 'transfer',
      userId: 7,
      currencyId: QUOTE,
      fromWallet: 'lever',
      toWallet: 'defi',
      amount: 100n,
    });
    const wallets = exchange.engine.ledger.wallets(7, QUOTE);
    expect(
      Object.fromEntries(Object.entries(wallets).map(([name, balance]) => [name, balance.available])),
    ).toEqual({
      change: 400n,
      lever: 500n,
      micro: 0n,
      ico: 0n,
      miner: 0n,
      defi: 100n,
    });
  });

  it('funds system accounts from the outside world, never the outside world itself', () => {
    const exchange = setUp();
    exchange.ok({ type: 'systemFund', owner: 'marketMaker', currencyId: BASE, amount: 10n ** 10n });
    exchange.ok({ type: 'systemFund', owner: 'insurance', currencyId: QUOTE, amount: 5n, wallet: 'lever' });
    expect(exchange.engine.ledger.balance('marketMaker', 'change', BASE).available).toBe(10n ** 10n);
    expect(exchange.engine.ledger.balance('insurance', 'lever', QUOTE).available).toBe(5n);
    expect(
      exchange.apply({ type: 'systemFund', owner: 'outside' as never, currencyId: BASE, amount: 1n }).code,
    ).toBe(ResultCode.invalidOwner);
    expect(exchange.apply({ type: 'systemFund', owner: 7 as never, currencyId: BASE, amount: 1n }).code).toBe(
      ResultCode.invalidOwner,
    );
  });

  it('holds a withdrawal, then posts payout and fee on completion', () => {
    const exchange = setUp();
    exchange.ok({ type: 'deposit', userId: 7, currencyId: QUOTE, amount: 1000n });
    const request = exchange.ok({
      type: 'requestWithdrawal',
      userId: 7,
      currencyId: QUOTE,
      amount: 300n,
      feeAmount: 20n,
      memo: 'to T9yD',
    });
    expect(request.reply).toEqual({ withdrawalId: 1 });
    expect(exchange.change(7, QUOTE)).toEqual([700n, 300n]);
    expect(exchange.engine.funding.pendingWithdrawals(7)).toEqual([
      {
        withdrawalId: 1,
        userId: 7,
        currencyId: QUOTE,
        amount: 300n,
        feeAmount: 20n,
        requestedTimeMs: exchange.timeMs,
        memo: 'to T9yD',
      },
    ]);
    const complete = exchange.ok({ type: 'completeWithdrawal', withdrawalId: 1, memo: 'txid 1' });
    expect(complete.reply).toEqual({ withdrawalId: 1, payoutAmount: 280n, feeAmount: 20n });
    const reasons = complete.events
      .filter((event): event is BalanceChangedEvent => event.type === 'balanceChanged')
      .map((event) => [event.owner, event.reason]);
    expect(reasons).toEqual([
      [7, ReasonCode.withdrawalPayout],
      ['outside', ReasonCode.withdrawalPayout],
      [7, ReasonCode.withdrawalFee],
      ['fees', ReasonCode.withdrawalFee],
    ]);
    expect(exchange.change(7, QUOTE)).toEqual([700n, 0n]);
    expect(exchange.engine.ledger.balance('outside', 'change', QUOTE).available).toBe(-1000n + 280n);
    expect(exchange.engine.ledger.balance('fees', 'change', QUOTE).available).toBe(20n);
    expect(exchange.apply({ type: 'completeWithdrawal', withdrawalId: 1 }).code).toBe(
      ResultCode.withdrawalNotPending,
    );
    expect(exchange.apply({ type: 'rejectWithdrawal', withdrawalId: 1 }).code).toBe(
      ResultCode.withdrawalNotPending,
    );
    expect(exchange.apply({ type: 'rejectWithdrawal', withdrawalId: 2 }).code).toBe(
      ResultCode.withdrawalNotFound,
    );
  });

  it('voids a rejected withdrawal back to available', () => {
    const exchange = setUp();
    exchange.ok({ type: 'deposit', userId: 7, currencyId: QUOTE, amount: 1000n });
    exchange.ok({ type: 'requestWithdrawal', userId: 7, currencyId: QUOTE, amount: 1000n, feeAmount: 0n });
    expect(exchange.change(7, QUOTE)).toEqual([0n, 1000n]);
    const reject = exchange.ok({ type: 'rejectWithdrawal', withdrawalId: 1 });
    expect(reject.reply).toEqual({ withdrawalId: 1, releasedAmount: 1000n });
    expect(exchange.change(7, QUOTE)).toEqual([1000n, 0n]);
    expect(exchange.engine.funding.pendingWithdrawals()).toEqual([]);
  });

  const refusals: [string, Command, number][] = [
    [
      'a currency id of zero',
      { type: 'addCurrency', currencyId: 0, code: 'X', scale: 2 },
      ResultCode.invalidId,
    ],
    [
      'a taken currency id',
      { type: 'addCurrency', currencyId: BASE, code: 'X', scale: 2 },
      ResultCode.currencyExists,
    ],
    [
      'a taken currency code',
      { type: 'addCurrency', currencyId: 3, code: 'BTC', scale: 2 },
      ResultCode.currencyExists,
    ],
    [
      'a lower-case currency code',
      { type: 'addCurrency', currencyId: 3, code: 'eth', scale: 2 },
      ResultCode.invalidCurrencyCode,
    ],
    [
      'a scale of 19',
      { type: 'addCurrency', currencyId: 3, code: 'ETH', scale: 19 },
      ResultCode.invalidScale,
    ],
    [
      'a deposit to user 0',
      { type: 'deposit', userId: 0, currencyId: QUOTE, amount: 1n },
      ResultCode.invalidOwner,
    ],
    [
      'a deposit to a system owner',
      { type: 'deposit', userId: 'house' as never, currencyId: QUOTE, amount: 1n },
      ResultCode.invalidOwner,
    ],
    [
      'a deposit of zero',
      { type: 'deposit', userId: 7, currencyId: QUOTE, amount: 0n },
      ResultCode.invalidAmount,
    ],
    [
      'a negative deposit',
      { type: 'deposit', userId: 7, currencyId: QUOTE, amount: -5n },
      ResultCode.invalidAmount,
    ],
    [
      'a deposit given as a number',
      { type: 'deposit', userId: 7, currencyId: QUOTE, amount: 5 as never },
      ResultCode.invalidAmount,
    ],
    [
      'a deposit beyond 10^36',
      { type: 'deposit', userId: 7, currencyId: QUOTE, amount: 10n ** 36n + 1n },
      ResultCode.invalidAmount,
    ],
    [
      'a deposit in an unknown currency',
      { type: 'deposit', userId: 7, currencyId: 9, amount: 5n },
      ResultCode.currencyNotFound,
    ],
    [
      'a deposit with a long memo',
      { type: 'deposit', userId: 7, currencyId: QUOTE, amount: 5n, memo: 'm'.repeat(257) },
      ResultCode.invalidMemo,
    ],
    [
      'a transfer beyond the balance',
      {
        type: 'transfer',
        userId: 7,
        currencyId: QUOTE,
        fromWallet: 'change',
        toWallet: 'micro',
        amount: 101n,
      },
      ResultCode.insufficientFunds,
    ],
    [
      'a transfer from an empty wallet',
      { type: 'transfer', userId: 7, currencyId: QUOTE, fromWallet: 'ico', toWallet: 'micro', amount: 1n },
      ResultCode.insufficientFunds,
    ],
    [
      'a transfer to the same wallet',
      {
        type: 'transfer',
        userId: 7,
        currencyId: QUOTE,
        fromWallet: 'change',
        toWallet: 'change',
        amount: 1n,
      },
      ResultCode.sameWallet,
    ],
    [
      'a transfer to an unknown wallet',
      {
        type: 'transfer',
        userId: 7,
        currencyId: QUOTE,
        fromWallet: 'change',
        toWallet: 'savings' as never,
        amount: 1n,
      },
      ResultCode.invalidWallet,
    ],
    [
      'a withdrawal beyond the balance',
      { type: 'requestWithdrawal', userId: 7, currencyId: QUOTE, amount: 101n, feeAmount: 0n },
      ResultCode.insufficientFunds,
    ],
    [
      'a withdrawal whose fee eats it all',
      { type: 'requestWithdrawal', userId: 7, currencyId: QUOTE, amount: 10n, feeAmount: 10n },
      ResultCode.feeNotBelowAmount,
    ],
    [
      'a withdrawal with a negative fee',
      { type: 'requestWithdrawal', userId: 7, currencyId: QUOTE, amount: 10n, feeAmount: -1n },
      ResultCode.invalidAmount,
    ],
    ['completing withdrawal 0', { type: 'completeWithdrawal', withdrawalId: 0 }, ResultCode.invalidId],
    ['an unknown command', { type: 'mint' } as never, ResultCode.unknownCommand],
  ];

  it.each(refusals)('refuses %s without changing anything', (_name, command, code) => {
    const exchange = setUp();
    exchange.ok({ type: 'deposit', userId: 7, currencyId: QUOTE, amount: 100n });
    const before = stateWithoutCounters(exchange.engine);
    expect(exchange.apply(command)).toEqual({ seq: exchange.seq, code, events: [] });
    expect(stateWithoutCounters(exchange.engine)).toBe(before);
  });
});

describe('market configuration', () => {
  const market = (change: Record<string, unknown>): Command =>
    ({
      type: 'addMarket',
      marketId: 1,
      baseCurrencyId: BASE,
      quoteCurrencyId: QUOTE,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
      ...change,
    }) as Command;

  it('derives exact minor units per lot and per tick and lot (BTC scale 8, USDT scale 8)', () => {
    const exchange = new TestExchange();
    exchange.ok({ type: 'addCurrency', currencyId: BASE, code: 'BTC', scale: 8 });
    exchange.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'USDT', scale: 8 });
    exchange.ok(market({ quoteMinorPerTickLot: 100n }));
    expect(exchange.engine.spot.market(1)).toMatchObject({
      lotBaseMinor: 10_000n,
      quoteMinorPerTickLot: 100n,
    });
  });

  const refusals: [string, Record<string, unknown>, number][] = [
    [
      'a tick x lot below one quote minor unit (USDT scale 6)',
      { lotSize: '0.00001' },
      ResultCode.tickLotNotIntegral,
    ],
    [
      'a lot below one base minor unit',
      { lotSize: '0.000000001', tickSize: '1000' },
      ResultCode.tickLotNotIntegral,
    ],
    ['a tick size of zero', { tickSize: '0' }, ResultCode.invalidTickSize],
    ['a tick size in exponent form', { tickSize: '1e-2' }, ResultCode.invalidTickSize],
    ['a negative lot size', { lotSize: '-1' }, ResultCode.invalidLotSize],
    ['a lot size given as a number', { lotSize: 0.001 }, ResultCode.invalidLotSize],
    ['a fee rate above 10 %', { tickSize: '1', makerFeePpm: 100_001 }, ResultCode.invalidFeeRate],
    ['a fractional fee rate', { tickSize: '1', takerFeePpm: 1.5 }, ResultCode.invalidFeeRate],
    ['a minimum of zero lots', { tickSize: '1', minimumLots: 0 }, ResultCode.invalidMinimumLots],
    ['the same currency twice', { quoteCurrencyId: BASE }, ResultCode.sameCurrency],
    ['an unknown currency', { quoteCurrencyId: 9 }, ResultCode.currencyNotFound],
    [
      'a stated quote amount per tick and lot that disagrees',
      { tickSize: '1', quoteMinorPerTickLot: 99n },
      ResultCode.quoteMinorMismatch,
    ],
  ];

  it.each(refusals)('refuses %s', (_name, change, code) => {
    const exchange = new TestExchange();
    exchange.ok({ type: 'addCurrency', currencyId: BASE, code: 'BTC', scale: 8 });
    exchange.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'USDT', scale: 6 });
    expect(exchange.apply(market(change)).code).toBe(code);
    expect(exchange.engine.spot.markets()).toEqual([]);
  });

  it('refuses a second market with the same id or pair, and changes fees of an existing one', () => {
    const exchange = new TestExchange();
    exchange.ok({ type: 'addCurrency', currencyId: BASE, code: 'BTC', scale: 8 });
    exchange.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'USDT', scale: 6 });
    exchange.ok(market({ tickSize: '0.01', lotSize: '0.001' }));
    expect(exchange.apply(market({ tickSize: '0.01', lotSize: '0.001' })).code).toBe(ResultCode.marketExists);
    expect(exchange.apply(market({ marketId: 2, tickSize: '0.01', lotSize: '0.001' })).code).toBe(
      ResultCode.marketExists,
    );
    const fees = exchange.ok({ type: 'setMarketFees', marketId: 1, makerFeePpm: 0, takerFeePpm: 500 });
    expect(fees.events).toEqual([
      { type: 'marketFeesChanged', marketId: 1, makerFeePpm: 0, takerFeePpm: 500 },
    ]);
    expect(exchange.apply({ type: 'setMarketFees', marketId: 2, makerFeePpm: 0, takerFeePpm: 0 }).code).toBe(
      ResultCode.marketNotFound,
    );
    expect(exchange.apply({ type: 'setMarketFees', marketId: 1, makerFeePpm: -1, takerFeePpm: 0 }).code).toBe(
      ResultCode.invalidFeeRate,
    );
  });
});
