import type { PriceHead, PriceProof, PriceSample } from '../../data/price-record.ts';

// How a visitor's browser checks the price record on its own (docs/price-record.md). Each sample's hash
// is SHA-256 of the previous sample's hash (64 lowercase hex characters) followed by the sample's
// canonical record; the first sample of a market follows 64 zeros. The canonical record is ASCII text,
// fields joined by "|" with no trailing newline:
//
//   fairex-price-v1|seq|time|source_time|index_price|mark_price|stale|sources
//
// null is the empty string, stale is 1 or 0, sources are name:price:time joined by ";". This module must
// agree with the server's definition character for character; its test pins a vector computed by hand.

export const PRICE_RECORD_VERSION = 'fairex-price-v1';
export const GENESIS_HASH = '0'.repeat(64);

export type CanonicalFields = Pick<
  PriceSample,
  'seq' | 'time' | 'source_time' | 'index_price' | 'mark_price' | 'stale' | 'sources'
>;

/** The canonical record of one sample, the text its hash covers. */
export function canonicalRecord(sample: CanonicalFields): string {
  const sources = sample.sources.map((source) => `${source.name}:${source.price}:${source.time}`).join(';');
  return [
    PRICE_RECORD_VERSION,
    sample.seq,
    sample.time,
    sample.source_time ?? '',
    sample.index_price ?? '',
    sample.mark_price ?? '',
    sample.stale ? '1' : '0',
    sources,
  ].join('|');
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The hash a sample must carry: SHA-256(prev_hash + canonical record), lowercase hex. */
export function chainHash(prevHash: string, sample: CanonicalFields): Promise<string> {
  return sha256Hex(prevHash + canonicalRecord(sample));
}

export type Verification =
  | { result: 'verified'; head: PriceHead; links: number }
  | { result: 'mismatch'; seq: number; reason: 'hash' | 'link' | 'head' | 'order' };

/**
 * Checks a proof in the browser: every sample's hash is recomputed from its own fields and its
 * predecessor's hash, each sample follows the one before it, and the last one is the published head.
 * `publishedHead`, when given, is the head as the heads list showed it, so a proof cannot bring its own.
 */
export async function verifyProof(proof: PriceProof, publishedHead?: PriceHead): Promise<Verification> {
  const head = publishedHead ?? proof.head;
  const samples = proof.samples;
  if (samples.length === 0) return { result: 'mismatch', seq: head.seq, reason: 'head' };
  let previous: PriceSample | null = null;
  for (const sample of samples) {
    if (previous !== null && (sample.seq !== previous.seq + 1 || sample.prev_hash !== previous.hash)) {
      return {
        result: 'mismatch',
        seq: sample.seq,
        reason: sample.seq !== previous.seq + 1 ? 'order' : 'link',
      };
    }
    if (sample.seq === 1 && sample.prev_hash !== GENESIS_HASH) {
      return { result: 'mismatch', seq: sample.seq, reason: 'link' };
    }
    if ((await chainHash(sample.prev_hash, sample)) !== sample.hash) {
      return { result: 'mismatch', seq: sample.seq, reason: 'hash' };
    }
    previous = sample;
  }
  const last = samples[samples.length - 1]!;
  if (last.seq !== head.seq || last.hash !== head.hash || proof.head.hash !== head.hash) {
    return { result: 'mismatch', seq: last.seq, reason: 'head' };
  }
  return { result: 'verified', head, links: samples.length };
}
