// A liabilities snapshot's sum tree, from its stored amounts and the liabilities secret (docs/transparency.md,
// "Proof of liabilities"): the leaf order and every user's salt are HMAC-SHA-256 under the secret,
//   order key = HMAC(secret, snapshotId || ":" || userId)       leaves ascending by it (bytes)
//   salt      = HMAC(secret, "salt:" || snapshotId || ":" || userId)
// so the order is shuffled afresh for each snapshot and a salt reveals nothing about another user or day.
// The tree itself is the engine's pure sum tree (engine/src/log/sum-tree.ts). Runs in the tree worker
// (tree-worker.ts), never on the server's main thread: a million users take seconds.
//
// Its output is the rows to store, as COPY text in chunks: liability_leaves (position, user, salt, amounts,
// hash) and liability_nodes (level >= 1, index, hash, sums), so that a user's proof is one indexed read.
import { hash } from 'node:crypto';
import {
  EMPTY_SUM_ROOT,
  setAmountFromText,
  SumTree,
  SumTreeError,
  sumLeafHashAt,
} from '@fairex/engine/log/sum-tree.ts';
import type { SumLevel } from '@fairex/engine/log/sum-tree.ts';

/** One page of a snapshot's stored amounts: user ids and, per user, the amounts text ("1,0,25"). */
export interface AmountsPage {
  readonly users: readonly number[];
  readonly amounts: readonly string[];
}

export interface TreeRoot {
  readonly leafCount: number;
  /** Hex. */
  readonly root: string;
  /** The root's sums, one per column (the totals), as decimal text. */
  readonly totals: readonly string[];
}

/** What the builder stores: COPY text chunks of about `CHUNK_ROWS` rows, leaves first, then nodes. */
export interface TreeChunk {
  readonly table: 'liability_leaves' | 'liability_nodes';
  readonly text: string;
}
export type TreeRows = Iterator<TreeChunk>;

export const CHUNK_ROWS = 10_000;

/**
 * HMAC-SHA-256 (RFC 2104) under one key for many messages: the padded keys are made once, and each message
 * costs two one-shot hashes (node:crypto's createHmac sets up a key object per call, several times slower).
 */
export class Hmac {
  readonly #inner: Buffer;
  readonly #outer: Buffer;

  constructor(key: Uint8Array) {
    const block = Buffer.alloc(64);
    (key.length > 64 ? hash('sha256', key, 'buffer') : Buffer.from(key)).copy(block);
    this.#inner = Buffer.from(block.map((byte) => byte ^ 0x36));
    this.#outer = Buffer.from(block.map((byte) => byte ^ 0x5c));
  }

  digest(message: string): Buffer {
    const inner = hash('sha256', Buffer.concat([this.#inner, Buffer.from(message, 'utf8')]), 'buffer');
    return hash('sha256', Buffer.concat([this.#outer, inner]), 'buffer');
  }
}

/** The leaf order's key: HMAC(secret, snapshotId || ":" || userId). */
export function orderKey(hmac: Hmac, snapshotId: string, userId: number): Buffer {
  return hmac.digest(`${snapshotId}:${userId}`);
}

/** The leaf's salt: HMAC(secret, "salt:" || snapshotId || ":" || userId). */
export function leafSalt(hmac: Hmac, snapshotId: string, userId: number): Buffer {
  return hmac.digest(`salt:${snapshotId}:${userId}`);
}

/** Parses and checks one user's amounts text; throws SumTreeError (negative, >= 2^64, wrong count). */
function parseAmounts(text: string, columns: number, userId: number, into: BigUint64Array, at: number): void {
  const parts = text === '' ? [] : text.split(',');
  if (parts.length !== columns)
    throw new SumTreeError('column_count', `user ${userId}: ${parts.length} amounts for ${columns} columns`);
  for (let column = 0; column < columns; column += 1)
    setAmountFromText(into, at + column, parts[column] as string, column, String(userId));
}

function sumsText(sums: BigUint64Array, at: number, columns: number): string {
  let text = '';
  for (let column = 0; column < columns; column += 1) text += (column === 0 ? '' : ',') + sums[at + column];
  return text;
}

/**
 * Builds the tree of a snapshot: checks every amount (a SumTreeError before anything is hashed), orders and
 * salts the leaves, hashes, and gives the root and the rows to store.
 */
export function buildSnapshotTree(
  secret: Uint8Array,
  snapshotId: string,
  columns: number,
  pages: readonly AmountsPage[],
): { root: TreeRoot; rows: TreeRows } {
  const count = pages.reduce((sum, page) => sum + page.users.length, 0);
  if (count === 0)
    return {
      root: {
        leafCount: 0,
        root: Buffer.from(EMPTY_SUM_ROOT).toString('hex'),
        totals: Array(columns).fill('0'),
      },
      rows: [][Symbol.iterator](),
    };
  const users = new Float64Array(count);
  const amounts = new BigUint64Array(count * columns);
  const texts: string[] = new Array<string>(count);
  let at = 0;
  for (const page of pages) {
    for (let row = 0; row < page.users.length; row += 1, at += 1) {
      const userId = page.users[row] as number;
      users[at] = userId;
      texts[at] = page.amounts[row] as string;
      parseAmounts(texts[at] as string, columns, userId, amounts, at * columns);
    }
  }
  // The order: ascending by the HMAC key's bytes (hex compares as the bytes do).
  const hmac = new Hmac(secret);
  const keys = new Array<string>(count);
  for (let index = 0; index < count; index += 1)
    keys[index] = orderKey(hmac, snapshotId, users[index] as number).toString('hex');
  const order = Array.from({ length: count }, (_, index) => index);
  order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : 1));

  const hashes = new Uint8Array(count * 32);
  const sums = new BigUint64Array(count * columns);
  const salts = new Array<string>(count);
  for (let position = 0; position < count; position += 1) {
    const source = order[position] as number;
    const userId = users[source] as number;
    const salt = leafSalt(hmac, snapshotId, userId);
    salts[position] = salt.toString('hex');
    sums.set(amounts.subarray(source * columns, (source + 1) * columns), position * columns);
    hashes.set(sumLeafHashAt(salt, String(userId), sums, position, columns), position * 32);
  }
  const leafLevel: SumLevel = { count, hashes, sums };
  const tree = SumTree.fromLeafLevel(leafLevel, columns);
  const root = tree.root();

  // The rows as COPY text, made a chunk at a time as the builder asks (a million rows of text at once would
  // be hundreds of megabytes).
  function* rows(): Generator<TreeChunk> {
    let chunk = '';
    for (let position = 0; position < count; position += 1) {
      const source = order[position] as number;
      chunk +=
        `${snapshotId}\t${position}\t${users[source]}\t${salts[position]}\t${texts[source]}\t` +
        `${Buffer.from(hashes.subarray(position * 32, position * 32 + 32)).toString('hex')}\n`;
      if ((position + 1) % CHUNK_ROWS === 0 || position === count - 1) {
        yield { table: 'liability_leaves', text: chunk };
        chunk = '';
      }
    }
    let rowCount = 0;
    for (let depth = 1; depth < tree.levels.length; depth += 1) {
      const level = tree.levels[depth] as SumLevel;
      for (let index = 0; index < level.count; index += 1) {
        chunk +=
          `${snapshotId}\t${depth}\t${index}\t` +
          `${Buffer.from(level.hashes.subarray(index * 32, index * 32 + 32)).toString('hex')}\t` +
          `${sumsText(level.sums, index * columns, columns)}\n`;
        rowCount += 1;
        if (rowCount % CHUNK_ROWS === 0) {
          yield { table: 'liability_nodes', text: chunk };
          chunk = '';
        }
      }
    }
    if (chunk !== '') yield { table: 'liability_nodes', text: chunk };
  }
  return {
    root: {
      leafCount: count,
      root: Buffer.from(root.hash).toString('hex'),
      totals: root.sums.map(String),
    },
    rows: rows(),
  };
}
