import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PRICE_TICKS, MAX_QUANTITY_LOTS, feeOf, quoteAmountOf } from '../src/index.ts';
import { Ledger } from '../src/ledger/ledger.ts';
import { FastOrderBook } from '../src/spot/fast-book.ts';
import { Market } from '../src/spot/market.ts';

function marketWith(quoteMinorPerTickLot: bigint): Market {
  const ledger = new Ledger();
  return new Market({
    marketId: 1,
    baseCurrencyId: 1,
    quoteCurrencyId: 2,
    tickSize: '1',
    lotSize: '1',
    lotBaseMinor: 1n,
    quoteMinorPerTickLot,
    minimumLots: 1,
    makerFeePpm: 0,
    takerFeePpm: 0,
    book: new FastOrderBook(quoteMinorPerTickLot),
    feesBaseAccount: ledger.account(-2, 0, 1),
    feesQuoteAccount: ledger.account(-2, 0, 2),
  });
}

describe('amounts', () => {
  it('computes quote amounts exactly, also where a float product would round', () => {
    // 94,906,267 x 94,906,267 is just above 2^53: the float product rounds, the bigint one is exact.
    const market = marketWith(1n);
    expect(market.quoteAmount(94_906_267, 94_906_267)).toBe(94_906_267n * 94_906_267n);
    expect(marketWith(10n ** 20n).quoteAmount(3, 7)).toBe(21n * 10n ** 20n);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_PRICE_TICKS }),
        fc.integer({ min: 1, max: MAX_QUANTITY_LOTS }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        (priceTicks, lots, perTickLot) => {
          const exact = BigInt(priceTicks) * BigInt(lots) * perTickLot;
          expect(quoteAmountOf(priceTicks, lots, perTickLot)).toBe(exact);
          expect(marketWith(perTickLot).quoteAmount(priceTicks, lots)).toBe(exact);
        },
      ),
      { numRuns: 2000, seed: 99 },
    );
  });

  it('rounds fees down and never above the rate', () => {
    expect(feeOf(999n, 1000n)).toBe(0n);
    expect(feeOf(1000n, 1000n)).toBe(1n);
    expect(feeOf(49_950n, 1000n)).toBe(49n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 100_000 }),
        (received, ppm) => {
          const fee = feeOf(received, BigInt(ppm));
          expect(fee * 1_000_000n <= received * BigInt(ppm)).toBe(true);
          expect((fee + 1n) * 1_000_000n > received * BigInt(ppm)).toBe(true);
        },
      ),
      { numRuns: 1000, seed: 7 },
    );
  });
});
