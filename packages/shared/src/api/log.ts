// The transparency log (docs/transparency.md): input schemas and reply shapes of /api/log/*. Sizes and
// indexes are whole numbers of leaves; hashes are 64 lowercase hex characters; times are milliseconds since
// the epoch; notes are C2SP signed notes (text ending in a newline).
import { z } from 'zod';
import { integer, text } from '../schema/fields.ts';

/** The most entries one /api/log/entries call returns. */
export const LOG_ENTRIES_PER_CALL = 1_000;
const LEAVES_MAX = Number.MAX_SAFE_INTEGER;

export const logConsistencyInput = z.object({
  from: integer({ min: 0, max: LEAVES_MAX }),
  to: integer({ min: 0, max: LEAVES_MAX }),
});

export const logInclusionInput = z.object({
  index: integer({ min: 0, max: LEAVES_MAX }),
  size: integer({ min: 1, max: LEAVES_MAX }),
});

export const logEntriesInput = z.object({
  start: integer({ min: 0, max: LEAVES_MAX }),
  end: integer({ min: 1, max: LEAVES_MAX }),
});

export const logSampleInput = z.object({
  symbol: text({ max: 40 }),
  seq: integer({ min: 1, max: LEAVES_MAX }),
});

/** A note with a witness's cosignature line (a checkpoint is a few hundred bytes; lines of many witnesses fit). */
export const logCosignatureInput = z.object({
  note: text({ max: 8_000, trim: false }),
});

export interface LogKeyMessage {
  origin: string;
  /** The verifier key text: <origin>+<key id hex>+<base64(0x01 || public key)>. */
  key: string;
  /** The raw Ed25519 public key, base64 (32 bytes). */
  public_key: string;
}

export interface LogCheckpointMessage {
  /** The signed note: the log's signature line, then the collected witnesses' cosignature lines. */
  note: string;
  size: number;
  root: string;
  time: number;
}

export interface LogConsistencyMessage {
  from: number;
  to: number;
  proof: string[];
}

export interface LogInclusionMessage {
  index: number;
  size: number;
  leaf_hash: string;
  proof: string[];
}

export interface LogEntry {
  index: number;
  kind: 'prices' | 'liabilities';
  entry: string;
}

export interface LogEntriesMessage {
  entries: LogEntry[];
}

export interface LogSampleMessage {
  index: number;
  entry: string;
}

export interface LogCosignatureMessage {
  size: number;
  witness: string;
}

/** Per currency, the ledger's sums of user accounts, the exchange's own accounts and the outside world. */
export interface LiabilitiesIdentity {
  currency: string;
  /** Signed decimal integers of minor units; users + exchange + outside = 0. */
  users: string;
  exchange: string;
  outside: string;
}
