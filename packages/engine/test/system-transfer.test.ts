import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResultCode, WALLETS } from '../src/index.ts';
import type { Command, Wallet } from '../src/index.ts';
import { BASE, QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

/** USDT (scale 6); the house holds 1,000 USDT on its change wallet. */
function setUp(): TestExchange {
  const exchange = new TestExchange();
  exchange.ok({ type: 'addCurrency', currencyId: BASE, code: 'BTC', scale: 8 });
  exchange.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'USDT', scale: 6 });
  exchange.ok({ type: 'systemFund', owner: 'house', currencyId: QUOTE, amount: 1_000_000_000n });
  return exchange;
}

function houseWallets(exchange: TestExchange): { change: bigint; micro: bigint } {
  const ledger = exchange.engine.ledger;
  return {
    change: ledger.balance('house', 'change', QUOTE).available,
    micro: ledger.balance('house', 'micro', QUOTE).available,
  };
}

const fundReserve = (amount: bigint): Command => ({
  type: 'systemTransfer',
  owner: 'house',
  currencyId: QUOTE,
  fromWallet: 'change',
  toWallet: 'micro',
  amount,
  memo: 'micro reserve',
});

describe('systemTransfer (a system owner between its own wallets)', () => {
  it('moves exactly the amount from the change wallet to the micro wallet, or changes nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -5n, max: 400_000_000n }), { maxLength: 8 }), (amounts) => {
        const exchange = setUp();
        for (const amount of amounts) {
          const before = houseWallets(exchange);
          const state = stateWithoutCounters(exchange.engine);
          const outcome = exchange.apply(fundReserve(amount));
          const after = houseWallets(exchange);
          if (amount > 0n && amount <= before.change) {
            expect(outcome.code).toBe(ResultCode.ok);
            expect(after.change).toBe(before.change - amount);
            expect(after.micro).toBe(before.micro + amount);
          } else {
            expect(outcome.code).not.toBe(ResultCode.ok);
            expect(stateWithoutCounters(exchange.engine)).toBe(state);
          }
          expect(after.change + after.micro).toBe(1_000_000_000n);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses users, the outside world, one wallet twice and unknown wallets', () => {
    const exchange = setUp();
    const base = fundReserve(1n) as Extract<Command, { type: 'systemTransfer' }>;
    const cases: [Command, number][] = [
      [{ ...base, owner: 'outside' as 'house' }, ResultCode.invalidOwner],
      [{ ...base, owner: 7 as unknown as 'house' }, ResultCode.invalidOwner],
      [{ ...base, toWallet: 'change' }, ResultCode.sameWallet],
      [{ ...base, fromWallet: 'nowhere' as 'change' }, ResultCode.invalidWallet],
      [{ ...base, currencyId: 99 }, ResultCode.currencyNotFound],
      [{ ...base, owner: 'fees' }, ResultCode.insufficientFunds],
    ];
    for (const [command, code] of cases) {
      const state = stateWithoutCounters(exchange.engine);
      expect(exchange.apply(command).code).toBe(code);
      expect(stateWithoutCounters(exchange.engine)).toBe(state);
    }
  });

  it('follows the one rule of a user transfer: same moves, same answers, same amounts', () => {
    const wallet = fc.constantFrom<string>(...WALLETS, 'nowhere');
    const move = fc.record({
      fromWallet: wallet,
      toWallet: wallet,
      currencyId: fc.constantFrom(QUOTE, BASE, 99, 0),
      amount: fc.bigInt({ min: -5n, max: 1_500_000_000n }),
    });
    fc.assert(
      fc.property(fc.array(move, { minLength: 1, maxLength: 10 }), (moves) => {
        // The user and the house start alike: 1,000 USDT on their change wallets.
        const exchange = setUp();
        exchange.ok({ type: 'deposit', userId: 7, currencyId: QUOTE, amount: 1_000_000_000n });
        for (const { fromWallet, toWallet, currencyId, amount } of moves) {
          const wallets = { fromWallet: fromWallet as Wallet, toWallet: toWallet as Wallet };
          const byUser = exchange.apply({ type: 'transfer', userId: 7, currencyId, amount, ...wallets });
          const byHouse = exchange.apply({
            type: 'systemTransfer',
            owner: 'house',
            currencyId,
            amount,
            ...wallets,
          });
          expect(byHouse.code).toBe(byUser.code);
        }
        const ledger = exchange.engine.ledger;
        for (const name of WALLETS) {
          expect(ledger.balance('house', name, QUOTE)).toEqual(ledger.balance(7, name, QUOTE));
        }
      }),
      { numRuns: 80 },
    );
  });
});
