// The chart intervals of spec 01 section 3 and spec 02 section 2.5: realtime, 1, 5, 15, 30 and 60
// minutes, one day, one week, one month. "Realtime" is the 1-minute series drawn as a line, the way
// the template's time-share view draws it; every other interval is drawn as candles.

export const CHART_PERIODS = [
  'realtime',
  '1min',
  '5min',
  '15min',
  '30min',
  '60min',
  '1day',
  '1week',
  '1mon',
] as const;

export type ChartPeriod = (typeof CHART_PERIODS)[number];

/** The server's bar periods (`period` of GET /api/currency/new_timeshar and of `kline` pushes). */
export type BarPeriod = Exclude<ChartPeriod, 'realtime'>;

/** Spec 01 section 9: the default chart is the 1-minute one. */
export const DEFAULT_CHART_PERIOD: ChartPeriod = '1min';

export function isChartPeriod(value: unknown): value is ChartPeriod {
  return typeof value === 'string' && (CHART_PERIODS as readonly string[]).includes(value);
}

/** Which server bars a chart interval draws. */
export function barPeriodOf(period: ChartPeriod): BarPeriod {
  return period === 'realtime' ? '1min' : period;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A bar's nominal length, used only to choose how far back history is asked for. */
export const BAR_LENGTH_MS: Record<BarPeriod, number> = {
  '1min': MINUTE_MS,
  '5min': 5 * MINUTE_MS,
  '15min': 15 * MINUTE_MS,
  '30min': 30 * MINUTE_MS,
  '60min': 60 * MINUTE_MS,
  '1day': DAY_MS,
  '1week': 7 * DAY_MS,
  '1mon': 31 * DAY_MS,
};

/** Whether bars of this interval start at a time of day worth showing on the axis. */
export function isIntraday(period: ChartPeriod): boolean {
  return BAR_LENGTH_MS[barPeriodOf(period)] < DAY_MS;
}
