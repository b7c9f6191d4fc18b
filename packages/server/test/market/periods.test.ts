// Bucket boundaries: minutes and hours on epoch multiples; days, weeks (Monday) and months at midnight
// Asia/Shanghai (UTC+8).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketStartMs, nextBucketStartMs, parsePeriod, PERIODS } from '../../src/market/periods.ts';

const utc = (text: string) => Date.parse(`${text}Z`);

describe('bucketStartMs', () => {
  it.each([
    ['1min', '2026-03-04T05:06:59.999', '2026-03-04T05:06:00'],
    ['5min', '2026-03-04T05:09:00', '2026-03-04T05:05:00'],
    ['15min', '2026-03-04T05:44:59', '2026-03-04T05:30:00'],
    ['30min', '2026-03-04T05:44:59', '2026-03-04T05:30:00'],
    ['60min', '2026-03-04T05:59:59', '2026-03-04T05:00:00'],
    // 2026-03-04 15:59 UTC is 23:59 in Shanghai: still the 4th there, which began at 16:00 UTC on the 3rd.
    ['1day', '2026-03-04T15:59:59', '2026-03-03T16:00:00'],
    ['1day', '2026-03-04T16:00:00', '2026-03-04T16:00:00'],
    // 2026-03-02 is a Monday; its Shanghai midnight is 16:00 UTC on Sunday the 1st.
    ['1week', '2026-03-04T12:00:00', '2026-03-01T16:00:00'],
    ['1week', '2026-03-01T15:59:59', '2026-02-22T16:00:00'],
    // March in Shanghai began at 16:00 UTC on 28 February.
    ['1mon', '2026-03-31T15:59:59', '2026-02-28T16:00:00'],
    ['1mon', '2026-03-31T16:00:00', '2026-03-31T16:00:00'],
  ] as const)('%s bucket of %s starts at %s UTC', (period, time, start) => {
    expect(bucketStartMs(period, utc(time))).toBe(utc(start));
  });

  it('is idempotent, contains the time, and the next bucket starts where this one ends', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PERIODS),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (period, time) => {
          const start = bucketStartMs(period, time);
          const next = nextBucketStartMs(period, start);
          expect(start).toBeLessThanOrEqual(time);
          expect(next).toBeGreaterThan(time);
          expect(bucketStartMs(period, start)).toBe(start);
          expect(bucketStartMs(period, next)).toBe(next);
        },
      ),
    );
  });
});

describe('parsePeriod', () => {
  it('accepts the template names and common aliases, and nothing else', () => {
    for (const period of PERIODS) expect(parsePeriod(period)).toBe(period);
    expect(parsePeriod('1H')).toBe('60min');
    expect(parsePeriod('1d')).toBe('1day');
    expect(parsePeriod('1month')).toBe('1mon');
    for (const bad of ['', '2min', '1year', 'constructor', '__proto__'])
      expect(parsePeriod(bad)).toBeUndefined();
  });
});
