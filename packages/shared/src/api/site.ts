// The small site calls (the home figures, QR codes, uploads): their input schemas and replies, declared once
// for the server that validates with them and the clients.
import { z } from 'zod';
import { integer, optional, text } from '../schema/fields.ts';
import { lengthBetween } from './account-fields.ts';

/** GET /stats/activity: how many of the latest entries (1-20). */
export const statsActivityInput = z.object({ limit: optional(integer({ min: 1, max: 20 })) });

/** Longer texts make codes too dense to scan from a screen; a deposit address or a link fits easily. */
export const QR_TEXT_MAX = 512;

/** /qr_create: the text to draw, kept as given (not trimmed). */
export const qrInput = z.object({ text: text({ max: QR_TEXT_MAX, trim: false }) });

/** GET /upload/image: an upload address as `upload` answered it, or the bare id. */
export const uploadImageInput = z.object({ id: lengthBetween(1, 200) });

/**
 * The least number of accounts a public figure is counted over for it to be shown exactly (docs/limits.md,
 * "Public figures"): a count over 1 to 19 accounts (a share of them, the trades or deposits they made) is
 * answered as null with `below_minimum: true`, and screens say "fewer than 20". Zero is shown as zero: it
 * exposes no one. Demo accounts count for nothing, in any figure.
 */
export const PUBLIC_MINIMUM_ACCOUNTS = 20;

/** What every public figure reply adds: the minimum, and whether a figure was withheld below it. */
export interface PublicMinimum {
  /** PUBLIC_MINIMUM_ACCOUNTS. */
  minimum_accounts: number;
  /** True when a count of this reply is null: counted over more than zero and fewer than the minimum. */
  below_minimum: boolean;
}

/** GET /stats/home: the home page's figures, counted from the database (demo accounts left out). */
export interface HomeFiguresReply extends PublicMinimum {
  /** Registered accounts; null: fewer than the minimum. */
  users: number | null;
  /** Spot trades with a user on at least one side in the last 24 hours; null: fewer than the minimum traders. */
  trades_24h: number | null;
  /** Distinct user accounts with at least one spot trade in the last 24 hours; null: fewer than the minimum. */
  traders_24h: number | null;
  /** Markets listed for trading (not an account figure: always exact). */
  markets: number;
  /** When these were counted (ISO 8601). */
  as_of: string;
}

/**
 * GET /stats/activity: the exchange's aggregate activity over a recent window (counts only, never a user's;
 * demo accounts left out). Each count is null when more than zero and fewer than the minimum accounts are
 * behind it (the traders, the depositing or the withdrawing accounts).
 */
export interface ActivityReply extends PublicMinimum {
  /** The window the counts cover, in minutes. */
  window_minutes: number;
  /** Spot trades with a user on at least one side. */
  trades: number | null;
  /** Distinct user accounts on at least one side of those trades. */
  traders: number | null;
  /** Deposits credited to users. */
  deposits: number | null;
  /** Withdrawals paid out to users. */
  withdrawals: number | null;
  /** When these were counted (ISO 8601). */
  as_of: string;
}
