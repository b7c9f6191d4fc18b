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

/** GET /stats/home: the home page's figures, counted from the database. */
export interface HomeFiguresReply {
  /** Registered accounts. */
  users: number;
  /** Spot trades with a user on at least one side executed in the last 24 hours. */
  trades_24h: number;
  /** Distinct user accounts with at least one spot trade in the last 24 hours. */
  traders_24h: number;
  /** Markets listed for trading. */
  markets: number;
  /** When these were counted (ISO 8601). */
  as_of: string;
}

/** GET /stats/activity: the exchange's aggregate activity over a recent window (counts only, never a user's). */
export interface ActivityReply {
  /** The window the counts cover, in minutes. */
  window_minutes: number;
  /** Spot trades with a user on at least one side. */
  trades: number;
  /** Distinct user accounts on at least one side of those trades. */
  traders: number;
  /** Deposits credited to users. */
  deposits: number;
  /** Withdrawals paid out to users. */
  withdrawals: number;
  /** When these were counted (ISO 8601). */
  as_of: string;
}
