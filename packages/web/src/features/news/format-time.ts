// Times of news and activity in the reader's time zone and language, with the platform's Date and
// Intl.RelativeTimeFormat (every supported browser has both; dayjs is not loaded for it on every page).

const LOCAL_TEXT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A server time: ISO 8601 with a zone (what the API sends), or "YYYY-MM-DD HH:mm[:ss]" read as local time. */
export function parseTime(text: string): Date | null {
  const local = LOCAL_TEXT.exec(text);
  const time = local
    ? new Date(
        Number(local[1]),
        Number(local[2]) - 1,
        Number(local[3]),
        Number(local[4]),
        Number(local[5]),
        Number(local[6] ?? 0),
      )
    : new Date(text);
  return Number.isNaN(time.getTime()) ? null : time;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** YYYY-MM-DD HH:mm in the reader's time zone. */
export function formatMinute(time: Date): string {
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())} ${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/** An update time as YYYY-MM-DD HH:mm in the reader's time zone, or null when there is none. */
export function formatNewsTime(iso: string | null): string | null {
  if (iso === null || iso === '') return null;
  const time = parseTime(iso);
  return time === null ? null : formatMinute(time);
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The unit and count a person would say for an age, rounded as people round ("2 hours ago" at 1 h 40). */
function spoken(ageMs: number): [number, Intl.RelativeTimeFormatUnit] {
  if (ageMs < 45 * SECOND) return [0, 'second'];
  if (ageMs < 45 * MINUTE) return [Math.max(1, Math.round(ageMs / MINUTE)), 'minute'];
  if (ageMs < 22 * HOUR) return [Math.max(1, Math.round(ageMs / HOUR)), 'hour'];
  if (ageMs < 26 * DAY) return [Math.max(1, Math.round(ageMs / DAY)), 'day'];
  if (ageMs < 320 * DAY) return [Math.max(1, Math.round(ageMs / (30 * DAY))), 'month'];
  return [Math.max(1, Math.round(ageMs / (365 * DAY))), 'year'];
}

/** "3 minutes ago" in `locale` (the document's language unless given); a time ahead of `nowMs` reads as now. */
export function timeAgo(
  iso: string,
  nowMs: number,
  locale = document.documentElement.lang || 'en',
): string | null {
  const time = parseTime(iso);
  if (time === null) return null;
  const [count, unit] = spoken(Math.max(0, nowMs - time.getTime()));
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-count, unit);
}
