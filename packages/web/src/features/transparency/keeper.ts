import { ApiError } from '../../data/api.ts';
import { fetchCheckpoint, fetchConsistency, fetchLogKey } from '../../data/transparency.ts';
import { readStored, writeStored } from '../../data/storage.ts';
import {
  base64ToBytes,
  bytesToBase64,
  hexToBytes,
  parseVerifierKey,
  verifyCheckpoint,
  verifyConsistency,
} from './verify.ts';
import type { VerifierKey } from './verify.ts';

// The checkpoint keeper: this browser as a witness of the exchange's log (issue 42). Per exchange (the
// page's origin) it keeps, in local storage, the log key it saw first (trust on first use: a different key
// later is a warning, never taken silently) and the last checkpoint it verified. On every check it fetches
// the key and the latest checkpoint, verifies the signature, and asks for the consistency proof from the
// size it holds to the new size; only when that verifies does the new checkpoint replace the held one.
// Every proof the pages check is checked against the checkpoint held here, never against a head that came
// with the proof.

/** The query key of the keeper's check: every view of a page (and the login check) shares one run. */
export const CONSISTENCY_KEY = ['transparency', 'consistency'] as const;

/** How long a check stays fresh before a view asks again. */
export const CONSISTENCY_STALE_MS = 30_000;

export interface HeldCheckpoint {
  size: number;
  /** Root hash, lowercase hex. */
  root: string;
  /** The signed note as it was verified. */
  note: string;
  /** When the exchange says it made the checkpoint (the exchange's word: the time is not signed). */
  time: number;
  /** When this browser verified it. */
  verifiedAt: number;
}

interface Witnessed {
  /** The verifier key text seen first. */
  key: string;
  checkpoint: HeldCheckpoint | null;
}

export type Consistency =
  | {
      status: 'ok';
      key: VerifierKey;
      checkpoint: HeldCheckpoint;
      cosigners: string[];
      /** The size this browser held before and verified the new checkpoint against; null on first use. */
      from: number | null;
    }
  | { status: 'fork'; key: VerifierKey; held: HeldCheckpoint; served: HeldCheckpoint }
  | { status: 'key-changed'; heldKey: string; servedKey: string; held: HeldCheckpoint | null }
  | { status: 'invalid'; reason: 'key' | 'malformed' | 'origin' | 'unsigned' | 'signature' | 'mismatch' }
  | { status: 'unsupported' };

function isHeld(value: unknown): value is HeldCheckpoint {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(item.size) &&
    typeof item.root === 'string' &&
    /^[0-9a-f]{64}$/.test(item.root) &&
    typeof item.note === 'string' &&
    typeof item.time === 'number' &&
    typeof item.verifiedAt === 'number'
  );
}

function readAll(): Record<string, Witnessed> {
  const text = readStored('log_witness');
  if (text === null) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const all: Record<string, Witnessed> = {};
    for (const [exchange, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null) continue;
      const { key, checkpoint } = value as Record<string, unknown>;
      if (typeof key !== 'string') continue;
      all[exchange] = { key, checkpoint: isHeld(checkpoint) ? checkpoint : null };
    }
    return all;
  } catch {
    return {};
  }
}

/** What this browser holds for an exchange: the key it saw first and the last checkpoint it verified. */
export function heldFor(exchange: string): Witnessed | null {
  return readAll()[exchange] ?? null;
}

function keep(exchange: string, witnessed: Witnessed): void {
  writeStored('log_witness', JSON.stringify({ ...readAll(), [exchange]: witnessed }));
}

export function currentExchange(): string {
  return globalThis.location.origin;
}

/** A consistency proof the log could not give is as good as a failed one. */
async function consistent(from: HeldCheckpoint, to: HeldCheckpoint, signal?: AbortSignal): Promise<boolean> {
  let proof: string[];
  try {
    proof = await fetchConsistency(from.size, to.size, signal);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'rejected') return false;
    throw error;
  }
  return verifyConsistency(
    from.size,
    to.size,
    hexToBytes(from.root)!,
    hexToBytes(to.root)!,
    proof.map((hash) => hexToBytes(hash)!),
  );
}

/**
 * Fetches the exchange's key and latest checkpoint and checks them against what this browser holds. On
 * success the held checkpoint is the newest one verified; on any failure nothing held changes.
 */
export async function ensureConsistent(
  exchange = currentExchange(),
  signal?: AbortSignal,
): Promise<Consistency> {
  const served = await fetchLogKey(signal);
  const key = await parseVerifierKey(served.key);
  const raw = base64ToBytes(served.public_key);
  if (
    key === null ||
    key.name !== served.origin ||
    raw === null ||
    bytesToBase64(key.publicKey) !== served.public_key
  ) {
    return { status: 'invalid', reason: 'key' };
  }
  const stored = heldFor(exchange);
  if (stored !== null && stored.key !== served.key) {
    return { status: 'key-changed', heldKey: stored.key, servedKey: served.key, held: stored.checkpoint };
  }
  const answer = await fetchCheckpoint(signal);
  const check = await verifyCheckpoint(answer.note, key);
  if (!check.ok) {
    return check.reason === 'unsupported'
      ? { status: 'unsupported' }
      : { status: 'invalid', reason: check.reason };
  }
  if (check.checkpoint.size !== answer.size || check.checkpoint.root !== answer.root) {
    return { status: 'invalid', reason: 'mismatch' };
  }
  const latest: HeldCheckpoint = {
    size: answer.size,
    root: answer.root,
    note: answer.note,
    time: answer.time,
    verifiedAt: Date.now(),
  };
  const held = stored?.checkpoint ?? null;
  if (held === null) {
    keep(exchange, { key: served.key, checkpoint: latest });
    return { status: 'ok', key, checkpoint: latest, cosigners: check.cosigners, from: null };
  }
  if (latest.size === held.size) {
    if (latest.root !== held.root) return { status: 'fork', key, held, served: latest };
    // The same tree; the new note may carry more cosignatures.
    keep(exchange, { key: served.key, checkpoint: latest });
    return { status: 'ok', key, checkpoint: latest, cosigners: check.cosigners, from: held.size };
  }
  if (latest.size > held.size) {
    if (!(await consistent(held, latest, signal))) return { status: 'fork', key, held, served: latest };
    keep(exchange, { key: served.key, checkpoint: latest });
    return { status: 'ok', key, checkpoint: latest, cosigners: check.cosigners, from: held.size };
  }
  // An older checkpoint than the one held (a lagging copy of the log, say) is fine if the held one extends
  // it; the held one stays, and proofs are asked for at its size.
  if (!(await consistent(latest, held, signal))) return { status: 'fork', key, held, served: latest };
  return { status: 'ok', key, checkpoint: held, cosigners: [], from: held.size };
}
