import { displayTimeZone } from '../../app/preferences/preferences.ts';
import { dateTimeIn } from '../../format/time-zone.ts';
import { formatDecimal } from '@fairex/shared/decimal.ts';
import { NO_VALUE, groupThousands, readDecimal } from '../../format/index.ts';

// Display of wallet amounts: the server's decimal strings, grouped in thousands, cut (never rounded up)
// when fewer places are shown, so the screen never shows more than there is.

/** The decimal cut toward zero to `decimals` places and grouped; the missing value for null or junk. */
export function cutText(text: string | null | undefined, decimals: number): string {
  const value = readDecimal(text);
  if (value === null) return NO_VALUE;
  const minor =
    value.scale <= decimals
      ? value.minor * 10n ** BigInt(decimals - value.scale)
      : value.minor / 10n ** BigInt(value.scale - decimals);
  const shown = formatDecimal(minor, decimals);
  return groupThousands(/^-0(?:\.0+)?$/.test(shown) ? shown.slice(1) : shown);
}

/** An amount as the server gave it (at its currency's scale), grouped. */
export function amountText(text: string | null | undefined): string {
  return readDecimal(text) === null ? NO_VALUE : groupThousands(text as string);
}

/** A signed change, with its plus sign kept. */
export function signedText(text: string | null | undefined): string {
  if (typeof text === 'string' && text.startsWith('+')) return `+${amountText(text.slice(1))}`;
  return amountText(text);
}

/** The USD equivalent (USDT counted one to one), to the cent, cut down. */
export function usdText(text: string | null | undefined): string {
  return text === null || text === undefined ? NO_VALUE : `$${cutText(text, 2)}`;
}

/** A BTC total to 8 places. */
export function btcText(text: string | null | undefined): string {
  return text === null || text === undefined ? NO_VALUE : cutText(text, 8);
}

/**
 * A server time in the display zone. A "YYYY-MM-DD HH:mm:ss" text is already on that clock (the server
 * writes list times in the zone each request names); an instant with its zone (ISO text) is converted.
 */
export function timeText(iso: string | null | undefined): string {
  if (!iso) return NO_VALUE;
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(iso)) return iso;
  const timeMs = Date.parse(iso);
  return Number.isFinite(timeMs) ? dateTimeIn(displayTimeZone(), timeMs) : NO_VALUE;
}

/** Whether a decimal text is above zero. */
export function isPositive(text: string | null | undefined): boolean {
  const value = readDecimal(text);
  return value !== null && value.minor > 0n;
}
