import { describe, expect, it } from 'vitest';
import { ReasonCode, ResultCode } from '../src/index.ts';
import type { BalanceChangedEvent, Command } from '../src/index.ts';
import { BASE, QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

/** BTC (scale 8) and USDT (scale 6); user 7 holds 1,000 USDT and the house 1 BTC of inventory. */
function setUp(): TestExchange {
  const exchange = new TestExchange();
  exchange.ok({ type: 'addCurrency', currencyId: BASE, code: 'BTC', scale: 8 });
  exchange.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'USDT', scale: 6 });
  exchange.ok({ type: 'deposit', userId: 7, currencyId: QUOTE, amount: 1_000_000_000n });
  exchange.ok({ type: 'systemFund', owner: 'house', currencyId: BASE, amount: 100_000_000n });
  return exchange;
}

const usdtToBtc = {
  type: 'flashExchange',
  userId: 7,
  fromCurrencyId: QUOTE,
  toCurrencyId: BASE,
  amount: 600_000_000n,
  payoutAmount: 1_000_000n,
  feeAmount: 2_000n,
  memo: 'flash:1',
} as const satisfies Command;

function sumsToZero(exchange: TestExchange): void {
  const sums = new Map<number, bigint>();
  for (const account of exchange.engine.ledger.accounts()) {
    sums.set(account.currencyId, (sums.get(account.currencyId) ?? 0n) + account.available + account.locked);
  }
  for (const sum of sums.values()) expect(sum).toBe(0n);
}

describe('flash exchange', () => {
  it('moves the payment to the house, the payout to the user and the fee to the fees account', () => {
    const exchange = setUp();
    const outcome = exchange.ok(usdtToBtc);
    expect(outcome.reply).toEqual({ transferId: 3, payoutAmount: 1_000_000n, feeAmount: 2_000n });
    const moves = (outcome.events as BalanceChangedEvent[]).map((event) => [
      event.owner,
      event.currencyId,
      event.availableAfter - event.availableBefore,
      event.reason,
    ]);
    expect(moves).toEqual([
      [7, QUOTE, -600_000_000n, ReasonCode.flashPayment],
      ['house', QUOTE, 600_000_000n, ReasonCode.flashPayment],
      ['house', BASE, -1_000_000n, ReasonCode.flashPayout],
      [7, BASE, 1_000_000n, ReasonCode.flashPayout],
      [7, BASE, -2_000n, ReasonCode.flashFee],
      ['fees', BASE, 2_000n, ReasonCode.flashFee],
    ]);
    expect(exchange.engine.ledger.balance(7, 'change', BASE)).toEqual({ available: 998_000n, locked: 0n });
    expect(exchange.engine.ledger.balance(7, 'change', QUOTE)).toEqual({
      available: 400_000_000n,
      locked: 0n,
    });
    expect(exchange.engine.ledger.balance('house', 'change', BASE).available).toBe(99_000_000n);
    sumsToZero(exchange);
  });

  it('takes no fee transfer when the fee is zero', () => {
    const exchange = setUp();
    const outcome = exchange.ok({ ...usdtToBtc, feeAmount: 0n });
    expect(outcome.events).toHaveLength(4);
    expect(exchange.engine.ledger.balance(7, 'change', BASE).available).toBe(1_000_000n);
  });

  it.each<[string, Partial<Command>, number]>([
    ['an unknown user', { userId: 0 }, ResultCode.invalidOwner],
    ['a system owner as user', { userId: -1 }, ResultCode.invalidOwner],
    ['an unknown currency', { toCurrencyId: 9 }, ResultCode.currencyNotFound],
    ['a malformed currency', { fromCurrencyId: 1.5 }, ResultCode.invalidId],
    ['one currency on both sides', { toCurrencyId: QUOTE }, ResultCode.sameCurrency],
    ['a zero amount', { amount: 0n }, ResultCode.invalidAmount],
    ['a negative amount', { amount: -5n }, ResultCode.invalidAmount],
    ['a zero payout', { payoutAmount: 0n, feeAmount: 0n }, ResultCode.invalidAmount],
    ['a negative fee', { feeAmount: -1n }, ResultCode.invalidAmount],
    ['a fee as large as the payout', { feeAmount: 1_000_000n }, ResultCode.feeNotBelowAmount],
    ['more than the user has', { amount: 1_000_000_001n }, ResultCode.insufficientFunds],
    ['more than the house has', { payoutAmount: 100_000_001n }, ResultCode.houseInsufficientFunds],
    ['a number where a bigint belongs', { amount: 5 as unknown as bigint }, ResultCode.invalidAmount],
  ])('refuses %s and changes nothing', (_name, change, code) => {
    const exchange = setUp();
    const before = stateWithoutCounters(exchange.engine);
    const outcome = exchange.apply({ ...usdtToBtc, ...change } as Command);
    expect(outcome.code).toBe(code);
    expect(outcome.events).toEqual([]);
    expect(stateWithoutCounters(exchange.engine)).toEqual(before);
  });

  it('answers a repeated idempotency key with the first outcome and moves nothing twice', () => {
    const exchange = setUp();
    const first = exchange.ok(usdtToBtc, 'flash:1');
    const again = exchange.ok(usdtToBtc, 'flash:1');
    expect(again.duplicate).toBe(true);
    expect(again.reply).toEqual(first.reply);
    expect(exchange.engine.ledger.balance(7, 'change', QUOTE).available).toBe(400_000_000n);
  });
});
