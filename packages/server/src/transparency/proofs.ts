// Reads of the transparency log for /api/log/* (docs/transparency.md): the latest checkpoint with its
// collected cosignatures, inclusion and consistency proofs and roots computed from the stored perfect
// subtrees (log_nodes), entries by range, and the leaf holding a price sample. A proof first asks merkle.ts
// which nodes it reads (the *Nodes() read plans), fetches them all in one query, then computes from them.
import type { NodeAddress } from '@fairex/engine/log/merkle.ts';
import {
  consistencyProof,
  consistencyProofNodes,
  inclusionProof,
  inclusionProofNodes,
  treeRoot,
  treeRootNodes,
} from '@fairex/engine/log/merkle.ts';
import type { Queryable } from '../store/index.ts';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

export interface StoredCheckpoint {
  size: number;
  root: string;
  timeMs: number;
  /** The log-signed note (no cosignatures). */
  note: string;
}

export type ProofFailure =
  | 'log.no_checkpoint'
  | 'log.beyond_checkpoint'
  | 'log.range_order'
  | 'log.index_beyond_size'
  | 'log.missing_nodes';

export class LogReadError extends Error {
  readonly key: ProofFailure;
  constructor(key: ProofFailure, message: string) {
    super(message);
    this.key = key;
  }
}

type NodeRow = { level: number; idx: bigint | number | string; hash: string };

/** A node store: the stored perfect subtrees of the log, read in one query per proof. */
export class LogNodeStore {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  /** The hashes of the given nodes, all fetched with one query; a node the store lacks is an error. */
  async read(addresses: readonly NodeAddress[]): Promise<(level: number, index: number) => Uint8Array> {
    const found = new Map<string, Uint8Array>();
    if (addresses.length > 0) {
      const { rows } = await this.#db.query<NodeRow>(
        `select n.level, n.idx, n.hash from log_nodes n
           join unnest($1::integer[], $2::bigint[]) as wanted (level, idx)
             on n.level = wanted.level and n.idx = wanted.idx`,
        [addresses.map((node) => node.level), addresses.map((node) => node.index)],
      );
      for (const row of rows) found.set(`${row.level}:${Number(row.idx)}`, Buffer.from(row.hash, 'hex'));
    }
    return (level, index) => {
      const hash = found.get(`${level}:${index}`);
      if (hash === undefined)
        throw new LogReadError('log.missing_nodes', `the log has no node at level ${level}, index ${index}`);
      return hash;
    };
  }

  /** The root of the first `size` leaves. */
  async root(size: number): Promise<string> {
    return toHex(treeRoot(await this.read(treeRootNodes(size)), size));
  }

  async inclusion(index: number, size: number): Promise<{ leafHash: string; proof: string[] }> {
    const addresses = [...inclusionProofNodes(index, size), { level: 0, index }];
    const read = await this.read(addresses);
    return { leafHash: toHex(read(0, index)), proof: inclusionProof(read, index, size).map(toHex) };
  }

  async consistency(from: number, to: number): Promise<string[]> {
    const read = await this.read(consistencyProofNodes(from, to));
    return consistencyProof(read, from, to).map(toHex);
  }
}

type CheckpointRow = {
  size: bigint | number | string;
  root: string;
  time_ms: bigint | number | string;
  note: string;
};

const toCheckpoint = (row: CheckpointRow): StoredCheckpoint => ({
  size: Number(row.size),
  root: row.root,
  timeMs: Number(row.time_ms),
  note: row.note,
});

/** The log's public reads over a store. */
export class LogReads {
  readonly #db: Queryable;
  readonly nodes: LogNodeStore;

  constructor(db: Queryable) {
    this.#db = db;
    this.nodes = new LogNodeStore(db);
  }

  async latestCheckpoint(): Promise<StoredCheckpoint | undefined> {
    const { rows } = await this.#db.query<CheckpointRow>(
      'select size, root, time_ms, note from log_checkpoints order by size desc limit 1',
    );
    return rows[0] === undefined ? undefined : toCheckpoint(rows[0]);
  }

  async checkpoint(size: number): Promise<StoredCheckpoint | undefined> {
    const { rows } = await this.#db.query<CheckpointRow>(
      'select size, root, time_ms, note from log_checkpoints where size = $1',
      [size],
    );
    return rows[0] === undefined ? undefined : toCheckpoint(rows[0]);
  }

  /** The latest checkpoint's note with the cosignature lines of the given witnesses (in their order). */
  async latestWithCosignatures(
    witnesses: readonly string[],
  ): Promise<{ checkpoint: StoredCheckpoint; note: string } | undefined> {
    const checkpoint = await this.latestCheckpoint();
    if (checkpoint === undefined) return undefined;
    if (witnesses.length === 0) return { checkpoint, note: checkpoint.note };
    const { rows } = await this.#db.query<{ witness: string; line: string }>(
      'select witness, line from log_cosignatures where size = $1 and witness = any($2::text[])',
      [checkpoint.size, witnesses],
    );
    const lines = new Map(rows.map((row) => [row.witness, row.line]));
    let note = checkpoint.note;
    for (const witness of witnesses) note += lines.get(witness) ?? '';
    return { checkpoint, note };
  }

  /** The latest checkpoint, or a refusal when there is none yet. */
  async #published(): Promise<StoredCheckpoint> {
    const latest = await this.latestCheckpoint();
    if (latest === undefined) throw new LogReadError('log.no_checkpoint', 'the log has no checkpoint yet');
    return latest;
  }

  /** A consistency proof between two sizes up to the latest checkpoint's. */
  async consistency(from: number, to: number): Promise<string[]> {
    if (from > to) throw new LogReadError('log.range_order', `from ${from} is beyond to ${to}`);
    const latest = await this.#published();
    if (to > latest.size)
      throw new LogReadError('log.beyond_checkpoint', `size ${to} is beyond checkpoint ${latest.size}`);
    return this.nodes.consistency(from, to);
  }

  /** An inclusion proof of leaf `index` in the tree of `size` (up to the latest checkpoint's). */
  async inclusion(index: number, size: number): Promise<{ leafHash: string; proof: string[] }> {
    if (index >= size) throw new LogReadError('log.index_beyond_size', `index ${index} is not below ${size}`);
    const latest = await this.#published();
    if (size > latest.size)
      throw new LogReadError('log.beyond_checkpoint', `size ${size} is beyond checkpoint ${latest.size}`);
    return this.nodes.inclusion(index, size);
  }

  /** Entries [start, end) of the log, at most `limit`. */
  async entries(
    start: number,
    end: number,
  ): Promise<{ index: number; kind: 'prices' | 'liabilities'; entry: string }[]> {
    if (start >= end) throw new LogReadError('log.range_order', `start ${start} is not before end ${end}`);
    const { rows } = await this.#db.query<{
      idx: bigint | number | string;
      kind: 'prices' | 'liabilities';
      entry: string;
    }>('select idx, kind, entry from log_leaves where idx >= $1 and idx < $2 order by idx', [start, end]);
    return rows.map((row) => ({ index: Number(row.idx), kind: row.kind, entry: row.entry }));
  }

  /**
   * The prices leaf holding a market's sample `seq`: its entry has the line "<symbol> <seq> <hash>". The
   * leaf is found by the sample's time (the batch's command time, the entry's "time" line); undefined when
   * the sample was recorded before the log started, or is not recorded.
   */
  async sampleLeaf(
    marketId: number,
    symbol: string,
    seq: number,
  ): Promise<{ index: number; entry: string } | undefined> {
    const { rows } = await this.#db.query<{ idx: bigint | number | string; entry: string }>(
      `select l.idx, l.entry from price_samples s
         join log_leaves l on l.kind = 'prices' and l.time_ms = s.time_ms
        where s.market_id = $1 and s.seq = $2
        order by l.idx`,
      [marketId, seq],
    );
    for (const row of rows) {
      if (row.entry.split('\n').some((line) => line.startsWith(`${symbol} ${seq} `)))
        return { index: Number(row.idx), entry: row.entry };
    }
    return undefined;
  }
}
