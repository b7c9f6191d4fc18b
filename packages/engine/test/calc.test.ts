// Shared formulas (src/calc): the flash quote and its inverse, as the server and the web use them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flashPayment, flashQuote } from '../src/calc/index.ts';
import type { FlashTerms } from '../src/calc/index.ts';

const usdtToBtc: FlashTerms = {
  direction: 0,
  priceMinor: 65_000n,
  priceScale: 0,
  coinScale: 8,
  legalScale: 6,
  feePpm: 2_000n,
};

describe('flash quote', () => {
  it('gives the price less the fee, rounded down, in the receiving currency', () => {
    // 650 USDT at 65,000 is 0.01 BTC; less 0.2 % is 0.00998 BTC.
    expect(flashQuote({ ...usdtToBtc, amount: 650_000_000n })).toEqual({
      payout: 1_000_000n,
      fee: 2_000n,
      received: 998_000n,
    });
    // 0.001 BTC at 65,000 is 65 USDT; less 0.2 % is 64.87 USDT.
    expect(flashQuote({ ...usdtToBtc, direction: 1, amount: 100_000n }).received).toBe(64_870_000n);
  });

  it('keeps at most 8 decimals in a currency that has more, and the rest is fee', () => {
    const quote = flashQuote({ ...usdtToBtc, coinScale: 18, feePpm: 0n, amount: 1_000_000n });
    // 1 USDT at 65,000 is 0.0000153846153846... BTC: 8 decimals reach the user.
    expect(quote.received).toBe(1_538n * 10n ** 10n);
    expect(quote.payout).toBe(15_384_615_384_615n);
    expect(quote.fee).toBe(quote.payout - quote.received);
  });

  it('finds the least payment for an amount wanted, for any terms', () => {
    fc.assert(
      fc.property(
        fc.record({
          direction: fc.constantFrom(0 as const, 1 as const),
          priceMinor: fc.bigInt({ min: 1n, max: 10n ** 12n }),
          priceScale: fc.integer({ min: 0, max: 8 }),
          coinScale: fc.integer({ min: 0, max: 18 }),
          legalScale: fc.integer({ min: 0, max: 18 }),
          feePpm: fc.bigInt({ min: 0n, max: 999_999n }),
        }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        (terms, wanted) => {
          const paid = flashPayment({ ...terms, wanted });
          const quote = flashQuote({ ...terms, amount: paid });
          expect(quote.received).toBeGreaterThanOrEqual(wanted);
          expect(quote.fee).toBeGreaterThanOrEqual(0n);
          expect(quote.received + quote.fee).toBe(quote.payout);
          if (paid > 0n) expect(flashQuote({ ...terms, amount: paid - 1n }).received).toBeLessThan(wanted);
        },
      ),
    );
  });
});
