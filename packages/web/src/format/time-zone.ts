// The one display time zone of the web app. Every time a screen shows (chart axis and legend, recent
// trades, order lists, records) is written in the zone the reader chose: Asia/Shanghai by default, as the
// specifications set for the chart, the browser's own zone, or UTC. Screens label times with the zone's
// offset ("UTC+8") so that a reader never has to guess which clock a time is on.

export const TIME_ZONE_CHOICES = ['shanghai', 'browser', 'utc'] as const;
export type TimeZoneChoice = (typeof TIME_ZONE_CHOICES)[number];
export const DEFAULT_TIME_ZONE_CHOICE: TimeZoneChoice = 'shanghai';
export const SHANGHAI_TIME_ZONE = 'Asia/Shanghai';

export function isTimeZoneChoice(value: unknown): value is TimeZoneChoice {
  return typeof value === 'string' && (TIME_ZONE_CHOICES as readonly string[]).includes(value);
}

/** The browser's own zone name, or UTC when the platform does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The IANA zone name a choice stands for. */
export function zoneNameOf(choice: TimeZoneChoice, browserZone: string = browserTimeZone()): string {
  if (choice === 'utc') return 'UTC';
  if (choice === 'browser') return browserZone;
  return SHANGHAI_TIME_ZONE;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC in minutes at the instant `atMs` (east positive). */
export function offsetMinutes(zone: string, atMs: number): number {
  let format = offsetFormats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormats.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(atMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wallClockAsUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((wallClockAsUtc - Math.floor(atMs / 1000) * 1000) / 60_000);
}

/** "UTC+8", "UTC-3:30", "UTC" for an offset in minutes. */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const absolute = Math.abs(minutes);
  const hours = Math.floor(absolute / 60);
  const rest = absolute % 60;
  return `UTC${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(zone: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(zone);
  if (format === undefined) {
    // The Swedish locale writes dates in ISO order with a space before the time, as the server does.
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    dateTimeFormats.set(zone, format);
  }
  return format;
}

/** "YYYY-MM-DD HH:mm:ss" of epoch milliseconds in `zone`. */
export function dateTimeIn(zone: string, timeMs: number): string {
  return dateTimeFormat(zone).format(new Date(timeMs));
}

/** "HH:mm:ss" of epoch milliseconds in `zone`. */
export function clockIn(zone: string, timeMs: number): string {
  const text = dateTimeIn(zone, timeMs);
  return text.slice(text.indexOf(' ') + 1);
}

/** "YYYY-MM-DD": the calendar day in `zone` at the instant `timeMs`. */
export function dateIn(zone: string, timeMs: number): string {
  return dateTimeIn(zone, timeMs).slice(0, 10);
}

/**
 * The instant a calendar day ("YYYY-MM-DD") starts in `zone`, in epoch milliseconds. The offset is read
 * twice, the second time at the first guess, so a day that starts next to a daylight-saving change lands
 * on the zone's own midnight.
 */
export function startOfDayIn(zone: string, date: string): number {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const wallClock = Date.UTC(year, month - 1, day);
  const guess = wallClock - offsetMinutes(zone, wallClock) * 60_000;
  return wallClock - offsetMinutes(zone, guess) * 60_000;
}

/** The creation-time bounds of whole calendar days `from` to `to` in `zone`: both inclusive, in ms. */
export function dayRangeIn(zone: string, from: string, to: string): { startMs: number; endMs: number } {
  const [year = 1970, month = 1, day = 1] = to.split('-').map(Number);
  const dayAfter = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
  return { startMs: startOfDayIn(zone, from), endMs: startOfDayIn(zone, dayAfter) - 1 };
}
