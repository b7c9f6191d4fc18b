// `npm run verify:prices -- <base url> [symbol] [--save <file>] [--checkpoint <file>] [--witness <vkey>]...`:
// checks an exchange's
// price record using its public calls only. For every market (or the one named) it reads the published
// heads, then every sample from the start of the chain, recomputes each sample's hash from its canonical
// record and the previous hash, checks that seq counts up by one and prev_hash links each sample to the one
// before, that each of the newest 1,000 published heads equals the sample it names, and that a proof ends at
// its head.
//
// Then the transparency log (docs/transparency.md): it verifies the latest checkpoint's signature (with the
// key saved beside `--checkpoint <file>` when given, else with the key the exchange serves, which you compare
// with the one published in its README), and with `--checkpoint` the consistency proof from the saved
// checkpoint to the current one: a log rewritten since then, or signed with another key, is a FORK. For every
// market it checks that the latest sample the checkpoint covers is in the log: the log entry holding it names
// its hash, and the entry's inclusion proof leads to the checkpoint's root. `--save <file>` writes the
// verified checkpoint note to the file and the log's verifier key to `<file>.vkey`, for the next run's
// `--checkpoint`. Each `--witness <verifier key>` (repeatable) requires the checkpoint to carry a valid
// cosignature (C2SP tlog-cosignature v1) of that witness: a checkpoint the witness did not cosign fails.
// Exits 0 when everything agrees, 1 on the first mismatch or fork (with a message naming
// it), 2 when the exchange cannot be read.
//
// It implements docs/price-record.md and docs/transparency.md on its own (node:crypto, no code of the
// exchange), so it is also a worked example for anyone writing a verifier of their own; the witness
// (scripts/witness.ts) uses its log checks.
import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

export type Source = { name: string; price: string; time: number };
export type Sample = {
  symbol: string;
  seq: number;
  time: number;
  source_time: number | null;
  index_price: string | null;
  mark_price: string | null;
  sources: Source[];
  stale: boolean;
  prev_hash: string;
  hash: string;
};
export type Head = { symbol: string; seq: number; time: number; hash: string };

export const GENESIS = '0'.repeat(64);

/** The canonical record of docs/price-record.md. */
export function canonicalRecord(sample: Sample): string {
  const sources = sample.sources.map((source) => `${source.name}:${source.price}:${source.time}`).join(';');
  return [
    'fairex-price-v1',
    String(sample.seq),
    String(sample.time),
    sample.source_time === null ? '' : String(sample.source_time),
    sample.index_price ?? '',
    sample.mark_price ?? '',
    sample.stale ? '1' : '0',
    sources,
  ].join('|');
}

export function sampleHash(prevHash: string, sample: Sample): string {
  return createHash('sha256')
    .update(prevHash + canonicalRecord(sample), 'utf8')
    .digest('hex');
}

export class VerificationError extends Error {}

/**
 * Checks one market's consecutive samples. `previous` is the sample before the first one (undefined when
 * the first is expected to be the chain's first). Returns the last sample checked.
 */
export function verifyChain(samples: readonly Sample[], previous?: Sample): Sample | undefined {
  let last = previous;
  for (const sample of samples) {
    const where = `${sample.symbol} sample seq ${sample.seq}`;
    const expectedSeq = last === undefined ? 1 : last.seq + 1;
    const expectedPrev = last === undefined ? GENESIS : last.hash;
    if (last !== undefined && sample.symbol !== last.symbol)
      throw new VerificationError(`${where}: belongs to another market than ${last.symbol}`);
    if (sample.seq !== expectedSeq)
      throw new VerificationError(
        `${where}: expected seq ${expectedSeq} (a sample is missing or out of order)`,
      );
    if (sample.prev_hash !== expectedPrev)
      throw new VerificationError(
        `${where}: prev_hash ${sample.prev_hash} is not the previous hash ${expectedPrev}`,
      );
    const hash = sampleHash(sample.prev_hash, sample);
    if (hash !== sample.hash)
      throw new VerificationError(
        `${where}: hash ${sample.hash} does not match its record (computed ${hash})`,
      );
    last = sample;
  }
  return last;
}

/** Checks that each head names a sample of the chain with the same time and hash. */
export function verifyHeads(heads: readonly Head[], samplesBySeq: ReadonlyMap<number, Sample>): void {
  for (const head of heads) {
    const sample = samplesBySeq.get(head.seq);
    const where = `${head.symbol} head seq ${head.seq}`;
    if (sample === undefined) throw new VerificationError(`${where}: no such sample in the chain`);
    if (sample.hash !== head.hash)
      throw new VerificationError(
        `${where}: published hash ${head.hash} differs from the sample's ${sample.hash}`,
      );
    if (sample.time !== head.time)
      throw new VerificationError(
        `${where}: published time ${head.time} differs from the sample's ${sample.time}`,
      );
  }
}

/** Checks a proof: a linked chain from the asked seq that ends exactly at the head it names. */
export function verifyProof(proof: { head: Head; samples: Sample[] }, seq: number, first?: Sample): void {
  const where = `${proof.head.symbol} proof of seq ${seq}`;
  const [start] = proof.samples;
  if (start === undefined || start.seq !== seq)
    throw new VerificationError(`${where}: does not start at seq ${seq}`);
  if (first !== undefined && first.hash !== start.hash)
    throw new VerificationError(`${where}: sample differs from the one the samples call gave`);
  // The first sample's prev_hash is taken as given: the chain from it must reach the head.
  const previous: Sample | undefined =
    seq === 1 ? undefined : { ...start, seq: seq - 1, hash: start.prev_hash };
  const last = verifyChain(proof.samples, previous);
  if (last === undefined || last.seq !== proof.head.seq || last.hash !== proof.head.hash)
    throw new VerificationError(
      `${where}: the chain does not end at the published head seq ${proof.head.seq}`,
    );
}

type Fetch = (url: string) => Promise<{ json(): Promise<unknown> }>;

class ReadError extends Error {}

async function call<T>(
  fetcher: Fetch,
  base: string,
  path: string,
  query: Record<string, string>,
): Promise<T> {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  let body: unknown;
  try {
    body = await (await fetcher(url.toString())).json();
  } catch (error) {
    throw new ReadError(`${url.pathname}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const envelope = body as { type?: string; message?: unknown };
  if (envelope.type !== 'ok') throw new ReadError(`${url.pathname}: ${JSON.stringify(envelope.message)}`);
  return envelope.message as T;
}

export interface LogOptions {
  /** Write the verified checkpoint note here (and the log's verifier key to `<file>.vkey`). */
  save?: string;
  /** Verify consistency from the checkpoint saved here (with the key saved beside it). */
  checkpoint?: string;
  /** Witnesses' verifier keys (type 0x04): the checkpoint must carry a valid cosignature of each. */
  witnesses?: readonly string[];
}

/** Verifies every market (or one) of the exchange at `base`; resolves to the lines of its report. */
export async function verifyExchange(
  base: string,
  symbol: string | undefined,
  fetcher: Fetch = fetch,
  options: LogOptions = {},
): Promise<string[]> {
  const latestSamples = new Map<string, Sample[]>();
  const report: string[] = [];
  const { heads } = await call<{ heads: Head[] }>(fetcher, base, '/api/price/heads', {
    limit: '1000',
    ...(symbol === undefined ? {} : { symbol }),
  });
  const symbols = symbol === undefined ? [...new Set(heads.map((head) => head.symbol))].sort() : [symbol];
  if (symbols.length === 0) throw new VerificationError('no published head yet: nothing to verify against');
  for (const market of symbols) {
    const marketHeads = heads.filter((head) => head.symbol === market);
    const newest = marketHeads[0];
    if (newest === undefined) throw new VerificationError(`${market}: no published head yet`);
    const bySeq = new Map<number, Sample>();
    let last: Sample | undefined;
    let from = 0;
    for (;;) {
      const page = await call<{ samples: Sample[] }>(fetcher, base, '/api/price/samples', {
        symbol: market,
        from: String(from),
        to: '9999999999999',
      });
      last = verifyChain(page.samples, last);
      for (const sample of page.samples) bySeq.set(sample.seq, sample);
      if (last === undefined || page.samples.length === 0 || last.seq >= newest.seq) break;
      from = last.time + 1;
    }
    verifyHeads(marketHeads, bySeq);
    latestSamples.set(market, [...bySeq.values()]);
    const proofSeq = Math.max(1, newest.seq - 5);
    const proof = await call<{ head: Head; samples: Sample[] }>(fetcher, base, '/api/price/proof', {
      symbol: market,
      seq: String(proofSeq),
    });
    verifyProof(proof, proofSeq, bySeq.get(proofSeq));
    report.push(
      `${market}: ${bySeq.size} samples chained from seq 1 to ${last?.seq ?? 0}, ${marketHeads.length} heads match, proof of seq ${proofSeq} ends at head ${proof.head.seq}`,
    );
  }
  report.push(...(await verifyLog(base, latestSamples, fetcher, options)));
  return report;
}

// ---- The transparency log (docs/transparency.md) ----

/** A log check failed in a way that shows the log was rewritten, or signed by another key. */
export class ForkError extends VerificationError {}

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** RFC 9162: SHA-256(0x00 || entry). */
export function logLeafHash(entry: string): Buffer {
  return sha256(Buffer.from([0]), Buffer.from(entry, 'utf8'));
}

const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256(Buffer.from([1]), left, right);
const half = (value: number): number => Math.floor(value / 2);
const odd = (value: number): boolean => value % 2 === 1;

/** RFC 9162 2.1.3.2: whether `proof` shows leaf hash `leaf` at `index` in the tree of `size` with `root`. */
export function checkInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r: Uint8Array = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
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
  return sn === 0 && Buffer.from(r).equals(Buffer.from(root));
}

/** RFC 9162 2.1.4.2: whether the tree (first, firstRoot) is a prefix of the tree (second, secondRoot). */
export function checkConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second)
    return false;
  if (first === second) return proof.length === 0 && same(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0;
  let power = first;
  while (power > 1 && !odd(power)) power = half(power);
  const path = power === 1 ? [firstRoot, ...proof] : proof.slice();
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
  return same(fr, firstRoot) && same(sr, secondRoot) && sn === 0;
}

/** A verifier key `<name>+<key id hex>+<base64(type || public key)>`. */
export type NoteKey = { name: string; type: number; id: Buffer; publicKey: Buffer; text: string };

export function noteKeyId(name: string, type: number, publicKey: Uint8Array): Buffer {
  return sha256(Buffer.from(name, 'utf8'), Buffer.from([0x0a, type]), publicKey).subarray(0, 4);
}

export function parseNoteKey(text: string): NoteKey {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  const [, name = '', idHex = '', keyText = ''] = match ?? [];
  const bytes = Buffer.from(keyText, 'base64');
  if (match === null || bytes.length !== 33)
    throw new VerificationError(`not a verifier key: ${text.trim()}`);
  const type = bytes[0] as number;
  const publicKey = bytes.subarray(1);
  if (noteKeyId(name, type, publicKey).toString('hex') !== idHex)
    throw new VerificationError(`verifier key ${text.trim()}: its key id does not match its key`);
  return { name, type, id: Buffer.from(idHex, 'hex'), publicKey, text: text.trim() };
}

export type SignedCheckpoint = { note: string; body: string; origin: string; size: number; root: Buffer };

/** A note's body and signature lines ("— <name> <base64>"). */
export function splitNote(note: string): { body: string; lines: { name: string; bytes: Buffer }[] } {
  const split = note.indexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new VerificationError('not a signed note');
  const lines = note
    .slice(split + 2, -1)
    .split('\n')
    .map((line) => {
      const match = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(line);
      if (match === null) throw new VerificationError(`not a signature line: ${line}`);
      return { name: match[1] as string, bytes: Buffer.from(match[2] as string, 'base64') };
    });
  return { body: note.slice(0, split + 1), lines };
}

const ed25519Key = (publicKey: Uint8Array) =>
  createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
    format: 'jwk',
  });

/** Checks the log's signature (type 0x01 key) on a checkpoint note and reads its body. */
export function verifyCheckpointNote(note: string, key: NoteKey): SignedCheckpoint {
  if (key.type !== 0x01) throw new VerificationError(`${key.text} is not a log key (type 0x01)`);
  const { body, lines } = splitNote(note);
  const signed = lines.some(
    (line) =>
      line.name === key.name &&
      line.bytes.length === 68 &&
      line.bytes.subarray(0, 4).equals(key.id) &&
      verifySignature(null, Buffer.from(body, 'utf8'), ed25519Key(key.publicKey), line.bytes.subarray(4)),
  );
  if (!signed) throw new ForkError(`the checkpoint is not signed by the log key ${key.text}`);
  const [origin = '', sizeText = '', rootText = ''] = body.split('\n');
  const root = Buffer.from(rootText, 'base64');
  if (origin !== key.name || !/^(0|[1-9]\d*)$/.test(sizeText) || root.length !== 32)
    throw new VerificationError(`not a checkpoint of ${key.name}: ${JSON.stringify(body)}`);
  return { note, body, origin, size: Number(sizeText), root };
}

/** The message a witness signs: "cosignature/v1\ntime <unix seconds>\n" + the checkpoint body. */
export function cosignedMessage(body: string, timeSeconds: bigint): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timeSeconds}\n${body}`, 'utf8');
}

/**
 * The time (unix seconds) of the witness's valid cosignature on the note: a signature line named by the
 * witness's key name whose bytes are its key id, an 8-byte big-endian time and an Ed25519 signature of
 * `cosignedMessage(body, time)`. Throws when the note carries none.
 */
export function verifyCosignature(note: string, witness: NoteKey): bigint {
  if (witness.type !== 0x04) throw new VerificationError(`${witness.text} is not a witness key (type 0x04)`);
  const { body, lines } = splitNote(note);
  for (const line of lines) {
    if (
      line.name !== witness.name ||
      line.bytes.length !== 76 ||
      !line.bytes.subarray(0, 4).equals(witness.id)
    )
      continue;
    const timeSeconds = line.bytes.readBigUInt64BE(4);
    const signature = line.bytes.subarray(12);
    if (verifySignature(null, cosignedMessage(body, timeSeconds), ed25519Key(witness.publicKey), signature))
      return timeSeconds;
  }
  throw new VerificationError(`the checkpoint carries no valid cosignature of the witness ${witness.text}`);
}

/** Checks that `next` extends `saved` (same log, consistency proof); a failure is a fork. */
export async function verifyExtends(
  base: string,
  saved: SignedCheckpoint,
  next: SignedCheckpoint,
  fetcher: Fetch,
): Promise<void> {
  const fork = (why: string) =>
    new ForkError(
      `FORK: ${why}\n--- saved checkpoint ---\n${saved.note}--- current checkpoint ---\n${next.note}`,
    );
  if (next.origin !== saved.origin) throw fork(`the origin changed from ${saved.origin} to ${next.origin}`);
  if (next.size < saved.size) throw fork(`the log shrank from ${saved.size} to ${next.size} entries`);
  const { proof } = await call<{ proof: string[] }>(fetcher, base, '/api/log/consistency', {
    from: String(saved.size),
    to: String(next.size),
  });
  const hashes = proof.map((hex) => Buffer.from(hex, 'hex'));
  if (!checkConsistency(saved.size, next.size, saved.root, next.root, hashes))
    throw fork(`the checkpoint of ${next.size} entries does not extend the saved one of ${saved.size}`);
}

/** Reads a checkpoint saved with --save: the note and the verifier key beside it (`<file>.vkey`). */
export async function readSavedCheckpoint(
  file: string,
): Promise<{ key: NoteKey; checkpoint: SignedCheckpoint }> {
  const key = parseNoteKey(await readFile(`${file}.vkey`, 'utf8'));
  return { key, checkpoint: verifyCheckpointNote(await readFile(file, 'utf8'), key) };
}

export async function saveCheckpoint(
  file: string,
  key: NoteKey,
  checkpoint: SignedCheckpoint,
): Promise<void> {
  await writeFile(file, checkpoint.note);
  await writeFile(`${file}.vkey`, `${key.text}\n`);
}

async function verifyLog(
  base: string,
  samples: ReadonlyMap<string, Sample[]>,
  fetcher: Fetch,
  options: LogOptions,
): Promise<string[]> {
  const report: string[] = [];
  const saved = options.checkpoint === undefined ? undefined : await readSavedCheckpoint(options.checkpoint);
  let served: { key: string };
  let latest: { note: string; time: number };
  try {
    served = await call<{ key: string }>(fetcher, base, '/api/log/key', {});
    latest = await call<{ note: string; time: number }>(fetcher, base, '/api/log/checkpoint', {});
  } catch (error) {
    // An exchange whose log has no checkpoint yet: said, and an error only when a flag needs the log.
    if (error instanceof ReadError && saved === undefined && options.save === undefined) {
      report.push(`log: no checkpoint yet, not checked (${error.message})`);
      return report;
    }
    throw error;
  }
  const key = saved?.key ?? parseNoteKey(served.key);
  if (saved !== undefined && served.key !== saved.key.text)
    report.push(
      `log: the exchange now serves the key ${served.key}; checked with the saved ${saved.key.text}`,
    );
  let checkpoint: SignedCheckpoint;
  try {
    checkpoint = verifyCheckpointNote(latest.note, key);
  } catch (error) {
    if (saved === undefined || !(error instanceof ForkError)) throw error;
    throw new ForkError(
      `FORK: ${error.message} (the key saved with the checkpoint)\n--- saved checkpoint ---\n${saved.checkpoint.note}--- current checkpoint ---\n${latest.note}`,
    );
  }
  report.push(`log: checkpoint of ${checkpoint.size} entries signed by ${key.text}`);
  for (const text of options.witnesses ?? []) {
    const witness = parseNoteKey(text);
    const timeSeconds = verifyCosignature(latest.note, witness);
    report.push(
      `log: cosigned by the witness ${witness.name} at ${new Date(Number(timeSeconds) * 1000).toISOString()}`,
    );
  }
  if (saved !== undefined) {
    await verifyExtends(base, saved.checkpoint, checkpoint, fetcher);
    report.push(`log: consistent with the saved checkpoint of ${saved.checkpoint.size} entries`);
  }
  for (const [market, chain] of samples) {
    const covered = chain.filter((sample) => sample.time <= latest.time).at(-1);
    if (covered === undefined) {
      // Every sample of this market is newer than the latest checkpoint (a market whose first sample came
      // after it): nothing of it can be checked against the log yet, and nothing older escapes the check.
      const first = chain[0];
      report.push(
        `${market}: not in the log yet (its first sample, seq ${first?.seq ?? '-'}, is newer than the checkpoint)`,
      );
      continue;
    }
    const leaf = await call<{ index: number; entry: string }>(fetcher, base, '/api/log/sample', {
      symbol: market,
      seq: String(covered.seq),
    });
    const line = `${market} ${covered.seq} ${covered.hash}`;
    if (!leaf.entry.split('\n').includes(line))
      throw new VerificationError(
        `${market} sample seq ${covered.seq}: log entry ${leaf.index} does not name its hash`,
      );
    const inclusion = await call<{ proof: string[] }>(fetcher, base, '/api/log/inclusion', {
      index: String(leaf.index),
      size: String(checkpoint.size),
    });
    const proof = inclusion.proof.map((hex) => Buffer.from(hex, 'hex'));
    if (!checkInclusion(logLeafHash(leaf.entry), leaf.index, checkpoint.size, proof, checkpoint.root))
      throw new VerificationError(
        `${market} sample seq ${covered.seq}: log entry ${leaf.index} is not in the checkpoint of ${checkpoint.size}`,
      );
    report.push(
      `${market}: sample seq ${covered.seq} is log entry ${leaf.index}, included in the checkpoint`,
    );
  }
  if (options.save !== undefined) {
    await saveCheckpoint(options.save, key, checkpoint);
    report.push(`log: checkpoint saved to ${options.save} (key in ${options.save}.vkey)`);
  }
  return report;
}

/** The command line's arguments: a base URL, an optional symbol, --save, --checkpoint and --witness. */
export function parseArguments(args: readonly string[]): { base: string; symbol?: string } & LogOptions {
  const positional: string[] = [];
  const options: { save?: string; checkpoint?: string } = {};
  const witnesses: string[] = [];
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] as string;
    if (arg === '--save' || arg === '--checkpoint' || arg === '--witness') {
      const value = args[at + 1];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === '--witness') witnesses.push(parseNoteKey(value).text);
      else options[arg === '--save' ? 'save' : 'checkpoint'] = value;
      at += 1;
    } else positional.push(arg);
  }
  const [base, symbol, ...extra] = positional;
  if (base === undefined || !URL.canParse(base) || extra.length > 0) throw new Error('bad arguments');
  return {
    base,
    ...(symbol === undefined ? {} : { symbol }),
    ...options,
    ...(witnesses.length === 0 ? {} : { witnesses }),
  };
}

if (import.meta.main) {
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments(process.argv.slice(2));
  } catch {
    console.error(
      'usage: npm run verify:prices -- <base url> [symbol] [--save <file>] [--checkpoint <file>] [--witness <verifier key>]...',
    );
    process.exit(2);
  }
  try {
    for (const line of await verifyExchange(parsed.base, parsed.symbol, fetch, parsed))
      console.log(`ok  ${line}`);
    console.log('the price record verifies');
  } catch (error) {
    if (error instanceof VerificationError) {
      console.error(`${error instanceof ForkError ? '' : 'MISMATCH  '}${error.message}`);
      process.exit(1);
    }
    console.error(`cannot read the price record: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
