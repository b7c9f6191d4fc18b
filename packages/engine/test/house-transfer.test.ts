// houseTransfer: labelled house money to a user (the demo merchant's funds), never a deposit; and the
// flash desk's largest fillable amount, exact in bigint.
import { describe, expect, it } from 'vitest';
import { Engine, ReasonCode, ResultCode } from '../src/index.ts';
import type { BalanceChangedEvent, Command } from '../src/index.ts';
import { flashLargestAmount, flashQuote } from '../src/calc/index.ts';
import { QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

function setUp(): TestExchange {
  const exchange = new TestExchange();
  exchange.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'USDT', scale: 6 });
  exchange.ok({
    type: 'systemFund',
    owner: 'house',
    currencyId: QUOTE,
    amount: 50_000_000n,
    memo: 'capital',
  });
  return exchange;
}

const grant = {
  type: 'houseTransfer',
  userId: 9,
  currencyId: QUOTE,
  amount: 30_000_000n,
  memo: 'demo: merchant funds',
} as const satisfies Command;

describe('houseTransfer', () => {
  it('moves house money to the user with its own reason code and label, not a deposit', () => {
    const exchange = setUp();
    const outcome = exchange.ok(grant);
    const moves = (outcome.events as BalanceChangedEvent[]).map((event) => [
      event.owner,
      event.availableAfter - event.availableBefore,
      event.reason,
    ]);
    expect(moves).toEqual([
      ['house', -30_000_000n, ReasonCode.houseTransfer],
      [9, 30_000_000n, ReasonCode.houseTransfer],
    ]);
    expect(ReasonCode.houseTransfer).not.toBe(ReasonCode.deposit);
    expect(exchange.engine.ledger.balance('house', 'change', QUOTE).available).toBe(20_000_000n);
    expect(exchange.engine.ledger.balance('outside', 'change', QUOTE).available).toBe(-50_000_000n);
  });

  it('refuses more than the house holds, or no label, and changes nothing', () => {
    const exchange = setUp();
    const before = stateWithoutCounters(exchange.engine);
    expect(exchange.apply({ ...grant, amount: 50_000_001n }).code).toBe(ResultCode.houseInsufficientFunds);
    const { memo: _memo, ...unlabelled } = grant;
    expect(exchange.apply(unlabelled as unknown as Command).code).toBe(ResultCode.invalidMemo);
    expect(exchange.apply({ ...grant, userId: 0 }).code).toBe(ResultCode.invalidOwner);
    expect(stateWithoutCounters(exchange.engine)).toBe(before);
  });

  it('replays to the same state', () => {
    const exchange = setUp();
    exchange.ok(grant);
    const copy = Engine.restore(exchange.engine.snapshot());
    expect(copy.stateHash()).toBe(exchange.engine.stateHash());
  });
});

describe('flashLargestAmount', () => {
  const terms = {
    priceMinor: 6_512_345n,
    priceScale: 2,
    coinScale: 8,
    legalScale: 6,
    feePpm: 2_000n,
  };
  for (const direction of [0, 1] as const)
    for (const payoutMax of [0n, 1n, 153_551n, 99_999_999n, 12_345_678_901n])
      it(`is the largest amount whose payout fits ${payoutMax} (direction ${direction})`, () => {
        const largest = flashLargestAmount({ ...terms, direction, payoutMax });
        expect(flashQuote({ ...terms, direction, amount: largest }).payout).toBeLessThanOrEqual(payoutMax);
        expect(flashQuote({ ...terms, direction, amount: largest + 1n }).payout).toBeGreaterThan(payoutMax);
      });
});
