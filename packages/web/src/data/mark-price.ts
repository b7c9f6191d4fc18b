import { ApiError, api } from './api.ts';
import { i18next } from '../i18n/index.ts';
import type { MarkBarPeriod } from '@fairex/shared/api/price.ts';

// The mark and index prices as the trading screens read them (docs/price-record.md): the figures a
// trading answer, a quotation row or a ticker carries, and the mark price's bars for the chart. Kept apart
// from the price record's other calls (price-record.ts), which only the record's own page loads, so the
// trading page's first download stays small.

/**
 * One bar of the mark price (the contract's `MarkBar` tuple, read into named fields): open time in epoch
 * milliseconds and exact decimal strings.
 */
export interface MarkPriceBar {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

/**
 * The periods the mark bars are kept at: the shared contract's, written out here so that the trading page
 * does not load the contract's schemas (and their validator) for one list.
 */
export const MARK_BAR_PERIODS = [
  '1min',
  '5min',
  '15min',
  '30min',
  '60min',
  '1day',
] as const satisfies readonly MarkBarPeriod[];
export type { MarkBarPeriod };

export function isMarkBarPeriod(value: string): value is MarkBarPeriod {
  return (MARK_BAR_PERIODS as readonly string[]).includes(value);
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isDecimal(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL.test(value);
}

/** A decimal string, null as sent, or undefined for anything else. */
export function decimalOrNull(value: unknown): string | null | undefined {
  if (value === null) return null;
  return isDecimal(value) ? value : undefined;
}

export function isWhole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function badResponse(): ApiError {
  return new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

function readMarkBar(value: unknown): MarkPriceBar | null {
  if (!Array.isArray(value) || value.length < 5) return null;
  const [time, open, high, low, close] = value as unknown[];
  if (!isWhole(time) || ![open, high, low, close].every(isDecimal)) return null;
  return { time, open, high, low, close } as MarkPriceBar;
}

/** GET /api/price/mark_bars: bars of the mark price (stale samples left out), oldest first. */
export async function fetchMarkBars(
  query: { symbol: string; period: MarkBarPeriod; fromMs: number; toMs: number },
  signal?: AbortSignal,
): Promise<MarkPriceBar[]> {
  const message = await api.get<unknown>(
    '/price/mark_bars',
    { symbol: query.symbol, period: query.period, from: query.fromMs, to: query.toMs },
    signal,
  );
  if (!isRecord(message) || !Array.isArray(message.bars)) throw badResponse();
  // A single unreadable bar is left out: the line is drawn from the bars that can be trusted.
  return message.bars.map(readMarkBar).filter((bar): bar is MarkPriceBar => bar !== null);
}

/** The mark and index prices a trading answer, a quotation row or a ticker carries (null when none yet). */
export interface MarkAndIndex {
  mark: string | null;
  index: string | null;
}

export function readMarkAndIndex(value: unknown): MarkAndIndex {
  if (!isRecord(value)) return { mark: null, index: null };
  return { mark: decimalOrNull(value.mark_price) ?? null, index: decimalOrNull(value.index_price) ?? null };
}

/** How far back the trading page looks for the latest sample; the record has one a second. */
export const LATEST_SAMPLE_WINDOW_MS = 10_000;

/**
 * The mark and index prices of a market's latest sample (GET /api/price/samples over the last few
 * seconds), or null when there is none in that window. The `daymarket` ticker carries them too, but it
 * is pushed on trades (and once a minute otherwise), and a market without trades still has a moving mark.
 */
export async function fetchLatestMarkAndIndex(
  symbol: string,
  nowMs: number,
  signal?: AbortSignal,
): Promise<MarkAndIndex | null> {
  const message = await api.get<unknown>(
    '/price/samples',
    { symbol, from: nowMs - LATEST_SAMPLE_WINDOW_MS },
    signal,
  );
  if (!isRecord(message) || !Array.isArray(message.samples)) throw badResponse();
  const latest: unknown = message.samples.at(-1);
  return latest === undefined ? null : readMarkAndIndex(latest);
}
