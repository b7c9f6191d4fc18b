import { describe, expect, it } from 'vitest';
import {
  clockIn,
  dateIn,
  dateTimeIn,
  dayRangeIn,
  offsetLabel,
  offsetMinutes,
  startOfDayIn,
  zoneNameOf,
} from './time-zone.ts';

// 2026-01-15 01:08:22 UTC: the fill of issue 21 that one screen showed as 01:08:22 and another as 09:08:22.
const FILL_MS = Date.UTC(2026, 0, 15, 1, 8, 22);

describe('the display time zone', () => {
  it('names Shanghai by default, the browser zone or UTC on request', () => {
    expect(zoneNameOf('shanghai', 'Europe/Paris')).toBe('Asia/Shanghai');
    expect(zoneNameOf('browser', 'Europe/Paris')).toBe('Europe/Paris');
    expect(zoneNameOf('utc', 'Europe/Paris')).toBe('UTC');
  });

  it('writes one instant on the chosen clock, with the offset as its label', () => {
    expect(dateTimeIn('Asia/Shanghai', FILL_MS)).toBe('2026-01-15 09:08:22');
    expect(clockIn('Asia/Shanghai', FILL_MS)).toBe('09:08:22');
    expect(clockIn('UTC', FILL_MS)).toBe('01:08:22');
    expect(offsetLabel(offsetMinutes('Asia/Shanghai', FILL_MS))).toBe('UTC+8');
    expect(offsetLabel(offsetMinutes('UTC', FILL_MS))).toBe('UTC');
    expect(offsetLabel(offsetMinutes('America/New_York', FILL_MS))).toBe('UTC-5');
    expect(offsetLabel(offsetMinutes('Asia/Kolkata', FILL_MS))).toBe('UTC+5:30');
    // Daylight saving moves a browser zone's offset with the date.
    expect(offsetLabel(offsetMinutes('America/New_York', Date.UTC(2026, 6, 1)))).toBe('UTC-4');
  });

  it('turns calendar days of the display zone into inclusive creation-time bounds', () => {
    // The fill is on 15 January in Shanghai and in UTC, but on the 14th in New York.
    expect(dateIn('Asia/Shanghai', FILL_MS)).toBe('2026-01-15');
    expect(dateIn('America/New_York', FILL_MS)).toBe('2026-01-14');
    expect(startOfDayIn('Asia/Shanghai', '2026-01-15')).toBe(Date.UTC(2026, 0, 14, 16));
    expect(startOfDayIn('UTC', '2026-01-15')).toBe(Date.UTC(2026, 0, 15));
    expect(dayRangeIn('Asia/Shanghai', '2026-01-15', '2026-01-15')).toEqual({
      startMs: Date.UTC(2026, 0, 14, 16),
      endMs: Date.UTC(2026, 0, 15, 16) - 1,
    });
    // Across a month's end, and on the day New York moves its clocks forward (23 hours long).
    expect(dayRangeIn('UTC', '2026-01-30', '2026-01-31').endMs).toBe(Date.UTC(2026, 1, 1) - 1);
    const spring = dayRangeIn('America/New_York', '2026-03-08', '2026-03-08');
    expect(spring).toEqual({ startMs: Date.UTC(2026, 2, 8, 5), endMs: Date.UTC(2026, 2, 9, 4) - 1 });
    expect(dateIn('America/New_York', spring.startMs)).toBe('2026-03-08');
    expect(dateIn('America/New_York', spring.startMs - 1)).toBe('2026-03-07');
  });
});
