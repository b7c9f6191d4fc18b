// Proof of liabilities (docs/transparency.md, "Proof of liabilities"): input schemas and reply shapes of
// GET /api/log/liabilities/latest (public) and GET /api/log/liabilities/proof (the signed-in user's own), and
// the back office's on-demand snapshot. Amounts are unsigned decimal integers of minor units (text: they may
// exceed 2^53); hashes and salts are 64 lowercase hex characters.
import { z } from 'zod';
import { note } from '../schema/fields.ts';

/** A snapshot id: the UTC day (2026-12-07) of the daily one, or day and time (2026-12-07T183005Z) on demand. */
export const LIABILITIES_SNAPSHOT_ID = /^\d{4}-\d{2}-\d{2}(T\d{6}Z)?$/;

/** A snapshot id; missing is `validation.required`, any other text `liabilities.no_snapshot`. */
export const liabilitiesSnapshotId = z.unknown().transform((value, context): string => {
  if (value === undefined || value === null || value === '') {
    context.issues.push({ code: 'custom', message: 'validation.required', input: value });
    return z.NEVER;
  }
  if (typeof value !== 'string' || !LIABILITIES_SNAPSHOT_ID.test(value)) {
    context.issues.push({ code: 'custom', message: 'liabilities.no_snapshot', params: {}, input: value });
    return z.NEVER;
  }
  return value;
});

export const liabilitiesProofInput = z.object({ snapshot: liabilitiesSnapshotId });

/** The back office's on-demand snapshot: why it is taken, kept in the audit log. */
export const liabilitiesCaptureInput = z.object({ reason: note({ min: 3, max: 200 }) });

/** One line of the ledger identity: per currency, users + exchange + outside = 0 (signed decimal integers). */
export interface LiabilitiesIdentityLine {
  currency: string;
  users: string;
  exchange: string;
  outside: string;
}

/** The latest published liabilities entry of the log. */
export interface LiabilitiesLatestReply {
  snapshot_id: string;
  /** The entry's index in the log. */
  index: number;
  /** The capture command's time (ms). */
  time: number;
  /** The engine seq of the capture. */
  seq: number;
  root: string;
  leaves: number;
  columns: string[];
  totals: Record<string, string>;
  identity: LiabilitiesIdentityLine[];
  /** The log entry's text, as hashed into the log. */
  entry: string;
}

/** One sibling on a proof's path: its hash and its sums (one per column). */
export interface LiabilitiesPathStep {
  hash: string;
  sums: string[];
}

/** A user's own inclusion proof in a snapshot's sum tree (log-design.md, "Liabilities sum tree"). */
export interface LiabilitiesProofReply {
  snapshot_id: string;
  log_index: number;
  user_id: string;
  position: number;
  leaves: number;
  columns: string[];
  salt: string;
  amounts: string[];
  path: LiabilitiesPathStep[];
  root: string;
  totals: string[];
}
