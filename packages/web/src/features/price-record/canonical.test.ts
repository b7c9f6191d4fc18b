import { describe, expect, it } from 'vitest';
import type { PriceProof, PriceSample } from '../../data/price-record.ts';
import { GENESIS_HASH, canonicalRecord, chainHash, verifyProof } from './canonical.ts';
import { FIRST, HEAD, SECOND } from './test-vectors.ts';

function proof(samples: PriceSample[]): PriceProof {
  return { symbol: 'BTC/USDT', head: HEAD, samples };
}

describe('canonical price record', () => {
  it('is the fixed-order text of the documented format', () => {
    expect(canonicalRecord(FIRST)).toBe(
      'fairex-price-v1|1|1700000000000|1699999999500|67250.12|67251.00|0|' +
        'binance:67250.10:1699999999500;okx:67250.14:1699999999400',
    );
    expect(canonicalRecord(SECOND)).toBe('fairex-price-v1|2|1700000001000||67250.12|67251.00|1|');
  });

  it('hashes the previous hash followed by the record (known vector)', async () => {
    await expect(chainHash(GENESIS_HASH, FIRST)).resolves.toBe(FIRST.hash);
    await expect(chainHash(FIRST.hash, SECOND)).resolves.toBe(SECOND.hash);
  });

  it('agrees with the worked example of the record format', async () => {
    const sample = {
      seq: 1,
      time: 1_764_115_200_000,
      source_time: 1_764_115_200_000,
      index_price: '67250.10',
      mark_price: '67250.10',
      stale: false,
      sources: [{ name: 'simulated', price: '67250.10', time: 1_764_115_200_000 }],
    };
    expect(canonicalRecord(sample)).toBe(
      'fairex-price-v1|1|1764115200000|1764115200000|67250.10|67250.10|0|simulated:67250.10:1764115200000',
    );
    await expect(chainHash(GENESIS_HASH, sample)).resolves.toBe(
      '97d4bfe7de437cc6b294871ccd1bcc546b77fc3b6e59490670992f81e7cbf62e',
    );
  });

  it('verifies a chain up to its published head', async () => {
    await expect(verifyProof(proof([FIRST, SECOND]), HEAD)).resolves.toEqual({
      result: 'verified',
      head: HEAD,
      links: 2,
    });
  });

  it('finds a changed price, a broken link, a gap and a head that is not the published one', async () => {
    const changed = { ...FIRST, mark_price: '67251.01' };
    await expect(verifyProof(proof([changed, SECOND]))).resolves.toMatchObject({
      result: 'mismatch',
      seq: 1,
      reason: 'hash',
    });
    const relinked = { ...SECOND, prev_hash: 'f'.repeat(64) };
    await expect(verifyProof(proof([FIRST, relinked]))).resolves.toMatchObject({ reason: 'link', seq: 2 });
    await expect(verifyProof(proof([FIRST, { ...SECOND, seq: 3 }]))).resolves.toMatchObject({
      reason: 'order',
    });
    const otherHead = { ...HEAD, hash: 'a'.repeat(64) };
    await expect(verifyProof(proof([FIRST, SECOND]), otherHead)).resolves.toMatchObject({
      result: 'mismatch',
      reason: 'head',
    });
  });
});
