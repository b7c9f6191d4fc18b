import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDecimal } from '@fairex/shared/decimal.ts';
import {
  compareDecimals,
  directionOf,
  formatCompact,
  formatFixed,
  formatPercent,
  formatPrice,
  groupThousands,
  readDecimal,
} from './index.ts';

/** A decimal string with `scale` places from a bigint, the way the server writes them. */
const decimalText = fc
  .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 12 }))
  .map(([minor, scale]) => ({ minor, scale, text: formatDecimal(minor, scale) }));

/** Half away from zero, written independently of the code under test: add half a step, then truncate. */
function referenceRound(minor: bigint, scale: number, decimals: number): bigint {
  if (decimals >= scale) return minor * 10n ** BigInt(decimals - scale);
  const divisor = 10n ** BigInt(scale - decimals);
  const magnitude = minor < 0n ? -minor : minor;
  const rounded = (2n * magnitude + divisor) / (2n * divisor);
  return minor < 0n ? -rounded : rounded;
}

describe('formatFixed', () => {
  it('rounds half away from zero and groups thousands', () => {
    expect(formatFixed('67012.34', 4)).toBe('67,012.3400');
    expect(formatFixed('0.123456', 5)).toBe('0.12346');
    expect(formatFixed('0.123455', 5)).toBe('0.12346');
    expect(formatFixed('0.123454', 5)).toBe('0.12345');
    expect(formatFixed('-1234567.5', 0)).toBe('-1,234,568');
    expect(formatFixed('999.99995', 4)).toBe('1,000.0000');
    expect(formatFixed('7', 2)).toBe('7.00');
  });

  it('never shows a negative zero', () => {
    expect(formatFixed('-0.00001', 4)).toBe('0.0000');
  });

  it('shows a dash for a missing or unreadable value instead of inventing one', () => {
    for (const bad of [undefined, null, '', 'abc', '1e5', '+1', '1.', '.5', 'NaN', '1,000']) {
      expect(formatFixed(bad, 4)).toBe('--');
    }
  });

  it('equals the exact value rounded once, for any decimal', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 10 }), ({ minor, scale, text }, decimals) => {
        const shown = formatFixed(text, decimals).replaceAll(',', '');
        const expected = formatDecimal(referenceRound(minor, scale, decimals), decimals).replace(
          /^-(0(?:\.0+)?)$/,
          '$1',
        );
        expect(shown).toBe(expected);
      }),
    );
  });
});

describe('formatPrice', () => {
  it('writes a pair’s price at the pair’s precision, grouped, whatever places the text came with', () => {
    for (const text of ['65926', '65926.0', '65926.0000', '65926.00000']) {
      expect(formatPrice(text, 2)).toBe('65,926.00');
    }
    expect(formatPrice('0.000123456', 6)).toBe('0.000123');
    expect(formatPrice('1234567.891', 2)).toBe('1,234,567.89');
  });

  it('groups the text as sent until the precision is known, and shows a dash for no price', () => {
    expect(formatPrice('65926.5', undefined)).toBe('65,926.5');
    expect(formatPrice('', 2)).toBe('--');
    expect(formatPrice(null, undefined)).toBe('--');
    expect(formatPrice('1e5', 2)).toBe('--');
  });

  it('gives one text for one price at any scale the server wrote it with', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 4 }),
        (minor, priceScale, extra) => {
          const exact = formatDecimal(minor, priceScale);
          const padded = formatDecimal(minor * 10n ** BigInt(extra), priceScale + extra);
          expect(formatPrice(padded, priceScale)).toBe(formatPrice(exact, priceScale));
          expect(formatPrice(exact, priceScale)).toBe(groupThousands(exact));
        },
      ),
    );
  });
});

describe('groupThousands', () => {
  it('keeps every digit and puts a separator every three integer digits', () => {
    fc.assert(
      fc.property(decimalText, ({ text }) => {
        const grouped = groupThousands(text);
        expect(grouped.replaceAll(',', '')).toBe(text);
        const integer = grouped.replace(/^-/, '').split('.')[0] ?? '';
        const groups = integer.split(',');
        expect(groups.slice(1).every((group) => group.length === 3)).toBe(true);
        expect((groups[0] ?? '').length).toBeGreaterThanOrEqual(1);
        expect((groups[0] ?? '').length).toBeLessThanOrEqual(3);
      }),
    );
  });
});

describe('formatPercent', () => {
  it('signs the change and keeps two places', () => {
    expect(formatPercent('1.254')).toBe('+1.25%');
    expect(formatPercent('1.255')).toBe('+1.26%');
    expect(formatPercent('-0.4')).toBe('-0.40%');
    expect(formatPercent('0')).toBe('0.00%');
    expect(formatPercent('0.001')).toBe('0.00%');
    expect(formatPercent('-0.001')).toBe('0.00%');
    expect(formatPercent('')).toBe('--');
  });
});

describe('formatCompact', () => {
  it('uses K, M and B outside Chinese', () => {
    expect(formatCompact('999', 'en')).toBe('999.00');
    expect(formatCompact('1000', 'en')).toBe('1.00K');
    expect(formatCompact('1234567.89', 'en')).toBe('1.23M');
    expect(formatCompact('999999.9', 'kr')).toBe('1.00M');
    expect(formatCompact('2500000000', 'jp')).toBe('2.50B');
    expect(formatCompact('12345000000000', 'en')).toBe('12,345.00B');
    expect(formatCompact('-1500', 'en')).toBe('-1.50K');
  });

  it('keeps the digits of a small volume instead of showing zero', () => {
    expect(formatCompact('0.0029', 'en')).toBe('0.0029');
    expect(formatCompact('0.5', 'zh')).toBe('0.50');
    expect(formatCompact('0.00000049', 'en')).toBe('0.00');
    expect(formatCompact('0.0000005', 'en')).toBe('0.000001');
    expect(formatCompact('-0.25', 'en')).toBe('-0.25');
    expect(formatCompact('0.999999999', 'en')).toBe('1.00');
  });

  it('uses 万 and 亿 in Chinese, 萬 and 億 in Traditional script', () => {
    expect(formatCompact('9999', 'zh')).toBe('9,999.00');
    expect(formatCompact('12345', 'zh')).toBe('1.23万');
    expect(formatCompact('123456789', 'zh')).toBe('1.23亿');
    expect(formatCompact('99999999.999', 'zh')).toBe('1.00亿');
    expect(formatCompact('12345', 'hk')).toBe('1.23萬');
    expect(formatCompact('123456789', 'hk')).toBe('1.23億');
  });

  it('is the value to within half a step of the unit shown', () => {
    const languages = fc.constantFrom('en', 'zh', 'hk', 'kr', 'jp' as const);
    fc.assert(
      fc.property(decimalText, languages, ({ minor, scale, text }, language) => {
        const shown = formatCompact(text, language);
        const match = /^(-?)([\d,]+\.\d{2,6})(.?)$/u.exec(shown);
        expect(match).not.toBeNull();
        const [, sign = '', digits = '', suffix = ''] = match ?? [];
        const exponent = { '': 0, K: 3, M: 6, B: 9, 万: 4, 萬: 4, 亿: 8, 億: 8 }[suffix];
        expect(exponent).toBeDefined();
        // shown = steps x 10^(exponent - places) and value = minor x 10^-scale, both times 10^(scale + places).
        const places = digits.length - digits.indexOf('.') - 1;
        const shownSteps = BigInt(digits.replaceAll(',', '').replace('.', '')) * (sign === '-' ? -1n : 1n);
        const step = 10n ** BigInt((exponent ?? 0) + scale);
        const error = shownSteps * step - minor * 10n ** BigInt(places);
        expect(2n * (error < 0n ? -error : error) <= step).toBe(true);
      }),
    );
  });
});

describe('compareDecimals and directionOf', () => {
  it('orders by exact value whatever the written scale', () => {
    expect(compareDecimals('1.50', '1.5')).toBe(0);
    expect(compareDecimals('0.10000000000000001', '0.1')).toBe(1);
    expect(compareDecimals('-2', '1')).toBe(-1);
    expect(compareDecimals(undefined, '0')).toBe(-1);
    expect(compareDecimals('x', undefined)).toBe(0);
  });

  it('agrees with bigint order and is antisymmetric', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const scale = Math.max(a.scale, b.scale);
        const left = a.minor * 10n ** BigInt(scale - a.scale);
        const right = b.minor * 10n ** BigInt(scale - b.scale);
        const expected = left === right ? 0 : left < right ? -1 : 1;
        expect(compareDecimals(a.text, b.text)).toBe(expected);
        expect(compareDecimals(b.text, a.text)).toBe(-expected || 0);
      }),
    );
  });

  it('says which way a change points', () => {
    expect(directionOf('0.01')).toBe('up');
    expect(directionOf('-3')).toBe('down');
    expect(directionOf('0.000')).toBe('flat');
    expect(directionOf(undefined)).toBe('flat');
    expect(readDecimal('12.340')).toEqual({ minor: 12340n, scale: 3 });
  });
});
