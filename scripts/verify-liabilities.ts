// `npm run verify:liabilities -- <proof file> --checkpoint <file> [--url <exchange url>] [--key <key>]`:
// checks, offline but for two public reads, that your balances are counted in the liabilities total the
// exchange published in its transparency log (docs/transparency.md, "Proof of liabilities"):
//   1. recomputes your leaf from the proof (salt, user id, amounts) and, along the path, the sum tree's root
//      hash and root sums;
//   2. reads the log entry at the proof's log index (GET /api/log/entries) and checks that it names the same
//      snapshot, leaf count, root and, column by column, the same totals;
//   3. checks that entry's inclusion (GET /api/log/inclusion) in the checkpoint you saved earlier with
//      `npm run verify:prices -- <url> --save <file>`: a signed note (C2SP signed-note / tlog-checkpoint)
//      you hold, never a head that came with the proof. Its signature is checked against `--key` (the
//      verifier key text, <name>+<key id>+<base64 key>) when given, otherwise against the key the exchange
//      serves at /api/log/key (which proves only that the note is the exchange's, not that you trust it).
// The proof file is the answer of GET /api/log/liabilities/proof?snapshot=<id> (saved from the assets page,
// or the envelope as the API answers it). The exchange's URL is `--url`, or else taken from the
// checkpoint's origin line (<host>/fairex-log: https://<host>, http:// for localhost).
// Exits 0 when everything agrees, 1 on the first mismatch (with a message naming it), 2 when a file or the
// exchange cannot be read.
//
// Written from the docs alone, with node:crypto and no code of the exchange, so it also serves as a worked
// example for anyone writing a verifier of their own.
import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface LiabilitiesProof {
  snapshot_id: string;
  log_index: number;
  user_id: string;
  position: number;
  leaves: number;
  columns: string[];
  salt: string;
  amounts: string[];
  path: { hash: string; sums: string[] }[];
  root: string;
  totals: string[];
}

export class VerificationError extends Error {}

const LIMIT = 1n << 64n;
const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

function u64(values: readonly bigint[]): Buffer {
  const bytes = Buffer.alloc(values.length * 8);
  values.forEach((value, at) => bytes.writeBigUInt64BE(value, at * 8));
  return bytes;
}

function amount(text: string, what: string): bigint {
  if (!/^\d{1,20}$/.test(text)) throw new VerificationError(`${what} is not an unsigned integer: ${text}`);
  const value = BigInt(text);
  if (value >= LIMIT) throw new VerificationError(`${what} reaches 2^64: ${text}`);
  return value;
}

function hex32(text: string, what: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(text)) throw new VerificationError(`${what} is not 64 hex digits`);
  return Buffer.from(text, 'hex');
}

/** leaf = SHA-256(0x00 || salt || "user:" + id || 0x00 || amounts, 8 bytes big-endian each). */
export function sumLeaf(salt: Buffer, userId: string, amounts: readonly bigint[]): Buffer {
  return sha256(
    Buffer.from([0]),
    salt,
    Buffer.from(`user:${userId}`, 'utf8'),
    Buffer.from([0]),
    u64(amounts),
  );
}

/** node = SHA-256(0x01 || left hash || left sums || right hash || right sums). */
export function sumNode(
  left: { hash: Buffer; sums: bigint[] },
  right: { hash: Buffer; sums: bigint[] },
): { hash: Buffer; sums: bigint[] } {
  const sums = left.sums.map((sum, column) => sum + (right.sums[column] as bigint));
  if (sums.some((sum) => sum >= LIMIT)) throw new VerificationError('a sum on the path reaches 2^64');
  return {
    hash: sha256(Buffer.from([1]), left.hash, u64(left.sums), right.hash, u64(right.sums)),
    sums,
  };
}

/**
 * The root hash and sums the proof leads to: RFC 9162 2.1.3.2's walk (the side of each sibling follows from
 * the position and the leaf count), carrying the sums.
 */
export function proofRoot(proof: LiabilitiesProof): { hash: Buffer; sums: bigint[] } {
  const columns = proof.columns.length;
  if (proof.amounts.length !== columns)
    throw new VerificationError('the proof has not one amount per column');
  if (!Number.isSafeInteger(proof.position) || !Number.isSafeInteger(proof.leaves))
    throw new VerificationError('the position or leaf count is not an integer');
  if (proof.position < 0 || proof.position >= proof.leaves)
    throw new VerificationError(`position ${proof.position} is not in a tree of ${proof.leaves}`);
  if (!/^[0-9A-Za-z_-]{1,64}$/.test(proof.user_id)) throw new VerificationError('the user id is malformed');
  let node = {
    hash: sumLeaf(
      hex32(proof.salt, 'the salt'),
      proof.user_id,
      proof.amounts.map((text, column) => amount(text, `amount ${column}`)),
    ),
    sums: proof.amounts.map((text, column) => amount(text, `amount ${column}`)),
  };
  let fn = proof.position;
  let sn = proof.leaves - 1;
  for (const [at, step] of proof.path.entries()) {
    if (sn === 0) throw new VerificationError('the path is longer than the tree is high');
    if (step.sums.length !== columns)
      throw new VerificationError(`path step ${at} has not one sum per column`);
    const sibling = {
      hash: hex32(step.hash, `path step ${at}`),
      sums: step.sums.map((text, column) => amount(text, `path step ${at} sum ${column}`)),
    };
    if (fn % 2 === 1 || fn === sn) {
      node = sumNode(sibling, node);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else {
      node = sumNode(node, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) throw new VerificationError('the path is shorter than the tree is high');
  return node;
}

/** A liabilities log entry's fields (log-design.md's encoding). */
export interface LiabilitiesEntry {
  snapshot: string;
  seq: number;
  time: number;
  leaves: number;
  root: string;
  totals: [column: string, amount: bigint][];
  identity: [currency: string, users: bigint, exchange: bigint, outside: bigint][];
}

export function parseLiabilitiesEntry(entry: string): LiabilitiesEntry {
  const lines = entry.split('\n');
  if (lines.pop() !== '') throw new VerificationError('the entry does not end with a newline');
  if (lines[0] !== 'fairex-log-v1 liabilities')
    throw new VerificationError('the entry is no liabilities entry');
  const parsed: LiabilitiesEntry = {
    snapshot: '',
    seq: -1,
    time: -1,
    leaves: -1,
    root: '',
    totals: [],
    identity: [],
  };
  for (const line of lines.slice(1)) {
    const [key, ...rest] = line.split(' ');
    if (key === 'snapshot' && rest.length === 1) parsed.snapshot = rest[0] as string;
    else if (key === 'seq' && rest.length === 1) parsed.seq = Number(rest[0]);
    else if (key === 'time' && rest.length === 1) parsed.time = Number(rest[0]);
    else if (key === 'leaves' && rest.length === 1) parsed.leaves = Number(rest[0]);
    else if (key === 'root' && rest.length === 1) parsed.root = rest[0] as string;
    else if (key === 'total' && rest.length === 2)
      parsed.totals.push([rest[0] as string, amount(rest[1] as string, `total ${rest[0]}`)]);
    else if (key === 'identity' && rest.length === 4)
      parsed.identity.push([
        rest[0] as string,
        BigInt(rest[1] as string),
        BigInt(rest[2] as string),
        BigInt(rest[3] as string),
      ]);
    else throw new VerificationError(`unknown entry line: ${line}`);
  }
  return parsed;
}

/** Throws VerificationError unless `proof` has the fields and types of a liabilities proof. */
export function checkProofShape(proof: unknown): asserts proof is LiabilitiesProof {
  const p = proof as Partial<Record<keyof LiabilitiesProof, unknown>> | null;
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
  const ok =
    typeof p === 'object' &&
    p !== null &&
    typeof p.snapshot_id === 'string' &&
    typeof p.user_id === 'string' &&
    typeof p.salt === 'string' &&
    typeof p.root === 'string' &&
    Number.isSafeInteger(p.log_index) &&
    Number.isSafeInteger(p.position) &&
    Number.isSafeInteger(p.leaves) &&
    strings(p.columns) &&
    strings(p.amounts) &&
    strings(p.totals) &&
    Array.isArray(p.path) &&
    p.path.every(
      (step: unknown) =>
        typeof step === 'object' &&
        step !== null &&
        typeof (step as { hash?: unknown }).hash === 'string' &&
        strings((step as { sums?: unknown }).sums),
    );
  if (!ok) throw new VerificationError('the proof file is not a liabilities proof');
}

/** Checks a proof against the log entry it names; never throws. */
export function verifyLiabilitiesProof(
  proof: LiabilitiesProof,
  entryText: string,
): { ok: true; root: string } | { ok: false; reason: string } {
  try {
    checkProofShape(proof);
    const entry = parseLiabilitiesEntry(entryText);
    if (entry.snapshot !== proof.snapshot_id)
      throw new VerificationError(`the entry is snapshot ${entry.snapshot}, the proof ${proof.snapshot_id}`);
    // The leaf count is taken from the entry, never from the proof alone (the hashes do not bind it).
    if (entry.leaves !== proof.leaves)
      throw new VerificationError(`the entry has ${entry.leaves} leaves, the proof says ${proof.leaves}`);
    if (entry.totals.map(([column]) => column).join(',') !== proof.columns.join(','))
      throw new VerificationError('the entry and the proof name other columns');
    const root = proofRoot(proof);
    if (root.hash.toString('hex') !== entry.root)
      throw new VerificationError(
        'the root recomputed from your leaf and the path is not the published root',
      );
    entry.totals.forEach(([column, total], at) => {
      if (root.sums[at] !== total)
        throw new VerificationError(
          `the root's ${column} sum ${root.sums[at]} is not the published total ${total}`,
        );
    });
    return { ok: true, root: entry.root };
  } catch (error) {
    if (error instanceof VerificationError) return { ok: false, reason: error.message };
    throw error;
  }
}

/** A checkpoint: the signed note's body (origin, size, root) and signature lines. */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
  body: string;
  signatures: { name: string; keyId: Buffer; signature: Buffer }[];
}

export function parseCheckpoint(note: string): Checkpoint {
  const split = note.indexOf('\n\n');
  if (split < 0) throw new VerificationError('the checkpoint is no signed note (no blank line)');
  const body = note.slice(0, split + 1);
  const [origin, size, root, ...extra] = body.slice(0, -1).split('\n');
  if (origin === undefined || size === undefined || root === undefined || !/^\d{1,16}$/.test(size))
    throw new VerificationError('the checkpoint body is not origin, size and root');
  void extra;
  const rootBytes = Buffer.from(root, 'base64');
  if (rootBytes.length !== 32) throw new VerificationError('the checkpoint root is not 32 bytes');
  const signatures = note
    .slice(split + 2)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
      if (match === null) throw new VerificationError(`a signature line is malformed: ${line}`);
      const bytes = Buffer.from(match[2] as string, 'base64');
      return { name: match[1] as string, keyId: bytes.subarray(0, 4), signature: bytes.subarray(4) };
    });
  return { origin, size: Number(size), root: rootBytes, body, signatures };
}

/** Checks the note's Ed25519 signature by the verifier key `<name>+<key id hex>+<base64(0x01 || key)>`. */
export function checkNoteSignature(checkpoint: Checkpoint, verifierKey: string): void {
  // name + "+" + key id + "+" + base64 key: the base64 may hold '+' itself, so only the first two split.
  const [name, keyIdHex, ...keyParts] = verifierKey.split('+');
  const keyText = keyParts.join('+');
  const keyBytes = Buffer.from(keyText ?? '', 'base64');
  if (name === undefined || keyBytes.length !== 33 || keyBytes[0] !== 1)
    throw new VerificationError('the verifier key is not an Ed25519 signed-note key');
  const publicKey = keyBytes.subarray(1);
  const keyId = sha256(Buffer.from(`${name}\n`, 'utf8'), Buffer.from([1]), publicKey).subarray(0, 4);
  if (keyId.toString('hex') !== keyIdHex)
    throw new VerificationError('the verifier key id does not match its key');
  const line = checkpoint.signatures.find((s) => s.name === name && s.keyId.equals(keyId));
  if (line === undefined) throw new VerificationError(`the checkpoint carries no signature by ${name}`);
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') },
    format: 'jwk',
  });
  if (!verifySignature(null, Buffer.from(checkpoint.body, 'utf8'), key, line.signature))
    throw new VerificationError(`the checkpoint's signature by ${name} does not verify`);
}

/** RFC 9162 leaf hash of a log entry: SHA-256(0x00 || entry). */
export function logLeafHash(entry: string): Buffer {
  return sha256(Buffer.from([0]), Buffer.from(entry, 'utf8'));
}

/** RFC 9162 2.1.3.2: whether `proof` shows `leaf` at `index` in the tree of `size` leaves with `root`. */
export function verifyInclusion(
  leaf: Buffer,
  index: number,
  size: number,
  proof: Buffer[],
  root: Buffer,
): boolean {
  if (index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(Buffer.from([1]), p, r);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else {
      r = sha256(Buffer.from([1]), r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** The exchange's base URL from a checkpoint origin (<host>/fairex-log). */
export function urlOfOrigin(origin: string): string {
  const host = origin.split('/')[0] ?? origin;
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host);
  return `${local ? 'http' : 'https'}://${host}`;
}

class ReadError extends Error {}

async function read<T>(url: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new ReadError(`cannot read ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new ReadError(`${url} answered HTTP ${response.status}`);
  const body = (await response.json()) as { type: string; message: T };
  if (body.type !== 'ok') throw new ReadError(`${url} answered: ${JSON.stringify(body.message)}`);
  return body.message;
}

/** The whole check; resolves to the lines to print, throws VerificationError or ReadError. */
export async function verifyWithCheckpoint(
  proof: LiabilitiesProof,
  note: string,
  options: { url?: string | undefined; key?: string | undefined } = {},
): Promise<string[]> {
  checkProofShape(proof);
  const checkpoint = parseCheckpoint(note);
  const base = (options.url ?? urlOfOrigin(checkpoint.origin)).replace(/\/+$/, '');
  const lines: string[] = [];
  if (options.key !== undefined) {
    checkNoteSignature(checkpoint, options.key);
    lines.push(`checkpoint signature: ok (the key you gave)`);
  } else {
    const served = await read<{ key: string }>(`${base}/api/log/key`);
    checkNoteSignature(checkpoint, served.key);
    lines.push(`checkpoint signature: ok (the key the exchange serves: ${served.key})`);
  }
  if (proof.log_index >= checkpoint.size)
    throw new VerificationError(
      `the checkpoint (size ${checkpoint.size}) is older than the entry (index ${proof.log_index}): save a newer one`,
    );
  const { entries } = await read<{ entries: { index: number; entry: string }[] }>(
    `${base}/api/log/entries?start=${proof.log_index}&end=${proof.log_index + 1}`,
  );
  const entry = entries.find((candidate) => candidate.index === proof.log_index)?.entry;
  if (entry === undefined) throw new VerificationError(`the log has no entry ${proof.log_index}`);
  const checked = verifyLiabilitiesProof(proof, entry);
  if (!checked.ok) throw new VerificationError(checked.reason);
  lines.push(`your leaf and path lead to the published root ${checked.root} and totals: ok`);
  const inclusion = await read<{ leaf_hash: string; proof: string[] }>(
    `${base}/api/log/inclusion?index=${proof.log_index}&size=${checkpoint.size}`,
  );
  const leaf = logLeafHash(entry);
  if (inclusion.leaf_hash !== leaf.toString('hex'))
    throw new VerificationError('the log serves another leaf hash for the entry it serves');
  if (
    !verifyInclusion(
      leaf,
      proof.log_index,
      checkpoint.size,
      inclusion.proof.map((hash) => hex32(hash, 'an inclusion proof hash')),
      checkpoint.root,
    )
  )
    throw new VerificationError(`the entry is not included in your checkpoint (size ${checkpoint.size})`);
  lines.push(`the entry (index ${proof.log_index}) is in your checkpoint of size ${checkpoint.size}: ok`);
  return lines;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
}

async function main(argv: string[]): Promise<number> {
  const args = argv.slice();
  const checkpointFile = option(args, '--checkpoint');
  const url = option(args, '--url');
  const key = option(args, '--key');
  const [proofFile] = args;
  if (proofFile === undefined || checkpointFile === undefined) {
    console.error(
      'usage: npm run verify:liabilities -- <proof file> --checkpoint <file> [--url <url>] [--key <key>]',
    );
    return 2;
  }
  let proof: LiabilitiesProof;
  let note: string;
  try {
    const parsed = JSON.parse(readFileSync(proofFile, 'utf8')) as { type?: string; message?: unknown };
    proof = (parsed.type === 'ok' ? parsed.message : parsed) as LiabilitiesProof;
    note = readFileSync(checkpointFile, 'utf8');
  } catch (error) {
    console.error(`cannot read the files: ${(error as Error).message}`);
    return 2;
  }
  try {
    for (const line of await verifyWithCheckpoint(proof, note, { url, key })) console.log(line);
    console.log(
      `verified: user ${proof.user_id}'s balances are counted in the totals of snapshot ${proof.snapshot_id}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof VerificationError) {
      console.error(`NOT VERIFIED: ${error.message}`);
      return 1;
    }
    if (error instanceof ReadError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
