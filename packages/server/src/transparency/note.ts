// The log's checkpoints as C2SP signed notes (docs/transparency.md, "Note format"):
//
//   body      = <origin>\n<tree size, decimal>\n<base64 (standard, padded) of the 32-byte root>\n
//   note      = body + "\n" + one signature line per signer
//   line      = "\u2014 " + <key name> + " " + base64(key id (4 bytes) || signature) + "\n"
//   key id    = SHA-256(UTF-8 key name || 0x0A || type || 32-byte Ed25519 public key)[0..4]
//
// The log signs with type 0x01 (Ed25519 over the body bytes; its key name is the origin). A witness cosigns
// with type 0x04 (C2SP tlog-cosignature v1): it signs "cosignature/v1\ntime <unix seconds>\n" + body and its
// signature is its 8-byte big-endian time followed by the 64-byte Ed25519 signature. A verifier key is written
// `<name>+<key id hex>+<base64(type || public key)>`. Ed25519 is deterministic, so the same body signed with
// the same key gives the same note byte for byte (replay reproduces every checkpoint's note).
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
} from 'node:crypto';
import type { KeyObject } from 'node:crypto';

export const LOG_KEY_TYPE = 0x01;
export const COSIGNATURE_KEY_TYPE = 0x04;
const EM_DASH = '\u2014';
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 key pair: the private key object and the raw 32-byte public key. */
export interface Ed25519Key {
  readonly privateKey: KeyObject;
  readonly publicKey: Buffer;
}

/** The raw public key of a private key. */
function rawPublicKey(privateKey: KeyObject): Buffer {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return Buffer.from(jwk.x as string, 'base64url');
}

/** A new key from the operating system's random source. */
export function generateEd25519Key(): Ed25519Key {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

/** The key of a 32-byte seed (RFC 8032's private key). */
export function ed25519KeyFromSeed(seed: Uint8Array): Ed25519Key {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

/** The 32-byte seed of a private key (what the store keeps sealed). */
export function ed25519Seed(privateKey: KeyObject): Buffer {
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  return der.subarray(der.length - 32);
}

export function publicKeyObject(publicKey: Uint8Array): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
    format: 'jwk',
  });
}

/** SHA-256(name || 0x0A || type || public key)[0..4]. */
export function keyId(name: string, type: number, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from(name, 'utf8'))
    .update(Buffer.from([0x0a, type]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

/** `<name>+<key id hex>+<base64(type || public key)>`. */
export function verifierKey(name: string, type: number, publicKey: Uint8Array): string {
  const id = keyId(name, type, publicKey).toString('hex');
  return `${name}+${id}+${Buffer.concat([Buffer.from([type]), publicKey]).toString('base64')}`;
}

export interface VerifierKey {
  name: string;
  type: number;
  keyId: Buffer;
  publicKey: Buffer;
  text: string;
}

/** A verifier key's parts, or undefined when the text is not one (or its key id does not match). */
export function parseVerifierKey(text: string): VerifierKey | undefined {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  if (match === null) return undefined;
  const [, name = '', idHex = '', keyText = ''] = match;
  const bytes = Buffer.from(keyText, 'base64');
  if (bytes.length !== 33 || bytes.toString('base64') !== keyText) return undefined;
  const type = bytes[0] as number;
  const publicKey = bytes.subarray(1);
  if (keyId(name, type, publicKey).toString('hex') !== idHex) return undefined;
  return { name, type, keyId: Buffer.from(idHex, 'hex'), publicKey, text: text.trim() };
}

/** A checkpoint's note body. */
export function checkpointBody(origin: string, size: number, rootHex: string): string {
  if (!/^[0-9a-f]{64}$/.test(rootHex)) throw new RangeError('a root is 64 lowercase hex characters');
  return `${origin}\n${size}\n${Buffer.from(rootHex, 'hex').toString('base64')}\n`;
}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

/** A checkpoint body's origin, size and root, or undefined when it is not one (extension lines ignored). */
export function parseCheckpointBody(body: string): Checkpoint | undefined {
  const lines = body.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '') return undefined;
  const [origin = '', sizeText = '', rootText = ''] = lines;
  if (origin === '' || !/^(0|[1-9]\d{0,15})$/.test(sizeText)) return undefined;
  const size = Number(sizeText);
  const root = Buffer.from(rootText, 'base64');
  if (!Number.isSafeInteger(size) || root.length !== 32 || root.toString('base64') !== rootText)
    return undefined;
  return { origin, size, root };
}

/** One signature line of a note. */
export interface NoteSignature {
  name: string;
  keyId: Buffer;
  /** What follows the key id: the signature (and a cosignature's timestamp before it). */
  signature: Buffer;
  line: string;
}

/** A note's body and signature lines, or undefined when the text is not a signed note. */
export function parseNote(text: string): { body: string; signatures: NoteSignature[] } | undefined {
  const split = text.indexOf('\n\n');
  if (split < 0 || !text.endsWith('\n')) return undefined;
  const body = text.slice(0, split + 1);
  const signatures: NoteSignature[] = [];
  for (const line of text.slice(split + 2, -1).split('\n')) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(line);
    if (match === null) return undefined;
    const bytes = Buffer.from(match[2] as string, 'base64');
    if (bytes.length < 5) return undefined;
    signatures.push({
      name: match[1] as string,
      keyId: bytes.subarray(0, 4),
      signature: bytes.subarray(4),
      line: `${line}\n`,
    });
  }
  if (signatures.length === 0) return undefined;
  return { body, signatures };
}

/** The log's signature line over a body. */
export function logSignatureLine(body: string, name: string, key: Ed25519Key): string {
  const signature = sign(null, Buffer.from(body, 'utf8'), key.privateKey);
  const id = keyId(name, LOG_KEY_TYPE, key.publicKey);
  return `${EM_DASH} ${name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
}

/** The note of a body signed by the log (key name = origin). */
export function signCheckpoint(body: string, name: string, key: Ed25519Key): string {
  return `${body}\n${logSignatureLine(body, name, key)}`;
}

/** Whether the note carries a valid signature of `key` (a log verifier key, type 0x01) over its body. */
export function verifyLogSignature(note: string, key: VerifierKey): boolean {
  const parsed = parseNote(note);
  if (parsed === undefined || key.type !== LOG_KEY_TYPE) return false;
  return parsed.signatures.some(
    (line) =>
      line.name === key.name &&
      line.keyId.equals(key.keyId) &&
      line.signature.length === 64 &&
      verify(null, Buffer.from(parsed.body, 'utf8'), publicKeyObject(key.publicKey), line.signature),
  );
}

/** "cosignature/v1\ntime <t>\n" + body: what a witness signs. */
export function cosignedMessage(body: string, timeSeconds: bigint): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timeSeconds}\n${body}`, 'utf8');
}

/** A witness's cosignature line over a checkpoint body at the given time (unix seconds). */
export function cosignatureLine(body: string, name: string, key: Ed25519Key, timeSeconds: bigint): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(timeSeconds);
  const signature = sign(null, cosignedMessage(body, timeSeconds), key.privateKey);
  const id = keyId(name, COSIGNATURE_KEY_TYPE, key.publicKey);
  return `${EM_DASH} ${name} ${Buffer.concat([id, time, signature]).toString('base64')}\n`;
}

/** The cosignature line of `witness` in the note, verified over its body; undefined when there is none. */
export function verifiedCosignature(
  note: string,
  witness: VerifierKey,
): { line: string; timeSeconds: bigint } | undefined {
  const parsed = parseNote(note);
  if (parsed === undefined || witness.type !== COSIGNATURE_KEY_TYPE) return undefined;
  for (const line of parsed.signatures) {
    if (line.name !== witness.name || !line.keyId.equals(witness.keyId) || line.signature.length !== 72)
      continue;
    const timeSeconds = line.signature.readBigUInt64BE(0);
    const signature = line.signature.subarray(8);
    if (
      verify(null, cosignedMessage(parsed.body, timeSeconds), publicKeyObject(witness.publicKey), signature)
    )
      return { line: line.line, timeSeconds };
  }
  return undefined;
}
