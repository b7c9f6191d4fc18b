// The browser's own verifier of the exchange's transparency log (docs/transparency.md), written apart from
// the server's and the command line's so that a second implementation checks the first. It uses the
// browser's WebCrypto only: SHA-256 for the Merkle tree (RFC 9162: leaf H(0x00 || entry), node
// H(0x01 || left || right)) and Ed25519 for the checkpoint's signature (C2SP signed-note and
// tlog-checkpoint). It also checks a user's proof in the liabilities sum tree, whose nodes commit to both
// children's hashes and both children's per-column sums.
//
// Every function here is pure: it is given the bytes and the checkpoint to check against and says yes or
// no. Which checkpoint a proof is checked against is the caller's choice (keeper.ts holds it), never a
// head that came inside the proof.

const encoder = new TextEncoder();

export const MAX_AMOUNT = 1n << 64n;

// ---------------------------------------------------------------------------------------------------------
// Bytes

export function hexToBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Standard padded base64 only; anything that does not re-encode to the same text is refused. */
export function base64ToBytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return bytesToBase64(bytes) === text ? bytes : null;
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

export async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concat(...parts)));
}

// ---------------------------------------------------------------------------------------------------------
// RFC 9162 Merkle tree

export const EMPTY_ROOT_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export function leafHash(entry: Uint8Array | string): Promise<Uint8Array> {
  return sha256(Uint8Array.of(0), typeof entry === 'string' ? encoder.encode(entry) : entry);
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Promise<Uint8Array> {
  return sha256(Uint8Array.of(1), left, right);
}

/**
 * Walks an RFC 9162 inclusion path (section 2.1.3.2) from a leaf at `index` of a tree of `size` leaves:
 * `combine(left, right, value)` joins the value so far with the sibling on the side the position gives.
 * Null when the path does not fit the position and size (too long or too short).
 */
export async function walkInclusion<T>(
  index: bigint,
  size: bigint,
  leaf: T,
  path: readonly T[],
  combine: (left: T, right: T) => Promise<T>,
): Promise<T | null> {
  if (index < 0n || index >= size) return null;
  let fn = index;
  let sn = size - 1n;
  let r = leaf;
  for (const p of path) {
    if (sn === 0n) return null;
    if ((fn & 1n) === 1n || fn === sn) {
      r = await combine(p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = await combine(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : null;
}

/** RFC 9162 section 2.1.3.2: is the leaf hash at `index` in the tree of `size` leaves with this root? */
export async function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): Promise<boolean> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size)) return false;
  if (proof.some((node) => node.length !== 32)) return false;
  const computed = await walkInclusion(BigInt(index), BigInt(size), leaf, proof, nodeHash);
  return computed !== null && equalBytes(computed, root);
}

/** RFC 9162 section 2.1.4.2: is the tree of `second` leaves an extension of the tree of `first` leaves? */
export async function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): Promise<boolean> {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) {
    return false;
  }
  if (proof.some((node) => node.length !== 32)) return false;
  if (first === second) return proof.length === 0 && equalBytes(firstRoot, secondRoot);
  // Every tree extends the empty one.
  if (first === 0) return proof.length === 0 && bytesToHex(firstRoot) === EMPTY_ROOT_HEX;
  if (proof.length === 0) return false;
  let path = [...proof];
  let fn = BigInt(first) - 1n;
  let sn = BigInt(second) - 1n;
  // A first tree that is a perfect subtree is its own first node.
  if ((BigInt(first) & (BigInt(first) - 1n)) === 0n) path = [firstRoot, ...path];
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0n) return false;
    if ((fn & 1n) === 1n || fn === sn) {
      fr = await nodeHash(c, fr);
      sr = await nodeHash(c, sr);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      sr = await nodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && equalBytes(fr, firstRoot) && equalBytes(sr, secondRoot);
}

// ---------------------------------------------------------------------------------------------------------
// Signed notes (C2SP signed-note, tlog-checkpoint)

export interface VerifierKey {
  /** The key name; for the log's key, the log's origin. */
  name: string;
  /** The 4-byte key id, as 8 hex characters. */
  keyId: string;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  /** The verifier key text it was read from. */
  text: string;
}

const ED25519_ALGORITHM = 0x01;

/** keyId = SHA-256(name || 0x0A || algorithm || public key)[:4]. */
export async function keyIdOf(name: string, algorithm: number, publicKey: Uint8Array): Promise<Uint8Array> {
  const digest = await sha256(encoder.encode(name), Uint8Array.of(0x0a, algorithm), publicKey);
  return digest.slice(0, 4);
}

function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/** Reads `<name>+<keyId hex>+<base64(0x01 || public key)>`; null when malformed or the id does not match. */
export async function parseVerifierKey(text: string): Promise<VerifierKey | null> {
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  if (first < 0 || second < 0) return null;
  const name = text.slice(0, first);
  const keyId = text.slice(first + 1, second);
  const key = base64ToBytes(text.slice(second + 1));
  if (!validKeyName(name) || !/^[0-9a-f]{8}$/.test(keyId) || key === null) return null;
  if (key.length !== 33 || key[0] !== ED25519_ALGORITHM) return null;
  const publicKey = key.slice(1);
  if (bytesToHex(await keyIdOf(name, ED25519_ALGORITHM, publicKey)) !== keyId) return null;
  return { name, keyId, publicKey, text };
}

export interface NoteSignature {
  name: string;
  keyId: string;
  /** The signature bytes after the key id (64 for Ed25519, 72 for a timestamped cosignature). */
  signature: Uint8Array;
}

export interface Note {
  body: string;
  signatures: NoteSignature[];
}

const SIGNATURE_PREFIX = '\u2014 ';

/** Splits a signed note into its text and its signature lines; null when it is not one. */
export function parseNote(text: string): Note | null {
  const split = text.lastIndexOf('\n\n');
  if (split < 0 || !text.endsWith('\n')) return null;
  const body = text.slice(0, split + 1);
  const lines = text.slice(split + 2, -1).split('\n');
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) return null;
    const [name, encoded, ...rest] = line.slice(SIGNATURE_PREFIX.length).split(' ');
    if (name === undefined || encoded === undefined || rest.length > 0 || !validKeyName(name)) return null;
    const bytes = base64ToBytes(encoded);
    if (bytes === null || bytes.length < 5) return null;
    signatures.push({ name, keyId: bytesToHex(bytes.slice(0, 4)), signature: bytes.slice(4) });
  }
  if (signatures.length === 0) return null;
  return { body, signatures };
}

export interface Checkpoint {
  origin: string;
  size: number;
  /** The tree's root hash, lowercase hex. */
  root: string;
  /** The signed note as it came, signatures included. */
  note: string;
}

/** Reads the body of a checkpoint: origin, decimal size, base64 root, then optional extension lines. */
export function parseCheckpointBody(body: string): Omit<Checkpoint, 'note'> | null {
  const lines = body.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '') return null;
  const [origin, sizeText, rootText] = lines as [string, string, string];
  if (origin === '' || !/^(0|[1-9]\d{0,15})$/.test(sizeText)) return null;
  const size = Number(sizeText);
  const root = base64ToBytes(rootText);
  if (!Number.isSafeInteger(size) || root === null || root.length !== 32) return null;
  return { origin, size, root: bytesToHex(root) };
}

export type CheckpointCheck =
  | { ok: true; checkpoint: Checkpoint; cosigners: string[] }
  | { ok: false; reason: 'malformed' | 'origin' | 'unsigned' | 'signature' | 'unsupported' };

/** Ed25519 verification with WebCrypto; null when this browser cannot do Ed25519. */
export async function ed25519Verify(
  publicKey: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean | null> {
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('raw', concat(publicKey), { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return null;
  }
  return crypto.subtle.verify({ name: 'Ed25519' }, key, concat(signature), concat(message));
}

/**
 * Checks a checkpoint note against the log's key: it must carry a valid signature by that key (name and
 * key id matching) over its text, and its origin must be the key's name. Other signature lines (the
 * witnesses' cosignatures) are listed by name, not checked here.
 */
export async function verifyCheckpoint(noteText: string, key: VerifierKey): Promise<CheckpointCheck> {
  const note = parseNote(noteText);
  const body = note === null ? null : parseCheckpointBody(note.body);
  if (note === null || body === null) return { ok: false, reason: 'malformed' };
  if (body.origin !== key.name) return { ok: false, reason: 'origin' };
  const mine = note.signatures.filter((sig) => sig.name === key.name && sig.keyId === key.keyId);
  if (mine.length === 0) return { ok: false, reason: 'unsigned' };
  for (const sig of mine) {
    if (sig.signature.length !== 64) return { ok: false, reason: 'signature' };
    const valid = await ed25519Verify(key.publicKey, sig.signature, encoder.encode(note.body));
    if (valid === null) return { ok: false, reason: 'unsupported' };
    if (!valid) return { ok: false, reason: 'signature' };
  }
  const cosigners = [
    ...new Set(note.signatures.filter((sig) => sig.name !== key.name).map((sig) => sig.name)),
  ];
  return { ok: true, checkpoint: { ...body, note: noteText }, cosigners };
}

// ---------------------------------------------------------------------------------------------------------
// Log entries

export interface PricesEntry {
  time: number;
  samples: { symbol: string; seq: number; hash: string }[];
}

const DECIMAL = /^(0|[1-9]\d*)$/;

/** Reads a `fairex-log-v1 prices` entry; null when it is not one. */
export function parsePricesEntry(entry: string): PricesEntry | null {
  if (!entry.endsWith('\n')) return null;
  const lines = entry.slice(0, -1).split('\n');
  const time = /^time (0|[1-9]\d{0,15})$/.exec(lines[1] ?? '');
  if (lines[0] !== 'fairex-log-v1 prices' || time === null) return null;
  const samples: PricesEntry['samples'] = [];
  for (const line of lines.slice(2)) {
    const match = /^(\S+) (0|[1-9]\d{0,15}) ([0-9a-f]{64})$/.exec(line);
    if (match === null) return null;
    samples.push({ symbol: match[1]!, seq: Number(match[2]), hash: match[3]! });
  }
  return { time: Number(time[1]), samples };
}

export interface LiabilitiesEntry {
  snapshotId: string;
  seq: number;
  time: number;
  leaves: number;
  root: string;
  totals: { column: string; amount: bigint }[];
  identity: { currency: string; users: bigint; exchange: bigint; outside: bigint }[];
}

/** Reads a `fairex-log-v1 liabilities` entry; null when it is not one. */
export function parseLiabilitiesEntry(entry: string): LiabilitiesEntry | null {
  if (!entry.endsWith('\n')) return null;
  const lines = entry.slice(0, -1).split('\n');
  if (lines[0] !== 'fairex-log-v1 liabilities') return null;
  const field = (at: number, name: string, pattern: RegExp): string | null => {
    const line = lines[at] ?? '';
    if (!line.startsWith(`${name} `)) return null;
    const value = line.slice(name.length + 1);
    return pattern.test(value) ? value : null;
  };
  const snapshotId = field(1, 'snapshot', /^\S+$/);
  const seq = field(2, 'seq', /^(0|[1-9]\d{0,15})$/);
  const time = field(3, 'time', /^(0|[1-9]\d{0,15})$/);
  const leaves = field(4, 'leaves', /^(0|[1-9]\d{0,15})$/);
  const root = field(5, 'root', /^[0-9a-f]{64}$/);
  if (snapshotId === null || seq === null || time === null || leaves === null || root === null) return null;
  const totals: LiabilitiesEntry['totals'] = [];
  const identity: LiabilitiesEntry['identity'] = [];
  for (const line of lines.slice(6)) {
    const total = /^total (\S+) (\d+)$/.exec(line);
    const ident = /^identity (\S+) (-?\d+) (-?\d+) (-?\d+)$/.exec(line);
    if (total !== null && identity.length === 0 && DECIMAL.test(total[2]!)) {
      totals.push({ column: total[1]!, amount: BigInt(total[2]!) });
    } else if (ident !== null) {
      const [users, exchange, outside] = [ident[2]!, ident[3]!, ident[4]!].map((text) => BigInt(text)) as [
        bigint,
        bigint,
        bigint,
      ];
      identity.push({ currency: ident[1]!, users, exchange, outside });
    } else {
      return null;
    }
  }
  return {
    snapshotId,
    seq: Number(seq),
    time: Number(time),
    leaves: Number(leaves),
    root,
    totals,
    identity,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Liabilities sum tree

export interface SumNode {
  hash: Uint8Array;
  sums: bigint[];
}

function amountBytes(amounts: readonly bigint[]): Uint8Array {
  const bytes = new Uint8Array(amounts.length * 8);
  const view = new DataView(bytes.buffer);
  amounts.forEach((amount, i) => view.setBigUint64(i * 8, amount));
  return bytes;
}

function inRange(amounts: readonly bigint[]): boolean {
  return amounts.every((amount) => amount >= 0n && amount < MAX_AMOUNT);
}

/** A user's leaf: SHA-256(0x00 || salt || "user:" + id || 0x00 || amounts as 8-byte big-endian). */
export async function sumLeaf(
  salt: Uint8Array,
  userId: string,
  amounts: readonly bigint[],
): Promise<SumNode> {
  if (salt.length !== 32 || !inRange(amounts)) throw new RangeError('leaf out of range');
  const hash = await sha256(
    Uint8Array.of(0),
    salt,
    encoder.encode(`user:${userId}`),
    Uint8Array.of(0),
    amountBytes(amounts),
  );
  return { hash, sums: [...amounts] };
}

/** A node: SHA-256(0x01 || left hash || left sums || right hash || right sums); sums add per column. */
export async function sumNode(left: SumNode, right: SumNode): Promise<SumNode> {
  if (left.sums.length !== right.sums.length || !inRange(left.sums) || !inRange(right.sums)) {
    throw new RangeError('node out of range');
  }
  const sums = left.sums.map((sum, i) => sum + right.sums[i]!);
  if (!inRange(sums)) throw new RangeError('sum overflow');
  const hash = await sha256(
    Uint8Array.of(1),
    left.hash,
    amountBytes(left.sums),
    right.hash,
    amountBytes(right.sums),
  );
  return { hash, sums };
}

export interface LiabilitiesProof {
  snapshot_id: string;
  log_index: number;
  user_id: string;
  position: number;
  leaves: number;
  columns: string[];
  /** The salt, hex. */
  salt: string;
  amounts: bigint[];
  path: { hash: string; sums: bigint[] }[];
}

export type SumProofCheck =
  { ok: true; root: string; sums: bigint[] } | { ok: false; reason: 'malformed' | 'range' | 'path' };

/** Recomputes the root hash and root sums from the user's leaf and the path. */
export async function computeSumRoot(proof: LiabilitiesProof): Promise<SumProofCheck> {
  const width = proof.columns.length;
  const salt = hexToBytes(proof.salt);
  const path = proof.path.map((node) => ({ hash: hexToBytes(node.hash), sums: node.sums }));
  if (
    salt === null ||
    salt.length !== 32 ||
    proof.amounts.length !== width ||
    path.some((node) => node.hash === null || node.hash.length !== 32 || node.sums.length !== width)
  ) {
    return { ok: false, reason: 'malformed' };
  }
  try {
    const leaf = await sumLeaf(salt, proof.user_id, proof.amounts);
    const root = await walkInclusion(
      BigInt(proof.position),
      BigInt(proof.leaves),
      leaf,
      path as SumNode[],
      sumNode,
    );
    if (root === null) return { ok: false, reason: 'path' };
    return { ok: true, root: bytesToHex(root.hash), sums: root.sums };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, reason: 'range' };
    throw error;
  }
}

export type LiabilitiesCheck =
  | { ok: true }
  | { ok: false; reason: 'malformed' | 'range' | 'path' | 'root' | 'totals' | 'columns' | 'leaves' };

/**
 * Checks a user's proof against the published liabilities entry (itself to be checked for inclusion in a
 * held checkpoint): the recomputed root hash and per-column sums must be the entry's root and totals.
 */
export async function verifyLiabilitiesProof(
  proof: LiabilitiesProof,
  entry: LiabilitiesEntry,
): Promise<LiabilitiesCheck> {
  if (proof.snapshot_id !== entry.snapshotId) return { ok: false, reason: 'malformed' };
  if (
    proof.columns.length !== entry.totals.length ||
    proof.columns.some((column, i) => column !== entry.totals[i]!.column)
  ) {
    return { ok: false, reason: 'columns' };
  }
  if (proof.leaves !== entry.leaves) return { ok: false, reason: 'leaves' };
  const computed = await computeSumRoot(proof);
  if (!computed.ok) return computed;
  if (computed.root !== entry.root) return { ok: false, reason: 'root' };
  if (computed.sums.some((sum, i) => sum !== entry.totals[i]!.amount)) return { ok: false, reason: 'totals' };
  return { ok: true };
}
