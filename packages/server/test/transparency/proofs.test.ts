// Proofs from the store agree with merkle.ts: a log of 300 entries is projected from constructed events
// (as the engine emits them), and every inclusion proof, consistency proof and root read from log_nodes, each
// with one query, equals the one merkle.ts computes from the tree in memory and verifies with both the
// engine's checks and the independent verifier's (scripts/verify-prices.ts).
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  nodeHash,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
} from '@fairex/engine/log/merkle.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConsistency, checkInclusion } from '../../../../scripts/verify-prices.ts';
import type { Queryable, Store } from '../../src/store/index.ts';
import { ed25519KeyFromSeed } from '../../src/transparency/note.ts';
import { writeLogEvents } from '../../src/transparency/projection.ts';
import { LogNodeStore, LogReadError, LogReads } from '../../src/transparency/proofs.ts';
import { openTestStore, removeTempDirs } from '../helper.ts';
import { LogBuilder, priceBatches } from './log-events.ts';

const SIZE = 300;
let store: Store;
const log = new LogBuilder('test.example/log');
const key = ed25519KeyFromSeed(new Uint8Array(32).fill(3));
let queries = 0;
const counted: Queryable = {
  query: <T>(text: string, params?: readonly unknown[]) => {
    queries += 1;
    return store.query<T>(text, params);
  },
};

/** merkle.ts's reader over the whole tree in memory: node (level, index) = root of its leaves. */
function memoryReader(leaves: readonly Uint8Array[]) {
  const cache = new Map<string, Uint8Array>();
  const read = (level: number, index: number): Uint8Array => {
    const id = `${level}:${index}`;
    const known = cache.get(id);
    if (known !== undefined) return known;
    const hash =
      level === 0
        ? (leaves[index] as Uint8Array)
        : nodeHash(read(level - 1, index * 2), read(level - 1, index * 2 + 1));
    cache.set(id, hash);
    return hash;
  };
  return read;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (text: string) => Buffer.from(text, 'hex');

beforeAll(async () => {
  store = await openTestStore();
  const events = priceBatches(log, { count: SIZE, startMs: 1_700_000_000_000, every: 7 });
  await store.transaction((tx) => writeLogEvents(tx, events, key, 'copy'));
});

afterAll(async () => {
  await store.close();
  await removeTempDirs();
});

describe('proofs from log_nodes', () => {
  it('equal merkle.ts for every root, in one query each', async () => {
    const leaves = log.entries.map((entry) => leafHash(Buffer.from(entry, 'utf8')));
    const read = memoryReader(leaves);
    const nodes = new LogNodeStore(counted);
    for (const size of [1, 2, 3, 7, 8, 64, 100, 255, 256, 299, 300]) {
      queries = 0;
      expect(await nodes.root(size)).toBe(hex(treeRoot(read, size)));
      expect(queries).toBe(1);
    }
    expect(await nodes.root(SIZE)).toBe(log.root());
  });

  it('equal merkle.ts for inclusion proofs, which both verifiers accept', async () => {
    const leaves = log.entries.map((entry) => leafHash(Buffer.from(entry, 'utf8')));
    const read = memoryReader(leaves);
    const nodes = new LogNodeStore(counted);
    for (const size of [1, 5, 8, 13, 128, 211, 300]) {
      const root = treeRoot(read, size);
      for (const index of [0, 1, Math.floor(size / 2), size - 2, size - 1].filter(
        (at, position, all) => at >= 0 && at < size && all.indexOf(at) === position,
      )) {
        queries = 0;
        const stored = await nodes.inclusion(index, size);
        expect(queries).toBe(1);
        expect(stored.leafHash).toBe(hex(leaves[index] as Uint8Array));
        expect(stored.proof).toEqual(inclusionProof(read, index, size).map(hex));
        const proof = stored.proof.map(bytes);
        expect(verifyInclusion(leaves[index] as Uint8Array, index, size, proof, root)).toBe(true);
        expect(checkInclusion(leaves[index] as Uint8Array, index, size, proof, root)).toBe(true);
      }
    }
  });

  it('equal merkle.ts for consistency proofs, which both verifiers accept', async () => {
    const leaves = log.entries.map((entry) => leafHash(Buffer.from(entry, 'utf8')));
    const read = memoryReader(leaves);
    const nodes = new LogNodeStore(counted);
    const sizes = [0, 1, 2, 3, 4, 7, 8, 9, 63, 64, 65, 150, 256, 299, 300];
    for (const from of sizes)
      for (const to of sizes.filter((size) => size >= from)) {
        queries = 0;
        const stored = await nodes.consistency(from, to);
        expect(queries).toBeLessThanOrEqual(1);
        expect(stored).toEqual(consistencyProof(read, from, to).map(hex));
        const proof = stored.map(bytes);
        const [a, b] = [treeRoot(read, from), treeRoot(read, to)];
        expect(verifyConsistency(from, to, a, b, proof), `${from}->${to}`).toBe(true);
        expect(checkConsistency(from, to, a, b, proof), `${from}->${to}`).toBe(true);
      }
  });

  it('refuses sizes beyond the latest checkpoint and disordered ranges', async () => {
    const reads = new LogReads(store);
    expect((await reads.latestCheckpoint())?.size).toBe(SIZE);
    await expect(reads.consistency(5, SIZE + 1)).rejects.toMatchObject({ key: 'log.beyond_checkpoint' });
    await expect(reads.consistency(6, 5)).rejects.toMatchObject({ key: 'log.range_order' });
    await expect(reads.inclusion(5, 5)).rejects.toMatchObject({ key: 'log.index_beyond_size' });
    await expect(reads.inclusion(0, SIZE + 1)).rejects.toBeInstanceOf(LogReadError);
    expect(await reads.entries(298, 400)).toHaveLength(2);
  });
});
