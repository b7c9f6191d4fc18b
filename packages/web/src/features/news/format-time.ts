import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';

dayjs.extend(relativeTime);

/** An update time as the reader's locale writes a date and time, or null when there is none. */
export function formatNewsTime(iso: string | null): string | null {
  if (iso === null || iso === '') return null;
  const time = dayjs(iso);
  return time.isValid() ? time.format('YYYY-MM-DD HH:mm') : null;
}

/** "3 minutes ago", in the reader's language (dayjs's locale follows the interface language). */
export function timeAgo(iso: string, nowMs: number): string | null {
  const time = dayjs(iso);
  if (!time.isValid()) return null;
  // A clock a little ahead of the server's must not read as "in a few seconds".
  return time.isAfter(nowMs) ? dayjs(nowMs).fromNow() : time.from(nowMs);
}
