import type { LogEntry } from '@fairex/shared';
import { api } from './api.ts';
import { badResponse, isRecord, isWhole } from './mark-price.ts';

// The exchange's transparency log (docs/transparency.md): its key, its signed checkpoints, the proofs
// between them, its entries, and the liabilities snapshots published in it. These calls only fetch and
// check the shapes; what the answers prove is decided in the browser by features/transparency/, which
// checks every proof against a checkpoint this browser holds. An answer without the documented shape is
// refused rather than guessed at.

const HASH = /^[0-9a-f]{64}$/;
const AMOUNT = /^(0|[1-9]\d{0,19})$/;

function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

function hashes(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every(isHash)) throw badResponse();
  return value;
}

function amounts(value: unknown): bigint[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && AMOUNT.test(item))) {
    throw badResponse();
  }
  return value.map((item: string) => BigInt(item));
}

export interface LogKey {
  origin: string;
  /** The verifier key text: name+keyId+base64(0x01 || public key). */
  key: string;
  /** The raw public key, base64. */
  public_key: string;
}

/** GET /api/log/key: the log's public key. */
export async function fetchLogKey(signal?: AbortSignal): Promise<LogKey> {
  const message = await api.get<unknown>('/log/key', undefined, signal);
  if (!isRecord(message)) throw badResponse();
  const { origin, key, public_key } = message;
  if (typeof origin !== 'string' || typeof key !== 'string' || typeof public_key !== 'string') {
    throw badResponse();
  }
  return { origin, key, public_key };
}

export interface ServedCheckpoint {
  note: string;
  size: number;
  root: string;
  /** When the exchange says it made the checkpoint (not signed). */
  time: number;
}

/** GET /api/log/checkpoint: the latest signed checkpoint with the cosignatures collected for it. */
export async function fetchCheckpoint(signal?: AbortSignal): Promise<ServedCheckpoint> {
  const message = await api.get<unknown>('/log/checkpoint', undefined, signal);
  if (!isRecord(message)) throw badResponse();
  const { note, size, root, time } = message;
  if (typeof note !== 'string' || !isWhole(size) || !isHash(root) || !isWhole(time)) throw badResponse();
  return { note, size, root, time };
}

/** GET /api/log/consistency: the proof that the tree of `to` leaves extends the tree of `from` leaves. */
export async function fetchConsistency(from: number, to: number, signal?: AbortSignal): Promise<string[]> {
  const message = await api.get<unknown>('/log/consistency', { from, to }, signal);
  if (!isRecord(message) || message.from !== from || message.to !== to) throw badResponse();
  return hashes(message.proof);
}

export interface InclusionAnswer {
  index: number;
  size: number;
  leaf_hash: string;
  proof: string[];
}

/** GET /api/log/inclusion: the path from leaf `index` to the root of the tree of `size` leaves. */
export async function fetchInclusion(index: number, size: number, signal?: AbortSignal): Promise<InclusionAnswer> {
  const message = await api.get<unknown>('/log/inclusion', { index, size }, signal);
  if (!isRecord(message) || message.index !== index || message.size !== size || !isHash(message.leaf_hash)) {
    throw badResponse();
  }
  return { index, size, leaf_hash: message.leaf_hash, proof: hashes(message.proof) };
}

/** GET /api/log/entries: entries start..end-1. */
export async function fetchEntries(start: number, end: number, signal?: AbortSignal): Promise<LogEntry[]> {
  const message = await api.get<unknown>('/log/entries', { start, end }, signal);
  if (!isRecord(message) || !Array.isArray(message.entries)) throw badResponse();
  return message.entries.map((item: unknown) => {
    if (!isRecord(item) || !isWhole(item.index)) throw badResponse();
    if (item.kind !== 'prices' && item.kind !== 'liabilities') throw badResponse();
    if (typeof item.entry !== 'string') throw badResponse();
    return { index: item.index, kind: item.kind, entry: item.entry };
  });
}

/** GET /api/log/sample: the leaf holding a price sample. */
export async function fetchSampleLeaf(
  symbol: string,
  seq: number,
  signal?: AbortSignal,
): Promise<{ index: number; entry: string }> {
  const message = await api.get<unknown>('/log/sample', { symbol, seq }, signal);
  if (!isRecord(message) || !isWhole(message.index) || typeof message.entry !== 'string') throw badResponse();
  return { index: message.index, entry: message.entry };
}

export interface LiabilitiesLatest {
  snapshot_id: string;
  index: number;
  time: number;
  seq: number;
  root: string;
  leaves: number;
  columns: string[];
  totals: Record<string, string>;
  identity: unknown;
  /** The log entry's text. */
  entry: string;
}

/** GET /api/log/liabilities/latest: the latest published liabilities snapshot, or null when none yet. */
export async function fetchLiabilitiesLatest(signal?: AbortSignal): Promise<LiabilitiesLatest | null> {
  const message = await api.get<unknown>('/log/liabilities/latest', undefined, signal);
  if (message === null) return null;
  if (!isRecord(message)) throw badResponse();
  const { snapshot_id, index, time, seq, root, leaves, columns, totals, identity, entry } = message;
  if (
    (typeof snapshot_id !== 'string' && !isWhole(snapshot_id)) ||
    !isWhole(index) ||
    !isWhole(time) ||
    !isWhole(seq) ||
    !isHash(root) ||
    !isWhole(leaves) ||
    !Array.isArray(columns) ||
    !columns.every((column) => typeof column === 'string') ||
    !isRecord(totals) ||
    typeof entry !== 'string'
  ) {
    throw badResponse();
  }
  const totalTexts: Record<string, string> = {};
  for (const [column, amount] of Object.entries(totals)) {
    if (typeof amount !== 'string' || !AMOUNT.test(amount)) throw badResponse();
    totalTexts[column] = amount;
  }
  return {
    snapshot_id: String(snapshot_id),
    index,
    time,
    seq,
    root,
    leaves,
    columns: columns as string[],
    totals: totalTexts,
    identity,
    entry,
  };
}

export interface LiabilitiesProofAnswer {
  snapshot_id: string;
  log_index: number;
  user_id: string;
  position: number;
  leaves: number;
  columns: string[];
  salt: string;
  amounts: bigint[];
  path: { hash: string; sums: bigint[] }[];
}

/**
 * GET /api/log/liabilities/proof (private): the signed-in user's own proof in a snapshot, or null when
 * the user had nothing in it (users whose every amount is zero are left out of the tree).
 */
export async function fetchLiabilitiesProof(
  snapshot: string,
  signal?: AbortSignal,
): Promise<LiabilitiesProofAnswer | null> {
  const message = await api.get<unknown>('/log/liabilities/proof', { snapshot }, signal);
  if (message === null) return null;
  if (!isRecord(message)) throw badResponse();
  const { snapshot_id, log_index, user_id, position, leaves, columns, salt, path } = message;
  if (
    (typeof snapshot_id !== 'string' && !isWhole(snapshot_id)) ||
    !isWhole(log_index) ||
    (typeof user_id !== 'string' && !isWhole(user_id)) ||
    !isWhole(position) ||
    !isWhole(leaves) ||
    !Array.isArray(columns) ||
    !columns.every((column) => typeof column === 'string') ||
    !isHash(salt) ||
    !Array.isArray(path)
  ) {
    throw badResponse();
  }
  return {
    snapshot_id: String(snapshot_id),
    log_index,
    user_id: String(user_id),
    position,
    leaves,
    columns: columns as string[],
    salt,
    amounts: amounts(message.amounts),
    path: path.map((node: unknown) => {
      if (!isRecord(node) || !isHash(node.hash)) throw badResponse();
      return { hash: node.hash, sums: amounts(node.sums) };
    }),
  };
}
