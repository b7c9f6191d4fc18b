// Shared formulas (src/calc): the flash quote and its inverse, as the server and the web use them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flashPayment, flashQuote, minerOutlook } from '../src/calc/index.ts';
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

describe('miner outlook (issue 45)', () => {
  it('values the term output at the price, nets the cost and finds the break-even price', () => {
    // 2 units x 0.00001 BTC a day x 30 days = 0.0006 BTC; at 65,000.00 USDT that is 39.00 USDT; paid 150.00.
    const outlook = minerOutlook({
      units: 2n,
      perUnit: 1_000n,
      days: 30,
      earnScale: 8,
      paid: 15_000n,
      price: 6_500_000n,
    });
    expect(outlook.output).toBe(60_000n);
    expect(outlook.value).toBe(3_900n);
    expect(outlook.net).toBe(-11_100n);
    // 150.00 / 0.0006 = 250,000.00 USDT per BTC.
    expect(outlook.breakEven).toBe(25_000_000n);
  });

  it('rounds the value down and the break-even up, and has no break-even without output', () => {
    const outlook = minerOutlook({ units: 1n, perUnit: 3n, days: 1, earnScale: 2, paid: 10n, price: 1n });
    // 0.03 coin at 0.01 is 0.0003: rounded down to 0; break-even 0.10 / 0.03 = 3.333... rounded up to 3.34.
    expect(outlook).toEqual({ output: 3n, value: 0n, net: -10n, breakEven: 334n });
    expect(minerOutlook({ units: 1n, perUnit: 0n, days: 30, earnScale: 8, paid: 100n, price: 5n })).toEqual({
      output: 0n,
      value: 0n,
      net: -100n,
      breakEven: null,
    });
  });

  it('at the break-even price the value covers the cost, one tick below it does not', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 1_000n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.integer({ min: 1, max: 720 }),
        fc.integer({ min: 0, max: 18 }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        (units, perUnit, days, earnScale, paid) => {
          const terms = { units, perUnit, days, earnScale, paid };
          const breakEven = minerOutlook({ ...terms, price: 0n }).breakEven;
          expect(breakEven).not.toBeNull();
          const at = minerOutlook({ ...terms, price: breakEven ?? 0n });
          // The value at the break-even price covers the cost to within the value's rounding down.
          expect(at.output * (breakEven ?? 0n) >= paid * 10n ** BigInt(earnScale)).toBe(true);
          if ((breakEven ?? 0n) > 0n) {
            const below = minerOutlook({ ...terms, price: (breakEven ?? 0n) - 1n });
            expect(below.output * ((breakEven ?? 0n) - 1n) < paid * 10n ** BigInt(earnScale)).toBe(true);
            expect(below.net).toBeLessThan(0n);
          }
          expect(at.net).toBe(at.value - paid);
        },
      ),
    );
  });
});
