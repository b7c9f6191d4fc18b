// `npm run verify:prices -- <base url> [symbol]`: checks an exchange's price record using its public calls
// only. For every market (or the one named) it reads the published heads, then every sample from the start
// of the chain, recomputes each sample's hash from its canonical record and the previous hash, checks that
// seq counts up by one and prev_hash links each sample to the one before, that each of the newest 1,000
// published heads equals the sample it names, and that a proof ends at its head. Exits 0 when everything
// agrees, 1 on the first mismatch (with a message naming it), 2 when the exchange cannot be read.
//
// It implements docs/price-record.md on its own (node:crypto, no code of the exchange), so it is also a
// worked example for anyone writing a verifier of their own.
import { createHash } from 'node:crypto';

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

/** Verifies every market (or one) of the exchange at `base`; resolves to the lines of its report. */
export async function verifyExchange(
  base: string,
  symbol: string | undefined,
  fetcher: Fetch = fetch,
): Promise<string[]> {
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
  return report;
}

if (import.meta.main) {
  const [base, symbol] = process.argv.slice(2);
  if (base === undefined || !URL.canParse(base)) {
    console.error('usage: npm run verify:prices -- <base url> [symbol]');
    process.exit(2);
  }
  try {
    for (const line of await verifyExchange(base, symbol)) console.log(`ok  ${line}`);
    console.log('the price record verifies');
  } catch (error) {
    if (error instanceof VerificationError) {
      console.error(`MISMATCH  ${error.message}`);
      process.exit(1);
    }
    console.error(`cannot read the price record: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
