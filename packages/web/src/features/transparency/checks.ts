import { ApiError } from '../../data/api.ts';
import {
  fetchEntries,
  fetchInclusion,
  fetchLiabilitiesLatest,
  fetchLiabilitiesProof,
  fetchSampleLeaf,
} from '../../data/transparency.ts';
import type { HeldCheckpoint } from './keeper.ts';
import {
  hexToBytes,
  leafHash,
  parseLiabilitiesEntry,
  parsePricesEntry,
  verifyInclusion,
  verifyLiabilitiesProof,
  type LiabilitiesEntry,
} from './verify.ts';

// The checks the pages run, each against a checkpoint the keeper holds: a price sample's hash is in a log
// entry included in it, and a user's liabilities proof adds up to a published entry included in it.

export type Inclusion = 'included' | 'pending' | 'not-included';

/**
 * Is `entry` the leaf at `index` of the held tree? The leaf hash is computed here from the entry's text;
 * the server's path must lead from it to the held root. An entry at or past the held size is 'pending':
 * no checkpoint this browser holds covers it yet.
 */
export async function checkIncluded(
  index: number,
  entry: string,
  held: HeldCheckpoint,
  signal?: AbortSignal,
): Promise<Inclusion> {
  if (index >= held.size) return 'pending';
  const answer = await fetchInclusion(index, held.size, signal);
  const ok = await verifyInclusion(
    await leafHash(entry),
    index,
    held.size,
    answer.proof.map((hash) => hexToBytes(hash)!),
    hexToBytes(held.root)!,
  );
  return ok ? 'included' : 'not-included';
}

export type SampleLogCheck =
  | { result: 'included'; index: number; size: number }
  | { result: 'pending' }
  | { result: 'before-log' }
  | { result: 'mismatch'; reason: 'entry' | 'inclusion' };

/**
 * A price sample in the log: its leaf (found by the server) must be a prices entry naming the sample with
 * exactly `hash` (the hash this browser recomputed from the sample's fields), and included in the held
 * checkpoint. A sample the log has no leaf for was recorded before the log started.
 */
export async function checkSampleInLog(
  symbol: string,
  seq: number,
  hash: string,
  held: HeldCheckpoint,
  signal?: AbortSignal,
): Promise<SampleLogCheck> {
  let leaf: { index: number; entry: string };
  try {
    leaf = await fetchSampleLeaf(symbol, seq, signal);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'rejected') return { result: 'before-log' };
    throw error;
  }
  const parsed = parsePricesEntry(leaf.entry);
  const named = parsed?.samples.find((sample) => sample.symbol === symbol && sample.seq === seq);
  if (named === undefined || named.hash !== hash) return { result: 'mismatch', reason: 'entry' };
  const inclusion = await checkIncluded(leaf.index, leaf.entry, held, signal);
  if (inclusion === 'pending') return { result: 'pending' };
  if (inclusion === 'not-included') return { result: 'mismatch', reason: 'inclusion' };
  return { result: 'included', index: leaf.index, size: held.size };
}

export interface PublishedLiabilities {
  index: number;
  entry: LiabilitiesEntry;
  inclusion: Inclusion;
}

/** The latest liabilities entry and whether it is in the held checkpoint; null when none is published. */
export async function checkLatestLiabilities(
  held: HeldCheckpoint,
  signal?: AbortSignal,
): Promise<PublishedLiabilities | 'malformed' | null> {
  const latest = await fetchLiabilitiesLatest(signal);
  if (latest === null) return null;
  const entry = parseLiabilitiesEntry(latest.entry);
  // The served figures must be the entry's own; the entry is what the log commits to.
  if (
    entry === null ||
    entry.snapshotId !== latest.snapshot_id ||
    entry.root !== latest.root ||
    entry.leaves !== latest.leaves ||
    entry.totals.some((total) => latest.totals[total.column] !== String(total.amount))
  ) {
    return 'malformed';
  }
  return {
    index: latest.index,
    entry,
    inclusion: await checkIncluded(latest.index, latest.entry, held, signal),
  };
}

export type MyLiabilitiesCheck =
  | { result: 'verified'; time: number; snapshotId: string; amounts: { column: string; amount: bigint }[] }
  | { result: 'none' }
  | { result: 'nothing'; time: number }
  | { result: 'pending' }
  | {
      result: 'failed';
      reason:
        'entry' | 'inclusion' | 'malformed' | 'range' | 'path' | 'root' | 'totals' | 'columns' | 'leaves';
    };

/**
 * The signed-in user's balances in the latest snapshot: the proof's leaf and path must recompute the
 * entry's root hash and totals, and the entry must be included in the held checkpoint.
 */
export async function checkMyLiabilities(
  held: HeldCheckpoint,
  signal?: AbortSignal,
): Promise<MyLiabilitiesCheck> {
  const latest = await checkLatestLiabilities(held, signal);
  if (latest === null) return { result: 'none' };
  if (latest === 'malformed') return { result: 'failed', reason: 'entry' };
  const proof = await fetchLiabilitiesProof(latest.entry.snapshotId, signal);
  if (proof === null) return { result: 'nothing', time: latest.entry.time };
  let entry = latest.entry;
  let inclusion = latest.inclusion;
  if (proof.log_index !== latest.index) {
    // A proof in another snapshot than the latest: check that snapshot's entry the same way.
    const [found] = await fetchEntries(proof.log_index, proof.log_index + 1, signal);
    const parsed = found === undefined ? null : parseLiabilitiesEntry(found.entry);
    if (found === undefined || parsed === null) return { result: 'failed', reason: 'entry' };
    entry = parsed;
    inclusion = await checkIncluded(proof.log_index, found.entry, held, signal);
  }
  if (inclusion === 'pending') return { result: 'pending' };
  if (inclusion === 'not-included') return { result: 'failed', reason: 'inclusion' };
  const check = await verifyLiabilitiesProof(proof, entry);
  if (!check.ok) return { result: 'failed', reason: check.reason };
  return {
    result: 'verified',
    time: entry.time,
    snapshotId: entry.snapshotId,
    amounts: proof.columns.map((column, i) => ({ column, amount: proof.amounts[i]! })),
  };
}
