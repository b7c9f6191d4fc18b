import { describe, expect, it } from 'vitest';
import { formatRecordTime, fromTimeInput, shortHash, toTimeInput } from './record-format.ts';

describe('price record times', () => {
  it('shows and reads times in UTC+8 whatever the reader’s zone', () => {
    const time = Date.UTC(2026, 10, 25, 20, 5, 9); // 04:05:09 the next day in UTC+8
    expect(formatRecordTime(time)).toBe('2026-11-26 04:05:09');
    expect(toTimeInput(time)).toBe('2026-11-26T04:05:09');
    expect(fromTimeInput('2026-11-26T04:05:09')).toBe(time);
    expect(fromTimeInput('2026-11-26T04:05:09.000')).toBe(time);
    expect(fromTimeInput('2026-11-26T04:05')).toBe(time - 9_000);
    expect(fromTimeInput('')).toBeNull();
    expect(fromTimeInput('26/11/2026 04:05')).toBeNull();
  });

  it('shortens a hash to its ends', () => {
    expect(shortHash('0123456789abcdef'.repeat(4))).toBe('01234567…89abcdef');
  });
});
