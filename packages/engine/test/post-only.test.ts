// Post-only orders never take. On random books built by users and the market maker (a trading system
// owner), a post-only limit order either rests whole, with no trade in its command, or is refused
// (postOnlyWouldTake) and changes nothing; later orders may fill it only as the resting side. This is the
// rule the market maker's quotes rely on: they are post-only, so a user's order resting across its ladder
// is never taken by it, whatever the maker planned.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpotResultCode } from '../src/index.ts';
import type { AccountOwner, PlaceOrderReply } from '../src/index.ts';
import { BASE, BOOKS, MARKET, QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

const OWNERS: AccountOwner[] = [1, 2, 3, 'marketMaker'];

const order = fc.record({
  owner: fc.constantFrom(...OWNERS),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  priceTicks: fc.integer({ min: 95, max: 105 }),
  quantityLots: fc.integer({ min: 1, max: 20 }),
  postOnly: fc.boolean(),
});

describe.each(BOOKS)('post-only orders (%s book)', (book) => {
  it('never trade as the taker: they rest whole or are refused without a change', () => {
    let rested = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 60 }), (orders) => {
        const ex = new TestExchange({ book }).setUpSimpleMarket(1000, 2000);
        for (const userId of [1, 2, 3]) ex.fund(userId, 10_000n, 1_000_000n);
        for (const currencyId of [BASE, QUOTE])
          ex.ok({ type: 'systemFund', owner: 'marketMaker', currencyId, amount: 1_000_000n, memo: 'test' });
        const postOnlyIds = new Set<number>();
        for (const next of orders) {
          const before = next.postOnly ? stateWithoutCounters(ex.engine) : '';
          const outcome = ex.apply({
            type: 'placeOrder',
            owner: next.owner,
            marketId: MARKET,
            side: next.side,
            kind: 'limit',
            priceTicks: next.priceTicks,
            quantityLots: next.quantityLots,
            ...(next.postOnly ? { timeInForce: 'postOnly' as const } : {}),
          });
          const trades = outcome.events.filter((event) => event.type === 'trade');
          // No trade anywhere has a post-only order as its taker.
          for (const trade of trades) expect(postOnlyIds.has(trade.takerOrderId)).toBe(false);
          if (!next.postOnly) continue;
          if (outcome.code === SpotResultCode.postOnlyWouldTake) {
            expect(stateWithoutCounters(ex.engine)).toBe(before);
            refused += 1;
            continue;
          }
          expect(outcome.code).toBe(0);
          const reply = outcome.reply as PlaceOrderReply;
          expect(trades).toEqual([]);
          expect(reply).toMatchObject({ status: 'resting', filledLots: 0, remainingLots: next.quantityLots });
          postOnlyIds.add(reply.orderId);
          rested += 1;
        }
      }),
      { numRuns: 200 },
    );
    // Both ways were exercised.
    expect(rested).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  });
});
