import { formatDecimal } from '@fairex/shared/decimal.ts';
import { NO_VALUE, groupThousands, readDecimal } from '../../format/index.ts';
import { unitsAt } from './order-math.ts';
import { displayTimeZone, displayZoneLabel } from '../../app/preferences/preferences.ts';
import { clockIn, dateTimeIn } from '../../format/time-zone.ts';

// Display helpers of the trading centre. Prices and quantities arrive at the market's precision and are
// shown as they are, grouped; a balance is cut (never rounded up) to the places shown, so the screen never
// shows more than there is.

/** A decimal text grouped in thousands with exactly `decimals` places, cut toward zero. */
export function formatDown(text: string | null | undefined, decimals: number): string {
  const value = readDecimal(text);
  if (value === null || value.minor < 0n) return value === null ? NO_VALUE : groupThousands(text as string);
  const units = unitsAt(text, decimals);
  return units === null ? NO_VALUE : groupThousands(formatDecimal(units, decimals));
}

/** "HH:mm:ss" of a "YYYY-MM-DD HH:mm:ss" server time. */
export function clockTime(text: string): string {
  const space = text.indexOf(' ');
  return space < 0 ? text : text.slice(space + 1);
}

/** "HH:mm:ss" of epoch milliseconds in the display zone (Asia/Shanghai unless the reader chose another). */
export function clockOf(timeMs: number): string {
  return Number.isFinite(timeMs) ? clockIn(displayTimeZone(), timeMs) : NO_VALUE;
}

/** "YYYY-MM-DD HH:mm:ss" of epoch milliseconds in the display zone. */
export function dateTimeOf(timeMs: number): string {
  return Number.isFinite(timeMs) ? dateTimeIn(displayTimeZone(), timeMs) : NO_VALUE;
}

/** A column title with the display zone's offset: "Time (UTC+8)". */
export function withZone(title: string): string {
  return `${title} (${displayZoneLabel()})`;
}
