// The transparency log's Merkle tree, as RFC 9162 (Certificate Transparency 2.0, hashing as RFC 6962)
// defines it: a leaf hashes as SHA-256(0x00 || entry), an inner node as SHA-256(0x01 || left || right), the
// tree of n leaves splits at k, the largest power of two below n, and the empty tree's root is SHA-256 of
// nothing. Inclusion and consistency proofs and their checks follow the RFC's algorithms (sections 2.1.3 and
// 2.1.4) step for step.
//
// The log appends with a compact range (the roots of the perfect subtrees that make up the tree, largest
// first: at most one per bit of the size), so the engine keeps O(log n) hashes and an append costs one leaf
// hash plus one node hash per subtree it completes. Every perfect subtree a proof needs is stored once when
// it completes (level, index): the one at level L and index i covers leaves [i * 2^L, (i + 1) * 2^L).
//
// Sizes and indexes are JavaScript numbers up to 2^53 - 1, so this file halves with division, never with
// 32-bit shifts.
import { sha256 } from '../hash/sha256.ts';

export const HASH_BYTES = 32;
/** The root of the empty tree: SHA-256 of no bytes. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** SHA-256(0x00 || entry). */
export function leafHash(entry: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(entry.length + 1);
  bytes.set(entry, 1);
  return sha256(bytes);
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(1 + HASH_BYTES * 2);
  bytes[0] = 1;
  bytes.set(left, 1);
  bytes.set(right, 1 + HASH_BYTES);
  return sha256(bytes);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

const half = (value: number): number => Math.floor(value / 2);
const odd = (value: number): boolean => value % 2 === 1;

/** The largest power of two strictly below n (n >= 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** A perfect subtree completed by an append: level 0 is the leaf itself. */
export type CompletedNode = { readonly level: number; readonly index: number; readonly hash: Uint8Array };

/**
 * Appends a leaf hash to a tree of `size` leaves kept as its compact range (perfect subtree roots, largest
 * first). Returns the new range and every perfect subtree the append completed, lowest level first.
 */
export function appendLeaf(
  range: readonly Uint8Array[],
  size: number,
  leaf: Uint8Array,
): { range: Uint8Array[]; completed: CompletedNode[] } {
  const next = range.slice();
  const completed: CompletedNode[] = [{ level: 0, index: size, hash: leaf }];
  let hash = leaf;
  let level = 0;
  let index = size;
  // Each trailing one bit of the old size is a subtree of the same height waiting for a right sibling.
  for (let bits = size; odd(bits); bits = half(bits)) {
    const left = next.pop() as Uint8Array;
    hash = nodeHash(left, hash);
    level += 1;
    index = half(index);
    completed.push({ level, index, hash });
  }
  next.push(hash);
  return { range: next, completed };
}

/** The root of the tree whose compact range this is. */
export function rangeRoot(range: readonly Uint8Array[]): Uint8Array {
  if (range.length === 0) return EMPTY_ROOT;
  let root = range[range.length - 1] as Uint8Array;
  for (let at = range.length - 2; at >= 0; at -= 1) root = nodeHash(range[at] as Uint8Array, root);
  return root;
}

/** Reads a stored perfect subtree's hash: level L, index i covers leaves [i * 2^L, (i + 1) * 2^L). */
export type NodeReader = (level: number, index: number) => Uint8Array;

/**
 * A read plan: the perfect subtrees whose hashes a proof or root needs. Collecting them first lets a store
 * fetch them in one query; `readPlan` in the functions below then reads each once.
 */
export type NodeAddress = { readonly level: number; readonly index: number };

/** Whether n is a power of two (n >= 1). */
function isPowerOfTwo(n: number): boolean {
  let value = n;
  while (value > 1 && !odd(value)) value = half(value);
  return value === 1;
}

function log2(n: number): number {
  let level = 0;
  for (let value = n; value > 1; value = half(value)) level += 1;
  return level;
}

/**
 * MTH(D[start:start+n]) for a range whose start is a multiple of the largest power of two not above n (every
 * range the RFC's recursions visit is): a stored node when n is a power of two, otherwise split as the RFC
 * splits.
 */
function subtreeRoot(read: NodeReader, start: number, n: number): Uint8Array {
  if (isPowerOfTwo(n)) return read(log2(n), start / n);
  const k = splitPoint(n);
  return nodeHash(subtreeRoot(read, start, k), subtreeRoot(read, start + k, n - k));
}

function subtreeNodes(start: number, n: number, out: NodeAddress[]): void {
  if (isPowerOfTwo(n)) {
    out.push({ level: log2(n), index: start / n });
    return;
  }
  const k = splitPoint(n);
  subtreeNodes(start, k, out);
  subtreeNodes(start + k, n - k, out);
}

/** The root of the first `size` leaves, from stored nodes. */
export function treeRoot(read: NodeReader, size: number): Uint8Array {
  return size === 0 ? EMPTY_ROOT : subtreeRoot(read, 0, size);
}

/** The stored nodes `treeRoot(read, size)` reads. */
export function treeRootNodes(size: number): NodeAddress[] {
  const out: NodeAddress[] = [];
  if (size > 0) subtreeNodes(0, size, out);
  return out;
}

type ProofStep = { start: number; n: number };

// RFC 9162 2.1.3.1: PATH(m, D[n]), as the list of subtrees whose roots make up the proof, leaf side first.
function inclusionSteps(m: number, start: number, n: number, out: ProofStep[]): void {
  if (n <= 1) return;
  const k = splitPoint(n);
  if (m < k) {
    inclusionSteps(m, start, k, out);
    out.push({ start: start + k, n: n - k });
  } else {
    inclusionSteps(m - k, start + k, n - k, out);
    out.push({ start, n: k });
  }
}

// RFC 9162 2.1.4.1: SUBPROOF(m, D[n], b).
function consistencySteps(m: number, start: number, n: number, whole: boolean, out: ProofStep[]): void {
  if (m === n) {
    if (!whole) out.push({ start, n });
    return;
  }
  const k = splitPoint(n);
  if (m <= k) {
    consistencySteps(m, start, k, whole, out);
    out.push({ start: start + k, n: n - k });
  } else {
    consistencySteps(m - k, start + k, n - k, false, out);
    out.push({ start, n: k });
  }
}

function checkSizes(index: number, size: number): void {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size)
    throw new RangeError(`no leaf ${index} in a tree of ${size}`);
}

/** The inclusion proof of leaf `index` in the tree of the first `size` leaves. */
export function inclusionProof(read: NodeReader, index: number, size: number): Uint8Array[] {
  checkSizes(index, size);
  const steps: ProofStep[] = [];
  inclusionSteps(index, 0, size, steps);
  return steps.map((step) => subtreeRoot(read, step.start, step.n));
}

/** The stored nodes `inclusionProof(read, index, size)` reads. */
export function inclusionProofNodes(index: number, size: number): NodeAddress[] {
  checkSizes(index, size);
  const steps: ProofStep[] = [];
  inclusionSteps(index, 0, size, steps);
  const out: NodeAddress[] = [];
  for (const step of steps) subtreeNodes(step.start, step.n, out);
  return out;
}

function checkConsistencySizes(first: number, second: number): void {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second)
    throw new RangeError(`no consistency proof from ${first} to ${second}`);
}

/** The consistency proof between the trees of the first `first` and `second` leaves (empty when equal or 0). */
export function consistencyProof(read: NodeReader, first: number, second: number): Uint8Array[] {
  checkConsistencySizes(first, second);
  if (first === 0 || first === second) return [];
  const steps: ProofStep[] = [];
  consistencySteps(first, 0, second, true, steps);
  return steps.map((step) => subtreeRoot(read, step.start, step.n));
}

/** The stored nodes `consistencyProof(read, first, second)` reads. */
export function consistencyProofNodes(first: number, second: number): NodeAddress[] {
  checkConsistencySizes(first, second);
  if (first === 0 || first === second) return [];
  const steps: ProofStep[] = [];
  consistencySteps(first, 0, second, true, steps);
  const out: NodeAddress[] = [];
  for (const step of steps) subtreeNodes(step.start, step.n, out);
  return out;
}

/** RFC 9162 2.1.3.2: whether `proof` shows leaf hash `leaf` at `index` in the tree of `size` with `root`. */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn))
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalBytes(r, root);
}

/**
 * RFC 9162 2.1.4.2: whether `proof` shows that the tree of `first` leaves with root `firstRoot` is a prefix of
 * the tree of `second` leaves with root `secondRoot`.
 */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second)
    return false;
  if (first === second) return proof.length === 0 && equalBytes(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : proof.slice();
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0] as Uint8Array;
  let sr = path[0] as Uint8Array;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn))
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return equalBytes(fr, firstRoot) && equalBytes(sr, secondRoot) && sn === 0;
}
