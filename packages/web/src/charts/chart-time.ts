import type { UTCTimestamp } from 'lightweight-charts';

// lightweight-charts draws every time as UTC. The specs show bars in Asia/Shanghai time, so each bar
// time is moved forward by Shanghai's offset before it reaches the chart and the chart's UTC labels
// then read as Shanghai wall-clock time. China has kept UTC+8 all year since 1991 (no daylight
// saving), so one constant offset is exact for every bar the exchange can have.

export const CHART_TIME_ZONE = 'Asia/Shanghai';
export const SHANGHAI_OFFSET_SECONDS = 8 * 60 * 60;

/** A bar's open time (milliseconds since the epoch) as the chart's shifted time in seconds. */
export function toChartTime(epochMs: number): UTCTimestamp {
  return (Math.floor(epochMs / 1000) + SHANGHAI_OFFSET_SECONDS) as UTCTimestamp;
}

/** The epoch milliseconds a shifted chart time stands for. */
export function fromChartTime(chartTime: number): number {
  return (chartTime - SHANGHAI_OFFSET_SECONDS) * 1000;
}

/**
 * Formats a shifted chart time as Shanghai wall-clock text. Because the shift is already applied,
 * the formatter reads the value as UTC; the result equals formatting the real instant in Shanghai.
 */
export function chartTimeFormatter(locale: string, withTime: boolean): (chartTime: number) => string {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
  });
  return (chartTime) => format.format(new Date(chartTime * 1000));
}
