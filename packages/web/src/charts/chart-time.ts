import type { UTCTimestamp } from 'lightweight-charts';
import { displayTimeZone } from '../app/preferences/preferences.ts';
import { dateTimeIn, offsetMinutes } from '../format/time-zone.ts';

// lightweight-charts draws every time as UTC. The chart shows bars in the display zone (Asia/Shanghai
// unless the reader chose the browser's zone or UTC), so each bar time is moved forward by the zone's
// offset before it reaches the chart and the chart's UTC labels then read as wall-clock time there.
// The offset is the zone's offset when the page loaded, one constant for every bar (the chart's times
// must keep their order): exact for Shanghai (UTC+8 all year since 1991) and UTC; for a browser zone
// with daylight saving, bars from the other side of a change are an hour off, and the label the chart
// shows ("UTC+1") names the offset used.

export const SHANGHAI_OFFSET_SECONDS = 8 * 60 * 60;

let offsetSeconds: number | null = null;

/** The constant offset the chart adds to every time, in seconds. */
export function chartOffsetSeconds(): number {
  offsetSeconds ??= offsetMinutes(displayTimeZone(), Date.now()) * 60;
  return offsetSeconds;
}

/** A bar's open time (milliseconds since the epoch) as the chart's shifted time in seconds. */
export function toChartTime(epochMs: number): UTCTimestamp {
  return (Math.floor(epochMs / 1000) + chartOffsetSeconds()) as UTCTimestamp;
}

/** The epoch milliseconds a shifted chart time stands for. */
export function fromChartTime(chartTime: number): number {
  return (chartTime - chartOffsetSeconds()) * 1000;
}

/**
 * Formats a shifted chart time as wall-clock text in the project's one date format, the one every table
 * uses: "2026-12-07 21:15" (intraday) or "2026-12-07", in every language. Because the shift is already
 * applied, the time is read as UTC; the result equals the real instant written in the display zone.
 */
export function chartTimeFormatter(withTime: boolean): (chartTime: number) => string {
  return (chartTime) => dateTimeIn('UTC', chartTime * 1000).slice(0, withTime ? 16 : 10);
}
