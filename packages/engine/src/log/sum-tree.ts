// The liabilities Merkle sum tree (docs/transparency.md, "Proof of liabilities"): each user's amounts (one
// unsigned 64-bit amount per column) become a leaf, every inner node commits to BOTH children's hashes AND
// both children's sums, so the root's sums are the totals the exchange says it owes and no user's amounts
// can be left out of them, or a sibling's sum lowered, without the root hash changing.
//
//   leaf = SHA-256(0x00 || salt (32 bytes) || UTF-8 "user:" + userId || 0x00 || a[0] || a[1] || ...)
//   node = SHA-256(0x01 || left.hash || left.sums || right.hash || right.sums)
//
// with every amount and sum an 8-byte big-endian unsigned integer. An amount below 0 or at or above 2^64,
// and a sum that reaches 2^64, are refused with a SumTreeError before any hash is computed.
//
// The tree has RFC 9162's shape (the tree of n leaves splits at the largest power of two below n). It is
// built level by level: level 0 holds the leaves, node i of level L+1 joins nodes 2i and 2i+1 of level L, and
// the last node of a level with an odd count moves up unchanged. That gives RFC 9162's tree exactly, node i of
// level L covering leaves [i * 2^L, min((i + 1) * 2^L, n)), and a proof is the siblings (i XOR 1) that exist,
// leaf side first, checked with the RFC's inclusion algorithm (2.1.3.2) carrying the sums along.
//
// Pure: no clock, no platform module; sums are bigints or BigUint64Array words, never JavaScript numbers.
import { sha256 } from '../hash/sha256.ts';

/** Amounts and sums must stay below 2^64 (they are written as 8 bytes). */
export const SUM_LIMIT = 1n << 64n;
export const SALT_BYTES = 32;
const HASH_BYTES = 32;
/** The root hash of a snapshot with no leaves (nobody holds anything): SHA-256 of no bytes, as in RFC 9162. */
export const EMPTY_SUM_ROOT: Uint8Array = sha256(new Uint8Array(0));

export type SumTreeErrorCode =
  | 'negative_amount'
  | 'amount_overflow'
  | 'sum_overflow'
  | 'column_count'
  | 'no_leaves'
  | 'salt_length'
  | 'user_id';

/** Why a leaf or tree cannot be built. Thrown before anything is hashed or stored. */
export class SumTreeError extends Error {
  readonly code: SumTreeErrorCode;

  constructor(code: SumTreeErrorCode, message: string) {
    super(message);
    this.name = 'SumTreeError';
    this.code = code;
  }
}

/** One user's leaf: a 32-byte salt, the user id (decimal digits for the exchange's users), amounts by column. */
export interface SumLeaf {
  readonly salt: Uint8Array;
  readonly userId: string;
  readonly amounts: readonly bigint[];
}

/** A node or leaf as a proof carries it: its hash and its sums, one per column. */
export interface SumNode {
  readonly hash: Uint8Array;
  readonly sums: readonly bigint[];
}

const encoder = new TextEncoder();
const USER_ID = /^[0-9A-Za-z_-]{1,64}$/;

function checkAmount(amount: bigint, column: number, userId: string): void {
  if (typeof amount !== 'bigint') throw new SumTreeError('amount_overflow', `amount ${column} is no bigint`);
  if (amount < 0n)
    throw new SumTreeError('negative_amount', `user ${userId}: column ${column} is negative (${amount})`);
  if (amount >= SUM_LIMIT)
    throw new SumTreeError('amount_overflow', `user ${userId}: column ${column} reaches 2^64 (${amount})`);
}

/** The bytes a leaf hashes (without the checks: sumLeafHash checks). */
function leafBytes(salt: Uint8Array, userId: string, amounts: ArrayLike<bigint>): Uint8Array {
  const user = encoder.encode(`user:${userId}`);
  const bytes = new Uint8Array(1 + SALT_BYTES + user.length + 1 + amounts.length * 8);
  bytes.set(salt, 1);
  bytes.set(user, 1 + SALT_BYTES);
  const view = new DataView(bytes.buffer);
  let at = 1 + SALT_BYTES + user.length + 1;
  for (let column = 0; column < amounts.length; column += 1, at += 8)
    view.setBigUint64(at, amounts[column] as bigint);
  return bytes;
}

/** Checks a leaf's salt, user id and amounts; throws SumTreeError. */
export function checkSumLeaf(leaf: SumLeaf, columns: number): void {
  if (!(leaf.salt instanceof Uint8Array) || leaf.salt.length !== SALT_BYTES)
    throw new SumTreeError('salt_length', `user ${leaf.userId}: the salt must be ${SALT_BYTES} bytes`);
  if (typeof leaf.userId !== 'string' || !USER_ID.test(leaf.userId))
    throw new SumTreeError('user_id', `user id ${JSON.stringify(leaf.userId)} is not 1-64 letters or digits`);
  if (leaf.amounts.length !== columns)
    throw new SumTreeError(
      'column_count',
      `user ${leaf.userId}: ${leaf.amounts.length} amounts for ${columns} columns`,
    );
  leaf.amounts.forEach((amount, column) => checkAmount(amount, column, leaf.userId));
}

/**
 * Checks an amount parsed from text (a projection's decimal, a proof's string): 0 <= amount < 2^64.
 * Throws SumTreeError.
 */
export function checkSumAmount(amount: bigint, column: number, userId: string): void {
  checkAmount(amount, column, userId);
}

/** SHA-256(0x00 || salt || "user:" + userId || 0x00 || amounts as 8-byte big-endian). Checks first. */
export function sumLeafHash(leaf: SumLeaf): Uint8Array {
  checkSumLeaf(leaf, leaf.amounts.length);
  return sha256(leafBytes(leaf.salt, leaf.userId, leaf.amounts));
}

/** Column-wise sums of two children; throws SumTreeError when one reaches 2^64. */
export function addSums(left: ArrayLike<bigint>, right: ArrayLike<bigint>): bigint[] {
  if (left.length !== right.length)
    throw new SumTreeError('column_count', `${left.length} sums beside ${right.length}`);
  const sums: bigint[] = [];
  for (let column = 0; column < left.length; column += 1) {
    const sum = (left[column] as bigint) + (right[column] as bigint);
    if (sum >= SUM_LIMIT) throw new SumTreeError('sum_overflow', `column ${column}'s sum reaches 2^64`);
    sums.push(sum);
  }
  return sums;
}

/** SHA-256(0x01 || left.hash || left.sums || right.hash || right.sums), sums 8-byte big-endian each. */
export function sumNodeHash(
  leftHash: Uint8Array,
  leftSums: ArrayLike<bigint>,
  rightHash: Uint8Array,
  rightSums: ArrayLike<bigint>,
): Uint8Array {
  const columns = leftSums.length;
  const side = HASH_BYTES + columns * 8;
  const bytes = new Uint8Array(1 + side * 2);
  const view = new DataView(bytes.buffer);
  bytes[0] = 1;
  bytes.set(leftHash, 1);
  bytes.set(rightHash, 1 + side);
  for (let column = 0; column < columns; column += 1) {
    view.setBigUint64(1 + HASH_BYTES + column * 8, leftSums[column] as bigint);
    view.setBigUint64(1 + side + HASH_BYTES + column * 8, rightSums[column] as bigint);
  }
  return sha256(bytes);
}

// A BigUint64Array's values as 32-bit words, low and high, in the platform's byte order.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const LOW = LITTLE_ENDIAN ? 0 : 1;
const HIGH = LITTLE_ENDIAN ? 1 : 0;
function wordsOf(values: BigUint64Array): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
}

/**
 * Writes an unsigned amount below 2^64 given as decimal text into `into[at]` without a bigint when it is
 * below 2^53 (every realistic amount). Throws SumTreeError for text that is no such amount.
 */
export function setAmountFromText(
  into: BigUint64Array,
  at: number,
  text: string,
  column: number,
  userId: string,
): void {
  if (/^\d{1,15}$/.test(text)) {
    const value = Number(text);
    const words = wordsOf(into);
    words[at * 2 + LOW] = value % 0x1_0000_0000;
    words[at * 2 + HIGH] = Math.floor(value / 0x1_0000_0000);
    return;
  }
  if (!/^-?\d{1,40}$/.test(text))
    throw new SumTreeError('amount_overflow', `user ${userId}: column ${column} is not an integer`);
  const amount = BigInt(text);
  checkAmount(amount, column, userId);
  into[at] = amount;
}

/**
 * The leaf hash of leaf `position` of a leaf level whose amounts are already in `sums` (checked): as
 * sumLeafHash, without a bigint per amount.
 */
export function sumLeafHashAt(
  salt: Uint8Array,
  userId: string,
  sums: BigUint64Array,
  position: number,
  columns: number,
): Uint8Array {
  if (salt.length !== SALT_BYTES)
    throw new SumTreeError('salt_length', `user ${userId}: the salt must be ${SALT_BYTES} bytes`);
  if (!USER_ID.test(userId))
    throw new SumTreeError('user_id', `user id ${JSON.stringify(userId)} is not 1-64 letters or digits`);
  const user = encoder.encode(`user:${userId}`);
  const bytes = new Uint8Array(1 + SALT_BYTES + user.length + 1 + columns * 8);
  bytes.set(salt, 1);
  bytes.set(user, 1 + SALT_BYTES);
  const view = new DataView(bytes.buffer);
  const words = wordsOf(sums);
  let at = 1 + SALT_BYTES + user.length + 1;
  for (let column = 0; column < columns; column += 1, at += 8) {
    const word = (position * columns + column) * 2;
    view.setUint32(at, words[word + HIGH] as number);
    view.setUint32(at + 4, words[word + LOW] as number);
  }
  return sha256(bytes);
}

/** One level of a built tree: `count` hashes (32 bytes each) and sums (`columns` words each). */
export interface SumLevel {
  readonly count: number;
  readonly hashes: Uint8Array;
  readonly sums: BigUint64Array;
}

/** A node's address: node `index` of `level` (level 0 holds the leaves). */
export interface SumNodeAddress {
  readonly level: number;
  readonly index: number;
}

/** The number of levels of a tree of n leaves (1 for one leaf). */
export function sumTreeLevels(leafCount: number): number {
  let levels = 1;
  for (let count = leafCount; count > 1; count = Math.ceil(count / 2)) levels += 1;
  return levels;
}

/**
 * The siblings a proof of leaf `position` in a tree of `leafCount` leaves holds, leaf side first: at each
 * level the node next to the path's, when there is one (the last node of an odd level has none: it moves up).
 */
export function sumProofAddresses(position: number, leafCount: number): SumNodeAddress[] {
  if (!Number.isSafeInteger(position) || !Number.isSafeInteger(leafCount) || position < 0)
    throw new RangeError(`no leaf ${position} in a tree of ${leafCount}`);
  if (position >= leafCount) throw new RangeError(`no leaf ${position} in a tree of ${leafCount}`);
  const out: SumNodeAddress[] = [];
  let index = position;
  let count = leafCount;
  for (let level = 0; count > 1; level += 1) {
    const sibling = index % 2 === 1 ? index - 1 : index + 1;
    if (sibling < count) out.push({ level, index: sibling });
    index = Math.floor(index / 2);
    count = Math.ceil(count / 2);
  }
  return out;
}

/** A built sum tree: every level's hashes and sums. */
export class SumTree {
  readonly columns: number;
  readonly levels: readonly SumLevel[];

  private constructor(columns: number, levels: SumLevel[]) {
    this.columns = columns;
    this.levels = levels;
  }

  /** Builds the tree of these leaves, in this order. Checks everything first; throws SumTreeError. */
  static build(leaves: readonly SumLeaf[], columns: number): SumTree {
    if (!Number.isSafeInteger(columns) || columns < 0)
      throw new SumTreeError('column_count', `${columns} columns`);
    for (const leaf of leaves) checkSumLeaf(leaf, columns);
    const count = leaves.length;
    const hashes = new Uint8Array(count * HASH_BYTES);
    const sums = new BigUint64Array(count * columns);
    leaves.forEach((leaf, position) => {
      hashes.set(sha256(leafBytes(leaf.salt, leaf.userId, leaf.amounts)), position * HASH_BYTES);
      for (let column = 0; column < columns; column += 1)
        sums[position * columns + column] = leaf.amounts[column] as bigint;
    });
    return SumTree.fromLeafLevel({ count, hashes, sums }, columns);
  }

  /**
   * Builds the tree above leaves already hashed (level 0: their hashes and amounts, amounts already checked
   * below 2^64, as a BigUint64Array holds them). Checks every sum before hashing; throws SumTreeError.
   */
  static fromLeafLevel(leafLevel: SumLevel, columns: number): SumTree {
    if (leafLevel.count === 0) throw new SumTreeError('no_leaves', 'a sum tree needs at least one leaf');
    if (
      leafLevel.hashes.length !== leafLevel.count * HASH_BYTES ||
      leafLevel.sums.length !== leafLevel.count * columns
    )
      throw new SumTreeError('column_count', 'the leaf level does not match its count and columns');
    // The totals first: when no column's total reaches 2^64, no partial sum does either (amounts are unsigned).
    const below0 = wordsOf(leafLevel.sums);
    const totals = new Array<bigint>(columns).fill(0n);
    // Sums of the low and high 32-bit words as numbers, folded into bigints every 2^20 rows (exact below 2^53).
    const low = new Array<number>(columns).fill(0);
    const high = new Array<number>(columns).fill(0);
    const fold = () => {
      for (let column = 0; column < columns; column += 1) {
        totals[column] =
          (totals[column] as bigint) +
          (BigInt(high[column] as number) << 32n) +
          BigInt(low[column] as number);
        low[column] = 0;
        high[column] = 0;
      }
    };
    for (let row = 0; row < leafLevel.count; row += 1) {
      for (let column = 0; column < columns; column += 1) {
        const at = (row * columns + column) * 2;
        low[column] = (low[column] as number) + (below0[at + LOW] as number);
        high[column] = (high[column] as number) + (below0[at + HIGH] as number);
      }
      if ((row & 0xfffff) === 0xfffff) fold();
    }
    fold();
    totals.forEach((total, column) => {
      if (total >= SUM_LIMIT)
        throw new SumTreeError('sum_overflow', `column ${column}'s total reaches 2^64 (${total})`);
    });
    const levels: SumLevel[] = [leafLevel];
    let below = leafLevel;
    const side = HASH_BYTES + columns * 8;
    const input = new Uint8Array(1 + side * 2);
    const view = new DataView(input.buffer);
    input[0] = 1;
    // Sums are added as 32-bit word pairs with a carry: no bigint per value (ten million of them for a
    // million users would keep the garbage collector busy for seconds). No sum reaches 2^64 (checked above).
    while (below.count > 1) {
      const count = Math.ceil(below.count / 2);
      const hashes = new Uint8Array(count * HASH_BYTES);
      const sums = new BigUint64Array(count * columns);
      const from = wordsOf(below.sums);
      const to = wordsOf(sums);
      for (let index = 0; index < count; index += 1) {
        const left = index * 2;
        const right = left + 1;
        if (right >= below.count) {
          hashes.set(below.hashes.subarray(left * HASH_BYTES, (left + 1) * HASH_BYTES), index * HASH_BYTES);
          sums.set(below.sums.subarray(left * columns, (left + 1) * columns), index * columns);
          continue;
        }
        input.set(below.hashes.subarray(left * HASH_BYTES, (left + 1) * HASH_BYTES), 1);
        input.set(below.hashes.subarray(right * HASH_BYTES, (right + 1) * HASH_BYTES), 1 + side);
        for (let column = 0; column < columns; column += 1) {
          const a = (left * columns + column) * 2;
          const b = (right * columns + column) * 2;
          const c = (index * columns + column) * 2;
          const aLow = from[a + LOW] as number;
          const aHigh = from[a + HIGH] as number;
          const bLow = from[b + LOW] as number;
          const bHigh = from[b + HIGH] as number;
          view.setUint32(1 + HASH_BYTES + column * 8, aHigh);
          view.setUint32(1 + HASH_BYTES + column * 8 + 4, aLow);
          view.setUint32(1 + side + HASH_BYTES + column * 8, bHigh);
          view.setUint32(1 + side + HASH_BYTES + column * 8 + 4, bLow);
          const sumLow = aLow + bLow;
          const carry = sumLow >= 0x1_0000_0000 ? 1 : 0;
          to[c + LOW] = sumLow - carry * 0x1_0000_0000;
          to[c + HIGH] = aHigh + bHigh + carry;
        }
        hashes.set(sha256(input), index * HASH_BYTES);
      }
      below = { count, hashes, sums };
      levels.push(below);
    }
    return new SumTree(columns, levels);
  }

  get leafCount(): number {
    return (this.levels[0] as SumLevel).count;
  }

  /** Node `index` of `level`. */
  node(level: number, index: number): SumNode {
    const at = this.levels[level];
    if (at === undefined || !Number.isSafeInteger(index) || index < 0 || index >= at.count)
      throw new RangeError(`no node ${index} on level ${level}`);
    return {
      hash: at.hashes.slice(index * HASH_BYTES, (index + 1) * HASH_BYTES),
      sums: Array.from(at.sums.subarray(index * this.columns, (index + 1) * this.columns)),
    };
  }

  /** The root: its hash and its sums (the totals). */
  root(): SumNode {
    return this.node(this.levels.length - 1, 0);
  }

  /** The proof of leaf `position`: its siblings, leaf side first. */
  proof(position: number): SumNode[] {
    return sumProofAddresses(position, this.leafCount).map(({ level, index }) => this.node(level, index));
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** What a user's proof claims, and the root it is checked against. */
export interface SumProofClaim {
  readonly leaf: SumLeaf;
  readonly position: number;
  readonly leafCount: number;
  readonly path: readonly SumNode[];
  readonly rootHash: Uint8Array;
  readonly rootSums: readonly bigint[];
}

/**
 * Whether the path shows the leaf at `position` in the tree of `leafCount` leaves whose root has this hash and
 * these sums (RFC 9162 2.1.3.2, with sums). Any bad amount, sum, overflow or length gives false.
 */
export function verifySumProof(claim: SumProofClaim): boolean {
  const { leaf, position, leafCount, path } = claim;
  const columns = leaf.amounts.length;
  if (!Number.isSafeInteger(position) || !Number.isSafeInteger(leafCount)) return false;
  if (position < 0 || position >= leafCount || claim.rootSums.length !== columns) return false;
  try {
    let hash = sumLeafHash(leaf);
    let sums: readonly bigint[] = leaf.amounts;
    let fn = position;
    let sn = leafCount - 1;
    for (const step of path) {
      if (sn === 0 || step.hash.length !== HASH_BYTES || step.sums.length !== columns) return false;
      step.sums.forEach((sum, column) => checkAmount(sum, column, leaf.userId));
      if (fn % 2 === 1 || fn === sn) {
        const next = addSums(step.sums, sums);
        hash = sumNodeHash(step.hash, step.sums, hash, sums);
        sums = next;
        if (fn % 2 === 0)
          while (fn % 2 === 0 && fn !== 0) {
            fn = Math.floor(fn / 2);
            sn = Math.floor(sn / 2);
          }
      } else {
        const next = addSums(sums, step.sums);
        hash = sumNodeHash(hash, sums, step.hash, step.sums);
        sums = next;
      }
      fn = Math.floor(fn / 2);
      sn = Math.floor(sn / 2);
    }
    if (sn !== 0 || !equalBytes(hash, claim.rootHash)) return false;
    return sums.every((sum, column) => sum === claim.rootSums[column]);
  } catch (error) {
    if (error instanceof SumTreeError) return false;
    throw error;
  }
}
