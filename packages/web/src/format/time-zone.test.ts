import { describe, expect, it } from 'vitest';
import { clockIn, dateTimeIn, offsetLabel, offsetMinutes, zoneNameOf } from './time-zone.ts';

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
});
