// Times on the price record page are shown and entered in the exchange's display zone, UTC+8 (the
// charts' Asia/Shanghai, which has kept one offset all year since 1991), whatever the reader's own zone.

export const DISPLAY_OFFSET_MS = 8 * 60 * 60 * 1000;

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** "YYYY-MM-DD HH:mm:ss" of epoch milliseconds in UTC+8. */
export function formatRecordTime(timeMs: number): string {
  const shifted = new Date(timeMs + DISPLAY_OFFSET_MS);
  return (
    `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ` +
    `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`
  );
}

/** The value of a datetime-local input ("YYYY-MM-DDTHH:mm:ss") for epoch milliseconds in UTC+8. */
export function toTimeInput(timeMs: number): string {
  return formatRecordTime(timeMs).replace(' ', 'T');
}

/** Epoch milliseconds of a datetime-local input's value read as UTC+8; null when it is not a time. */
export function fromTimeInput(text: string): number | null {
  // Browsers write seconds only when they are not zero, and some add milliseconds (".000").
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/.exec(text.trim());
  if (match === null) return null;
  const [year, month, day, hour, minute, second = '0'] = match.slice(1).map((part) => part ?? '0');
  const utc = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  return Number.isFinite(utc) ? utc - DISPLAY_OFFSET_MS : null;
}

/** The first and last characters of a hash, enough to compare by eye. */
export function shortHash(hash: string): string {
  return hash.length <= 16 ? hash : `${hash.slice(0, 8)}…${hash.slice(-8)}`;
}
