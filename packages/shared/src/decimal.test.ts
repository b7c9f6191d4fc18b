import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Rounding } from './decimal.ts';
import {
  applyPpm,
  DecimalError,
  divideRounded,
  divideScaled,
  formatDecimal,
  INT64_MAX,
  mulDiv,
  multiplyScaled,
  parseDecimal,
  rescale,
  tryParseDecimal,
} from './decimal.ts';

const ROUNDINGS: Rounding[] = ['down', 'up', 'floor', 'ceil', 'halfUp', 'halfEven'];
const scale = fc.integer({ min: 0, max: 18 });
const int64 = fc.bigInt({ min: -INT64_MAX, max: INT64_MAX });
const nonZero = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).filter((value) => value !== 0n);
const sign = (value: bigint) => (value > 0n ? 1 : value < 0n ? -1 : 0);

describe('tryParseDecimal', () => {
  it.each([
    ['0', 2, 0n],
    ['1', 2, 100n],
    ['1.5', 2, 150n],
    ['0.01', 2, 1n],
    ['007.10', 2, 710n],
    ['1.500000', 2, 150n],
    ['12345678.12345678', 8, 1234567812345678n],
    ['92233720368.54775807', 8, INT64_MAX],
  ])('parses %s at scale %i', (text, atScale, expected) => {
    expect(tryParseDecimal(text, atScale)).toEqual({ ok: true, value: expected });
  });

  it('parses negative values only when allowed', () => {
    expect(tryParseDecimal('-1.25', 2)).toEqual({ ok: false, code: 'sign' });
    expect(tryParseDecimal('-1.25', 2, { allowNegative: true })).toEqual({ ok: true, value: -125n });
    expect(tryParseDecimal('-0', 2, { allowNegative: true })).toEqual({ ok: true, value: 0n });
  });

  it.each([
    ['', 'empty'],
    ['+1', 'sign'],
    ['-1', 'sign'],
    ['1e5', 'exponent'],
    ['1E-2', 'exponent'],
    ['.5', 'format'],
    ['5.', 'format'],
    ['1.2.3', 'format'],
    [' 1', 'format'],
    ['1 ', 'format'],
    ['1,000', 'format'],
    ['0x10', 'format'],
    ['NaN', 'format'],
    ['Infinity', 'format'],
    ['١٢', 'format'],
    ['--1', 'sign'],
    ['1.005', 'scale'],
    ['0.0000001', 'scale'],
    ['92233720368.54775808', 'range'],
    ['1'.repeat(65), 'range'],
    ['99999999999999999999', 'range'],
  ] as const)('refuses %j with %s', (text, code) => {
    expect(tryParseDecimal(text, 2 + (code === 'range' && text.includes('.') ? 6 : 0))).toEqual({
      ok: false,
      code,
    });
  });

  it('refuses a non-string at run time', () => {
    expect(tryParseDecimal(12 as unknown as string, 2)).toEqual({ ok: false, code: 'format' });
  });

  it('applies min and max in minor units', () => {
    expect(tryParseDecimal('0', 2, { min: 1n })).toEqual({ ok: false, code: 'range' });
    expect(tryParseDecimal('0.01', 2, { min: 1n })).toEqual({ ok: true, value: 1n });
    expect(tryParseDecimal('10.01', 2, { max: 1000n })).toEqual({ ok: false, code: 'range' });
  });

  it('rejects a scale outside 0..30 as a programming error', () => {
    expect(() => tryParseDecimal('1', -1)).toThrow(RangeError);
    expect(() => tryParseDecimal('1', 31)).toThrow(RangeError);
    expect(() => tryParseDecimal('1', 1.5)).toThrow(RangeError);
  });

  it('throws a DecimalError with the code from parseDecimal', () => {
    expect(() => parseDecimal('1e3', 2)).toThrow(DecimalError);
    try {
      parseDecimal('1.001', 2);
    } catch (error) {
      expect((error as DecimalError).code).toBe('scale');
    }
  });

  it('accepts exactly the plain decimal grammar (property)', () => {
    const alphabet = fc.constantFrom('0', '1', '5', '9', '.', '-', '+', 'e', ' ', ',');
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 12 }), scale, (text, atScale) => {
        const result = tryParseDecimal(text, atScale, { allowNegative: true });
        const grammar = /^-?\d+(\.\d+)?$/.test(text);
        if (!grammar) {
          expect(result.ok).toBe(false);
          return;
        }
        const fraction = text.split('.')[1] ?? '';
        const exact = fraction.length <= atScale || /^0*$/.test(fraction.slice(atScale));
        // The text read as a rational number, in minor units (exact when `exact`).
        const negative = text.startsWith('-');
        const digits = text.replace('-', '').replace('.', '');
        const magnitude = (BigInt(digits) * 10n ** BigInt(atScale)) / 10n ** BigInt(fraction.length);
        const inRange = magnitude <= INT64_MAX;
        expect(result).toEqual(
          !exact
            ? { ok: false, code: 'scale' }
            : inRange
              ? { ok: true, value: negative ? -magnitude : magnitude }
              : { ok: false, code: 'range' },
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe('formatDecimal', () => {
  it.each([
    [0n, 2, '0.00'],
    [5n, 2, '0.05'],
    [-5n, 2, '-0.05'],
    [123456n, 0, '123456'],
    [150000000n, 8, '1.50000000'],
    [INT64_MAX, 8, '92233720368.54775807'],
  ])('formats %s at scale %i as %s', (minor, atScale, expected) => {
    expect(formatDecimal(minor, atScale)).toBe(expected);
  });

  it('trims trailing zeros when asked', () => {
    expect(formatDecimal(150000000n, 8, { trim: true })).toBe('1.5');
    expect(formatDecimal(100000000n, 8, { trim: true })).toBe('1');
    expect(formatDecimal(100000000n, 8, { trim: true, minDecimals: 2 })).toBe('1.00');
    expect(formatDecimal(0n, 4, { trim: true })).toBe('0');
  });

  it('round-trips with parseDecimal (property)', () => {
    fc.assert(
      fc.property(int64, scale, fc.boolean(), (minor, atScale, trim) => {
        const text = formatDecimal(minor, atScale, { trim });
        expect(parseDecimal(text, atScale, { allowNegative: true })).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('divideRounded', () => {
  it.each([
    [7n, 2n, { down: 3n, up: 4n, floor: 3n, ceil: 4n, halfUp: 4n, halfEven: 4n }],
    [5n, 2n, { down: 2n, up: 3n, floor: 2n, ceil: 3n, halfUp: 3n, halfEven: 2n }],
    [-5n, 2n, { down: -2n, up: -3n, floor: -3n, ceil: -2n, halfUp: -3n, halfEven: -2n }],
    [-7n, 2n, { down: -3n, up: -4n, floor: -4n, ceil: -3n, halfUp: -4n, halfEven: -4n }],
    [7n, -3n, { down: -2n, up: -3n, floor: -3n, ceil: -2n, halfUp: -2n, halfEven: -2n }],
    [6n, 3n, { down: 2n, up: 2n, floor: 2n, ceil: 2n, halfUp: 2n, halfEven: 2n }],
  ])('%s / %s', (numerator, denominator, expected) => {
    for (const rounding of ROUNDINGS) {
      expect([rounding, divideRounded(numerator, denominator, rounding)]).toEqual([
        rounding,
        expected[rounding],
      ]);
    }
  });

  it('refuses division by zero', () => {
    expect(() => divideRounded(1n, 0n, 'down')).toThrow(RangeError);
  });

  it('rounds in the promised direction and never by a whole unit (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), nonZero, (n, d) => {
        // cmp(q) is the sign of q - n/d, computed exactly.
        const cmp = (q: bigint) => sign(q * d - n) * sign(d);
        const exactSign = sign(n) * sign(d);
        const results = Object.fromEntries(
          ROUNDINGS.map((mode) => [mode, divideRounded(n, d, mode)]),
        ) as Record<Rounding, bigint>;
        expect(cmp(results.floor) <= 0 && cmp(results.floor + 1n) > 0).toBe(true);
        expect(cmp(results.ceil) >= 0 && cmp(results.ceil - 1n) < 0).toBe(true);
        expect(results.down).toBe(exactSign >= 0 ? results.floor : results.ceil);
        expect(results.up).toBe(exactSign >= 0 ? results.ceil : results.floor);
        for (const mode of ['halfUp', 'halfEven'] as const) {
          const q = results[mode];
          const twiceError = 2n * (q * d - n);
          const absD = d < 0n ? -d : d;
          expect(twiceError <= absD && twiceError >= -absD).toBe(true);
          if (twiceError === absD || twiceError === -absD) {
            if (mode === 'halfUp') expect(sign(q) * exactSign >= 0 && cmp(q) * exactSign > 0).toBe(true);
            else expect(q % 2n).toBe(0n);
          }
        }
      }),
      { numRuns: 5000 },
    );
  });
});

describe('scaled arithmetic', () => {
  it('mulDiv rounds the exact product once (property)', () => {
    fc.assert(
      fc.property(int64, int64, nonZero, fc.constantFrom(...ROUNDINGS), (a, b, c, rounding) => {
        expect(mulDiv(a, b, c, rounding)).toBe(divideRounded(a * b, c, rounding));
      }),
    );
  });

  it('rescale is exact upward and divides downward (property)', () => {
    fc.assert(
      fc.property(int64, scale, scale, fc.constantFrom(...ROUNDINGS), (minor, from, to, rounding) => {
        const result = rescale(minor, from, to, rounding);
        if (to >= from) expect(rescale(result, to, from, 'down')).toBe(minor);
        else expect(result).toBe(divideRounded(minor, 10n ** BigInt(from - to), rounding));
      }),
    );
  });

  it('prices a trade: 0.5 BTC at 64,000.25 USDT is 32,000.125 USDT', () => {
    const priceUnits = parseDecimal('64000.25', 2);
    const quantityMinor = parseDecimal('0.5', 8);
    expect(multiplyScaled(priceUnits, 2, quantityMinor, 8, 6, 'down')).toBe(32_000_125_000n);
    expect(divideScaled(32_000_125_000n, 6, priceUnits, 2, 8, 'down')).toBe(quantityMinor);
  });

  it('divideScaled inverts multiplyScaled within one unit (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (price, quantity, priceScale, quantityScale) => {
          const value = multiplyScaled(
            price,
            priceScale,
            quantity,
            quantityScale,
            priceScale + quantityScale,
            'down',
          );
          expect(
            divideScaled(value, priceScale + quantityScale, price, priceScale, quantityScale, 'down'),
          ).toBe(quantity);
        },
      ),
    );
  });

  it('applies a rate in parts per million', () => {
    expect(applyPpm(1_000_000n, 1_000, 'down')).toBe(1_000n);
    expect(applyPpm(999n, 1_000, 'down')).toBe(0n);
    expect(applyPpm(999n, 1_000, 'up')).toBe(1n);
  });
});
