// Chart indicators: moving averages, Bollinger bands and MACD over the bars' closes.
//
// DISPLAY ONLY. These functions take JavaScript numbers because their output goes to the chart's canvas
// and to the chart legend's indicator row (each value rounded to the price's decimals, beside its line's
// name) and nowhere else: nothing computed here is shown as a price of an order, stored, sent or used to
// decide anything.
// The bars arrive as exact decimal strings; ChartModel converts each close to a number exactly once, at
// the chart boundary (plotNumber), as it does for the candles themselves. Each result array is aligned
// with its input: null where the window is not yet full.

/** The indicators the chart offers (issue 21). VOL is the volume bars, always computed, only hidden. */
export const INDICATORS = ['ma', 'ema', 'boll', 'vol', 'macd'] as const;
export type Indicator = (typeof INDICATORS)[number];

/** Periods of the MA and EMA lines. */
export const AVERAGE_PERIODS = [7, 25, 99] as const;
export const BOLL_PERIOD = 20;
export const BOLL_WIDTH = 2;
export const MACD_FAST = 12;
export const MACD_SLOW = 26;
export const MACD_SIGNAL = 9;

export type IndicatorLine = Array<number | null>;

/** Simple moving average: the mean of the last `period` values. */
export function sma(values: readonly number[], period: number): IndicatorLine {
  const out: IndicatorLine = [];
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) {
    sum += values[i]!;
    if (i >= period) sum -= values[i - period]!;
    out.push(i >= period - 1 ? sum / period : null);
  }
  return out;
}

/**
 * Exponential moving average with weight 2 / (period + 1), seeded with the simple average of the first
 * `period` values (so it starts where the SMA starts). Nulls at the head of the input are skipped.
 */
export function ema(values: readonly (number | null)[], period: number): IndicatorLine {
  const out: IndicatorLine = [];
  const weight = 2 / (period + 1);
  let seen = 0;
  let seedSum = 0;
  let previous: number | null = null;
  for (const value of values) {
    if (value === null) {
      out.push(null);
      continue;
    }
    seen += 1;
    if (previous === null) {
      seedSum += value;
      if (seen === period) previous = seedSum / period;
      out.push(previous);
      continue;
    }
    previous = value * weight + previous * (1 - weight);
    out.push(previous);
  }
  return out;
}

export interface BollingerBands {
  middle: IndicatorLine;
  upper: IndicatorLine;
  lower: IndicatorLine;
}

/** Bollinger bands: the SMA and `width` population standard deviations above and below it. */
export function bollinger(
  values: readonly number[],
  period = BOLL_PERIOD,
  width = BOLL_WIDTH,
): BollingerBands {
  const middle = sma(values, period);
  const upper: IndicatorLine = [];
  const lower: IndicatorLine = [];
  for (let i = 0; i < values.length; i += 1) {
    const mean = middle[i]!;
    if (mean === null) {
      upper.push(null);
      lower.push(null);
      continue;
    }
    let squares = 0;
    for (let j = i - period + 1; j <= i; j += 1) squares += (values[j]! - mean) ** 2;
    const deviation = Math.sqrt(squares / period);
    upper.push(mean + width * deviation);
    lower.push(mean - width * deviation);
  }
  return { middle, upper, lower };
}

export interface Macd {
  /** DIF: the fast EMA less the slow EMA. */
  macd: IndicatorLine;
  /** DEA: the EMA of DIF over the signal period. */
  signal: IndicatorLine;
  /** DIF less DEA, drawn as bars. */
  histogram: IndicatorLine;
}

export function macd(
  values: readonly number[],
  fast = MACD_FAST,
  slow = MACD_SLOW,
  signalPeriod = MACD_SIGNAL,
): Macd {
  const fastLine = ema(values, fast);
  const slowLine = ema(values, slow);
  const line: IndicatorLine = values.map((_, i) => {
    const a = fastLine[i]!;
    const b = slowLine[i]!;
    return a === null || b === null ? null : a - b;
  });
  const signal = ema(line, signalPeriod);
  const histogram: IndicatorLine = line.map((value, i) => {
    const s = signal[i]!;
    return value === null || s === null ? null : value - s;
  });
  return { macd: line, signal, histogram };
}

/** The chosen indicators, read from the stored preference (unknown names dropped). */
export function parseIndicators(stored: string | null, fallback: readonly Indicator[]): Indicator[] {
  if (stored === null) return [...fallback];
  const names = stored.split(',');
  return INDICATORS.filter((name) => names.includes(name));
}

export function serialiseIndicators(chosen: readonly Indicator[]): string {
  return INDICATORS.filter((name) => chosen.includes(name)).join(',');
}
