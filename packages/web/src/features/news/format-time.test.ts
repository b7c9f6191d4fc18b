import { describe, expect, it } from 'vitest';
import { formatNewsTime, parseTime, timeAgo } from './format-time.ts';

describe('news and activity times', () => {
  it('reads the API’s ISO times and local "YYYY-MM-DD HH:mm:ss" texts, and nothing else', () => {
    expect(parseTime('2026-11-21T08:00:00.000Z')?.getTime()).toBe(Date.UTC(2026, 10, 21, 8));
    expect(parseTime('2026-11-21 09:30:05')?.getTime()).toBe(new Date(2026, 10, 21, 9, 30, 5).getTime());
    expect(parseTime('yesterday')).toBeNull();
    expect(formatNewsTime('')).toBeNull();
    expect(formatNewsTime(null)).toBeNull();
    expect(formatNewsTime('not a time')).toBeNull();
  });

  it('writes an update time to the minute in the reader’s time zone', () => {
    const local = new Date(2026, 0, 2, 3, 4, 59);
    expect(formatNewsTime(local.toISOString())).toBe('2026-01-02 03:04');
  });

  it('says how long ago in the reader’s language, and never "in a moment" for a clock ahead', () => {
    const now = Date.UTC(2026, 10, 21, 12);
    const at = (ms: number) => new Date(now - ms).toISOString();
    expect(timeAgo(at(10_000), now, 'en')).toBe('now');
    expect(timeAgo(at(-5_000), now, 'en')).toBe('now');
    expect(timeAgo(at(3 * 60_000), now, 'en')).toBe('3 minutes ago');
    expect(timeAgo(at(100 * 60_000), now, 'en')).toBe('2 hours ago');
    expect(timeAgo(at(30 * 3_600_000), now, 'en')).toBe('yesterday');
    expect(timeAgo(at(3 * 60_000), now, 'zh-CN')).toBe('3分钟前');
    expect(timeAgo(at(3 * 60_000), now, 'ja-JP')).toBe('3 分前');
    expect(timeAgo('garbage', now, 'en')).toBeNull();
  });
});
