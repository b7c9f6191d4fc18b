// The offline liabilities verifier on its own: the docs' test vectors, a signed note made here with a fresh
// Ed25519 key (C2SP signed-note, as log-design.md gives it), and an RFC 9162 inclusion proof, checked with
// the verifier's functions; the engine's sum tree and this verifier, written separately, agree.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { SumTree } from '@fairex/engine/log/sum-tree.ts';
import { describe, expect, it } from 'vitest';
import {
  checkNoteSignature,
  logLeafHash,
  parseCheckpoint,
  proofRoot,
  sumLeaf,
  verifyInclusion,
  verifyLiabilitiesProof,
  VerificationError,
} from './verify-liabilities.ts';
import type { LiabilitiesProof } from './verify-liabilities.ts';

const salt = (byte: number) => Buffer.alloc(32, byte);
const LEAVES = [
  { salt: salt(0x11), userId: '1', amounts: [100_000_000n, 5_000_000n, 0n] },
  { salt: salt(0x22), userId: '2', amounts: [0n, 1_234_567n, 89n] },
  { salt: salt(0x33), userId: '3', amounts: [250_000n, 0n, 7n] },
];
const ROOT = '2c18a484427a76a34a510839254ae9d4fed1b875554ea66c7095285086da48db';
const COLUMNS = ['BTC', 'USDT', 'USDT:upnl+'];

function proofOf(position: number): LiabilitiesProof {
  const tree = SumTree.build(LEAVES, 3);
  const leaf = LEAVES[position]!;
  return {
    snapshot_id: '2026-12-07',
    log_index: 1,
    user_id: leaf.userId,
    position,
    leaves: 3,
    columns: COLUMNS,
    salt: leaf.salt.toString('hex'),
    amounts: leaf.amounts.map(String),
    path: tree.proof(position).map((step) => ({
      hash: Buffer.from(step.hash).toString('hex'),
      sums: step.sums.map(String),
    })),
    root: ROOT,
    totals: ['100250000', '6234567', '96'],
  };
}

const ENTRY =
  'fairex-log-v1 liabilities\nsnapshot 2026-12-07\nseq 10\ntime 1765000000000\nleaves 3\n' +
  `root ${ROOT}\ntotal BTC 100250000\ntotal USDT 6234567\ntotal USDT:upnl+ 96\n` +
  'identity BTC 100250000 0 -100250000\nidentity USDT 6234567 -5 -6234562\n';

describe('the offline liabilities verifier', () => {
  it('computes the docs test vectors independently', () => {
    expect(sumLeaf(LEAVES[0]!.salt, '1', LEAVES[0]!.amounts).toString('hex')).toBe(
      'cff375d2a8367abca551a5e0ef7e353d5f10fa58b143671c881bb2c3a208aa6c',
    );
    for (const position of [0, 1, 2]) expect(proofRoot(proofOf(position)).hash.toString('hex')).toBe(ROOT);
  });

  it('accepts each proof against the entry, and refuses any change', () => {
    for (const position of [0, 1, 2]) expect(verifyLiabilitiesProof(proofOf(position), ENTRY).ok).toBe(true);
    const lowered = proofOf(1);
    lowered.path[0]!.sums[0] = '99999999';
    expect(verifyLiabilitiesProof(lowered, ENTRY).ok).toBe(false);
    const otherCount = proofOf(0);
    otherCount.leaves = 4;
    expect(verifyLiabilitiesProof(otherCount, ENTRY)).toMatchObject({ ok: false });
    expect(
      verifyLiabilitiesProof(proofOf(0), ENTRY.replace('total USDT 6234567', 'total USDT 6234566')).ok,
    ).toBe(false);
    expect(verifyLiabilitiesProof({} as LiabilitiesProof, ENTRY)).toMatchObject({ ok: false });
  });

  it('checks a signed note and an inclusion proof', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
    const name = 'localhost/fairex-log';
    const keyId = createHash('sha256')
      .update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.from([1]), raw]))
      .digest()
      .subarray(0, 4);
    const verifierKey = `${name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.from([1]), raw]).toString('base64')}`;
    // A two-entry log: a prices entry, then the liabilities entry at index 1.
    const first = logLeafHash('fairex-log-v1 prices\ntime 1\n');
    const second = logLeafHash(ENTRY);
    const root = createHash('sha256')
      .update(Buffer.concat([Buffer.from([1]), first, second]))
      .digest();
    const body = `${name}\n2\n${root.toString('base64')}\n`;
    const signature = sign(null, Buffer.from(body), privateKey);
    const note = `${body}\n\u2014 ${name} ${Buffer.concat([keyId, signature]).toString('base64')}\n`;
    const checkpoint = parseCheckpoint(note);
    expect(checkpoint).toMatchObject({ origin: name, size: 2 });
    expect(() => checkNoteSignature(checkpoint, verifierKey)).not.toThrow();
    expect(verifyInclusion(second, 1, 2, [first], checkpoint.root)).toBe(true);
    expect(verifyInclusion(first, 1, 2, [second], checkpoint.root)).toBe(false);
    const forged = parseCheckpoint(note.replace(`\n2\n`, `\n3\n`));
    expect(() => checkNoteSignature(forged, verifierKey)).toThrow(VerificationError);
  });
});
