// `npm run witness -- <exchange url> [--store <dir>] [--name <name>] [--once] [--interval <seconds>]
// [--print-key]`: an independent witness of an exchange's transparency log (docs/transparency.md,
// "Running a witness"). It keeps its own Ed25519 key, the log's key as first seen and the last checkpoint it
// cosigned in its own store folder (default ./witness-store). Each round it fetches the latest checkpoint,
// checks the log's signature with the key it pinned, checks the consistency proof from the last checkpoint
// it saw, and only then cosigns it (C2SP tlog-cosignature v1) and POSTs the cosigned note to
// /api/log/cosignature. On a fork (another key, a smaller tree, a failed consistency proof) it refuses: it
// prints both checkpoints, keeps the last good one, and exits 1. Exit 2 when the exchange cannot be read.
//
// `--print-key` prints the witness's verifier key (for the exchange's LOG_WITNESSES) and exits. The witness
// uses no code of the exchange: node:crypto and the log checks of scripts/verify-prices.ts.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { NoteKey, SignedCheckpoint } from './verify-prices.ts';
import {
  ForkError,
  VerificationError,
  parseNoteKey,
  verifyCheckpointNote,
  verifyExtends,
} from './verify-prices.ts';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const COSIGNATURE_TYPE = 0x04;

export interface WitnessKey {
  name: string;
  privateKey: KeyObject;
  publicKey: Buffer;
  /** `<name>+<key id hex>+<base64(0x04 || public key)>`. */
  verifierKey: string;
}

function keyId(name: string, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from(name, 'utf8'))
    .update(Buffer.from([0x0a, COSIGNATURE_TYPE]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

/** The witness key of a 32-byte seed under a name. */
export function witnessKey(name: string, seed: Uint8Array): WitnessKey {
  if (!/^[!-*,-~]+$/.test(name)) throw new Error('a witness name is printable ASCII without spaces or "+"');
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = Buffer.from(jwk.x as string, 'base64url');
  const encoded = Buffer.concat([Buffer.from([COSIGNATURE_TYPE]), publicKey]).toString('base64');
  return {
    name,
    privateKey,
    publicKey,
    verifierKey: `${name}+${keyId(name, publicKey).toString('hex')}+${encoded}`,
  };
}

/** The cosignature line of a checkpoint body at `timeSeconds` (C2SP tlog-cosignature v1). */
export function cosign(key: WitnessKey, body: string, timeSeconds: bigint): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(timeSeconds);
  const message = Buffer.from(`cosignature/v1\ntime ${timeSeconds}\n${body}`, 'utf8');
  const signature = sign(null, message, key.privateKey);
  return `\u2014 ${key.name} ${Buffer.concat([keyId(key.name, key.publicKey), time, signature]).toString('base64')}\n`;
}

interface Stored {
  /** The log's verifier key as first seen. */
  logKey: string;
  /** The last checkpoint note the witness verified and cosigned. */
  note: string;
}

/** The witness's store folder: its key (created on first use), name, and per-log state. */
export class WitnessStore {
  readonly folder: string;

  constructor(folder: string) {
    this.folder = folder;
  }

  async key(name: string | undefined): Promise<WitnessKey> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const keyFile = join(this.folder, 'witness.key');
    let text: string;
    try {
      text = await readFile(keyFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const { privateKey } = generateKeyPairSync('ed25519');
      const der = privateKey.export({ format: 'der', type: 'pkcs8' });
      const chosen = name ?? `${hostname().replace(/[^!-*,-~]/g, '-')}/fairex-witness`;
      text = `${chosen}\n${der.subarray(der.length - 32).toString('hex')}\n`;
      await writeFile(keyFile, text, { mode: 0o600, flag: 'wx' });
    }
    const [storedName = '', seedHex = ''] = text.split('\n');
    if (name !== undefined && name !== storedName)
      throw new Error(`this store's witness is named ${storedName}; its name does not change`);
    return witnessKey(storedName, Buffer.from(seedHex, 'hex'));
  }

  // Keyed by the log's origin line (what the log calls itself), not by the address it is reached at: the
  // same log behind another host name or port is still the log this witness has seen.
  #stateFile(origin: string): string {
    const id = createHash('sha256').update(origin).digest('hex').slice(0, 16);
    return join(this.folder, `log-${id}.json`);
  }

  async last(origin: string): Promise<Stored | undefined> {
    try {
      return JSON.parse(await readFile(this.#stateFile(origin), 'utf8')) as Stored;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async save(origin: string, stored: Stored): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await writeFile(this.#stateFile(origin), `${JSON.stringify(stored, null, 2)}\n`);
  }
}

class ReadError extends Error {}

async function getJson<T>(base: string, path: string, query: Record<string, string> = {}): Promise<T> {
  const url = new URL(path, base);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return envelope<T>(url.pathname, () => fetch(url));
}

async function envelope<T>(path: string, request: () => Promise<Response>): Promise<T> {
  let body: { type?: string; message?: unknown };
  try {
    body = (await (await request()).json()) as typeof body;
  } catch (error) {
    throw new ReadError(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (body.type !== 'ok') throw new ReadError(`${path}: ${JSON.stringify(body.message)}`);
  return body.message as T;
}

export type RoundResult =
  { kind: 'cosigned'; size: number; previous: number | undefined } | { kind: 'fork'; message: string };

/**
 * One round: fetch, verify against what the store holds, cosign, POST, save. A fork is returned (never
 * saved: the witness keeps refusing until its operator looks); a read failure throws.
 */
export async function witnessRound(
  base: string,
  store: WitnessStore,
  key: WitnessKey,
  now: () => number = Date.now,
): Promise<RoundResult> {
  const served = await getJson<{ key: string; origin: string }>(base, '/api/log/key');
  const last = await store.last(served.origin);
  const logKey: NoteKey = parseNoteKey(last?.logKey ?? served.key);
  const latest = await getJson<{ note: string }>(base, '/api/log/checkpoint');
  // The checkpoint's own note, without the cosignatures other witnesses added.
  const own = latest.note.split('\n\n')[0] + '\n\n';
  const signature = latest.note
    .slice(own.length)
    .split('\n')
    .find((line) => line.startsWith(`\u2014 ${logKey.name} `));
  let checkpoint: SignedCheckpoint;
  try {
    checkpoint = verifyCheckpointNote(`${own}${signature ?? ''}\n`, logKey);
  } catch (error) {
    if (!(error instanceof VerificationError) || last === undefined) throw error;
    return {
      kind: 'fork',
      message: `FORK: ${error.message} (the key this witness pinned)\n--- last cosigned checkpoint ---\n${last.note}--- served checkpoint ---\n${latest.note}`,
    };
  }
  if (last !== undefined) {
    const previous = verifyCheckpointNote(last.note, logKey);
    try {
      await verifyExtends(base, previous, checkpoint, fetch);
    } catch (error) {
      if (error instanceof ForkError) return { kind: 'fork', message: error.message };
      throw error;
    }
  }
  const line = cosign(key, checkpoint.body, BigInt(Math.floor(now() / 1000)));
  await envelope(`/api/log/cosignature`, () =>
    fetch(new URL('/api/log/cosignature', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: `${checkpoint.note}${line}` }),
    }),
  );
  await store.save(served.origin, { logKey: logKey.text, note: checkpoint.note });
  return {
    kind: 'cosigned',
    size: checkpoint.size,
    previous: last === undefined ? undefined : verifyCheckpointNote(last.note, logKey).size,
  };
}

function parseArguments(args: readonly string[]) {
  const options: {
    base?: string;
    store: string;
    name?: string;
    once: boolean;
    interval: number;
    printKey: boolean;
  } = { store: 'witness-store', once: false, interval: 10, printKey: false };
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] as string;
    const value = () => {
      const next = args[at + 1];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      at += 1;
      return next;
    };
    if (arg === '--store') options.store = value();
    else if (arg === '--name') options.name = value();
    else if (arg === '--once') options.once = true;
    else if (arg === '--print-key') options.printKey = true;
    else if (arg === '--interval') options.interval = Number(value());
    else if (options.base === undefined && URL.canParse(arg)) options.base = arg;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isFinite(options.interval) || options.interval < 1)
    throw new Error('--interval is seconds >= 1');
  return options;
}

if (import.meta.main) {
  let options: ReturnType<typeof parseArguments>;
  try {
    options = parseArguments(process.argv.slice(2));
    if (options.base === undefined && !options.printKey) throw new Error('no exchange url');
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(
      'usage: npm run witness -- <exchange url> [--store <dir>] [--name <name>] [--once] [--interval <seconds>] [--print-key]',
    );
    process.exit(2);
  }
  const store = new WitnessStore(options.store);
  const key = await store.key(options.name);
  if (options.printKey) {
    console.log(key.verifierKey);
    process.exit(0);
  }
  const base = options.base as string;
  console.log(`witness ${key.verifierKey} watching ${base}`);
  for (;;) {
    try {
      const result = await witnessRound(base, store, key);
      if (result.kind === 'fork') {
        console.error(result.message);
        process.exit(1);
      }
      console.log(
        `cosigned the checkpoint of ${result.size} entries` +
          (result.previous === undefined ? ' (first seen)' : `, consistent with ${result.previous}`),
      );
    } catch (error) {
      console.error(`cannot read the log: ${error instanceof Error ? error.message : String(error)}`);
      if (options.once) process.exit(2);
    }
    if (options.once) process.exit(0);
    await new Promise((resolve) => setTimeout(resolve, options.interval * 1000));
  }
}
