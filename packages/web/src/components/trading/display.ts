import { formatDecimal } from '@fairex/shared/decimal.ts';
import { NO_VALUE, groupThousands, readDecimal } from '../../format/index.ts';
import { unitsAt } from './order-math.ts';

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

/** "HH:mm:ss" of epoch milliseconds in the chart's time zone (Asia/Shanghai, spec 01 section 9). */
const clockFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Shanghai',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export function clockOf(timeMs: number): string {
  return Number.isFinite(timeMs) ? clockFormat.format(new Date(timeMs)) : NO_VALUE;
}
