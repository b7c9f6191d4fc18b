// Chart intervals and their buckets. Minute and hour buckets start at whole multiples of their length since
// the epoch, which is the same wall-clock boundary in UTC and in Asia/Shanghai. Day, week and month buckets
// start at midnight Asia/Shanghai, the chart time zone of the specifications: a day bar runs from 16:00 UTC
// of the day before, a week bar from Monday 00:00 Shanghai time, a month bar from the 1st at 00:00 Shanghai
// time. China has kept UTC+8 all year since 1991, so one constant offset is exact.

export const PERIODS = ['1min', '5min', '15min', '30min', '60min', '1day', '1week', '1mon'] as const;
export type Period = (typeof PERIODS)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const SHANGHAI_OFFSET_MS = 8 * HOUR_MS;

/** Fixed bucket lengths; a month has none (see bucketStartMs). */
const FIXED_LENGTH_MS: Record<Exclude<Period, '1mon'>, number> = {
  '1min': MINUTE_MS,
  '5min': 5 * MINUTE_MS,
  '15min': 15 * MINUTE_MS,
  '30min': 30 * MINUTE_MS,
  '60min': HOUR_MS,
  '1day': DAY_MS,
  '1week': 7 * DAY_MS,
};

/** Names other clients use for the same intervals (Huobi-style and TradingView-style). */
const ALIASES: Record<string, Period> = {
  '1m': '1min',
  '5m': '5min',
  '15m': '15min',
  '30m': '30min',
  '1h': '60min',
  '60m': '60min',
  '1hour': '60min',
  '1d': '1day',
  d: '1day',
  '1w': '1week',
  w: '1week',
  '1mo': '1mon',
  '1month': '1mon',
  m: '1mon',
};

/** The canonical period for a name a client sent, or undefined when it names no interval. */
export function parsePeriod(value: string): Period | undefined {
  const name = value.trim().toLowerCase();
  if ((PERIODS as readonly string[]).includes(name)) return name as Period;
  return Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
}

// 1970-01-05 was a Monday: week buckets count from its Shanghai midnight.
const FIRST_MONDAY_MS = 4 * DAY_MS - SHANGHAI_OFFSET_MS;

/** The start of the bucket of `period` that contains `timeMs`. */
export function bucketStartMs(period: Period, timeMs: number): number {
  switch (period) {
    case '1day':
      return floorTo(timeMs + SHANGHAI_OFFSET_MS, DAY_MS) - SHANGHAI_OFFSET_MS;
    case '1week':
      return floorTo(timeMs - FIRST_MONDAY_MS, FIXED_LENGTH_MS['1week']) + FIRST_MONDAY_MS;
    case '1mon': {
      const local = new Date(timeMs + SHANGHAI_OFFSET_MS);
      return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - SHANGHAI_OFFSET_MS;
    }
    default:
      return floorTo(timeMs, FIXED_LENGTH_MS[period]);
  }
}

/** The start of the bucket after the one that starts at `startMs`. */
export function nextBucketStartMs(period: Period, startMs: number): number {
  if (period !== '1mon') return startMs + FIXED_LENGTH_MS[period];
  const local = new Date(startMs + SHANGHAI_OFFSET_MS);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - SHANGHAI_OFFSET_MS;
}

/** A bucket's nominal length (a month counts as 31 days), for sizing ranges. */
export function nominalLengthMs(period: Period): number {
  return period === '1mon' ? 31 * DAY_MS : FIXED_LENGTH_MS[period];
}

function floorTo(value: number, step: number): number {
  return Math.floor(value / step) * step;
}
