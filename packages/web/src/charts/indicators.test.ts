import { describe, expect, it } from 'vitest';
import { bollinger, ema, macd, parseIndicators, serialiseIndicators, sma } from './indicators.ts';

// Expected values are worked out by hand in the comments.
const close = (expected: Array<number | null>, actual: Array<number | null>) => {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, i) => {
    if (value === null) expect(actual[i]).toBeNull();
    else expect(actual[i]).toBeCloseTo(value, 9);
  });
};

describe('sma', () => {
  it('averages the last n values and is null until the window is full', () => {
    // (1+2+3)/3 = 2, (2+3+4)/3 = 3, (3+4+5)/3 = 4
    close([null, null, 2, 3, 4], sma([1, 2, 3, 4, 5], 3));
  });
  it('is empty for no values and null throughout when the window never fills', () => {
    expect(sma([], 7)).toEqual([]);
    expect(sma([1, 2], 7)).toEqual([null, null]);
  });
});

describe('ema', () => {
  it('starts at the SMA and weighs each next value by 2/(n+1)', () => {
    // n = 3, k = 0.5; seed (1+2+3)/3 = 2; then 4*0.5 + 2*0.5 = 3; 5*0.5 + 3*0.5 = 4; 10*0.5 + 4*0.5 = 7
    close([null, null, 2, 3, 4, 7], ema([1, 2, 3, 4, 5, 10], 3));
  });
  it('skips nulls at the head', () => {
    // n = 2, k = 2/3; seed (4+6)/2 = 5; then 8*2/3 + 5/3 = 7
    close([null, null, 5, 7], ema([null, 4, 6, 8], 2));
  });
});

describe('bollinger', () => {
  it('puts the bands width population deviations around the SMA', () => {
    // window [2, 4, 6]: mean 4, deviations 4, 0, 4 -> variance 8/3, sd 1.6329931619
    // window [4, 6, 8]: mean 6, same sd
    const sd = Math.sqrt(8 / 3);
    const bands = bollinger([2, 4, 6, 8], 3, 2);
    close([null, null, 4, 6], bands.middle);
    close([null, null, 4 + 2 * sd, 6 + 2 * sd], bands.upper);
    close([null, null, 4 - 2 * sd, 6 - 2 * sd], bands.lower);
  });
  it('has zero width on a flat series', () => {
    const bands = bollinger([5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]);
    expect(bands.upper[19]).toBe(5);
    expect(bands.lower[19]).toBe(5);
    expect(bands.upper[18]).toBeNull();
  });
});

describe('macd', () => {
  it('is fast EMA less slow EMA, its signal the EMA of that, the histogram their difference', () => {
    // fast 2 (k 2/3), slow 3 (k 1/2), signal 2 (k 2/3) over 1, 2, 3, 4, 5, 6
    // fast: -, 1.5, 2.5, 3.5, 4.5, 5.5 (a rising line: each step value*2/3 + previous/3)
    // slow: -, -, 2, 3, 4, 5
    // dif:  -, -, 0.5, 0.5, 0.5, 0.5
    // dea:  -, -, -, 0.5, 0.5, 0.5 (seed (0.5+0.5)/2)
    const result = macd([1, 2, 3, 4, 5, 6], 2, 3, 2);
    close([null, null, 0.5, 0.5, 0.5, 0.5], result.macd);
    close([null, null, null, 0.5, 0.5, 0.5], result.signal);
    close([null, null, null, 0, 0, 0], result.histogram);
  });
  it('turns negative when prices turn down', () => {
    // fast 2, slow 3, signal 2 over 1, 2, 3, 1
    // fast: -, 1.5, 2.5, 1*2/3 + 2.5/3 = 1.5; slow: -, -, 2, 1*0.5 + 2*0.5 = 1.5
    // dif: -, -, 0.5, 0; dea: -, -, -, 0.25; histogram -0.25
    const result = macd([1, 2, 3, 1], 2, 3, 2);
    close([null, null, 0.5, 0], result.macd);
    close([null, null, null, 0.25], result.signal);
    close([null, null, null, -0.25], result.histogram);
  });
});

describe('the stored choice', () => {
  it('reads known names in a fixed order and writes them back', () => {
    expect(parseIndicators(null, ['ma', 'vol'])).toEqual(['ma', 'vol']);
    expect(parseIndicators('macd,x,ma', [])).toEqual(['ma', 'macd']);
    expect(parseIndicators('', ['vol'])).toEqual([]);
    expect(serialiseIndicators(['vol', 'boll'])).toBe('boll,vol');
  });
});
