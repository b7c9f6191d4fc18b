// Times in list answers are shown as "YYYY-MM-DD HH:mm:ss" in the reader's time zone: the web client sends
// its zone as the `timezone` query parameter; without one (or with one the runtime does not know) the
// specifications' chart zone, Asia/Shanghai, applies.

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
const MAX_CACHED_ZONES = 64;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter !== undefined) return formatter;
  try {
    // The Swedish locale writes dates in ISO order with a space before the time.
    formatter = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    return timeZone === DEFAULT_TIME_ZONE
      ? new Intl.DateTimeFormat('sv-SE')
      : formatterFor(DEFAULT_TIME_ZONE);
  }
  if (formatters.size >= MAX_CACHED_ZONES) formatters.clear();
  formatters.set(timeZone, formatter);
  return formatter;
}

/** A time zone name from a request, if it looks like one; else the default. */
export function requestTimeZone(value: unknown): string {
  return typeof value === 'string' &&
    /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(value) &&
    value.length <= 40
    ? value
    : DEFAULT_TIME_ZONE;
}

/** Milliseconds since the epoch as "YYYY-MM-DD HH:mm:ss" in `timeZone`. */
export function formatTime(timeMs: number, timeZone: string): string {
  return formatterFor(timeZone).format(new Date(timeMs));
}
