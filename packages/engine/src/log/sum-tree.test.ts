// The liabilities sum tree: proofs verify; lowering a sibling's sum, changing an amount, the user or the salt
// fails; negative and overflowing leaves and sums cannot be built; and the fixed test vectors printed in
// docs/transparency.md ("Proof of liabilities"), which the browser's and the CLI's verifiers also check.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../hash/sha256.ts';
import {
  setAmountFromText,
  SUM_LIMIT,
  SumTree,
  SumTreeError,
  sumLeafHash,
  sumLeafHashAt,
  sumNodeHash,
  sumProofAddresses,
  verifySumProof,
} from './sum-tree.ts';
import type { SumLeaf, SumNode } from './sum-tree.ts';

/** The vectors' salts: 32 bytes of 0x11, 0x22, 0x33. */
const salt = (byte: number): Uint8Array => new Uint8Array(32).fill(byte);

// Columns of the vectors: BTC, USDT, USDT:upnl+ (minor units).
export const VECTOR_LEAVES: SumLeaf[] = [
  { salt: salt(0x11), userId: '1', amounts: [100_000_000n, 5_000_000n, 0n] },
  { salt: salt(0x22), userId: '2', amounts: [0n, 1_234_567n, 89n] },
  { salt: salt(0x33), userId: '3', amounts: [250_000n, 0n, 7n] },
];

export const VECTORS = {
  leaves: [
    'cff375d2a8367abca551a5e0ef7e353d5f10fa58b143671c881bb2c3a208aa6c',
    'ff69abbe0b9b0357bce1c4a6961cd888c719b6b0ff7245c27f927bb2dd76972c',
    'a2f0d8248e6f833bbc029c58dfe3ff62316179f1bcf01e375a2b0edb1bd9bfff',
  ],
  /** node(leaf 0, leaf 1), sums 100000000, 6234567, 89. */
  node01: '4bd0019d4680ebb6fa1d5d68c57359e798b019fb75412aeb213105eb090fbdc0',
  root: '2c18a484427a76a34a510839254ae9d4fed1b875554ea66c7095285086da48db',
  totals: [100_250_000n, 6_234_567n, 96n],
};

/** The same hashes with node:crypto, written from the encoding in the docs, not from sum-tree.ts. */
function referenceLeaf(leaf: SumLeaf): string {
  const amounts = Buffer.alloc(leaf.amounts.length * 8);
  leaf.amounts.forEach((amount, column) => amounts.writeBigUInt64BE(amount, column * 8));
  return createHash('sha256')
    .update(Buffer.from([0]))
    .update(leaf.salt)
    .update(`user:${leaf.userId}`, 'utf8')
    .update(Buffer.from([0]))
    .update(amounts)
    .digest('hex');
}

function referenceNode(left: [string, bigint[]], right: [string, bigint[]]): [string, bigint[]] {
  const side = ([hash, sums]: [string, bigint[]]) => {
    const bytes = Buffer.alloc(sums.length * 8);
    sums.forEach((sum, column) => bytes.writeBigUInt64BE(sum, column * 8));
    return Buffer.concat([Buffer.from(hash, 'hex'), bytes]);
  };
  const hash = createHash('sha256')
    .update(Buffer.concat([Buffer.from([1]), side(left), side(right)]))
    .digest('hex');
  return [hash, left[1].map((sum, column) => sum + (right[1][column] as bigint))];
}

const claimOf = (tree: SumTree, leaves: readonly SumLeaf[], position: number) => {
  const root = tree.root();
  return {
    leaf: leaves[position] as SumLeaf,
    position,
    leafCount: tree.leafCount,
    path: tree.proof(position),
    rootHash: root.hash,
    rootSums: root.sums,
  };
};

describe('the test vectors', () => {
  const tree = SumTree.build(VECTOR_LEAVES, 3);

  it('hash leaves and nodes as the docs say (checked against node:crypto)', () => {
    const leaves = VECTOR_LEAVES.map(referenceLeaf);
    expect(VECTOR_LEAVES.map((leaf) => toHex(sumLeafHash(leaf)))).toEqual(leaves);
    // Three leaves split 2 + 1: root = node(node(leaf0, leaf1), leaf2).
    const left = referenceNode(
      [leaves[0] as string, [...VECTOR_LEAVES[0]!.amounts]],
      [leaves[1] as string, [...VECTOR_LEAVES[1]!.amounts]],
    );
    const root = referenceNode(left, [leaves[2] as string, [...VECTOR_LEAVES[2]!.amounts]]);
    expect(toHex(tree.root().hash)).toBe(root[0]);
    expect(tree.root().sums).toEqual(root[1]);
    expect(tree.root().sums).toEqual(VECTORS.totals);
  });

  it('are the fixed values printed in the docs', () => {
    expect(VECTOR_LEAVES.map((leaf) => toHex(sumLeafHash(leaf)))).toEqual(VECTORS.leaves);
    expect(toHex(tree.node(1, 0).hash)).toBe(VECTORS.node01);
    expect(toHex(tree.root().hash)).toBe(VECTORS.root);
  });

  it("user 3's proof: one step, node(leaf 0, leaf 1) on the left", () => {
    expect(tree.proof(2).map((step) => [toHex(step.hash), step.sums])).toEqual([
      [VECTORS.node01, [100_000_000n, 6_234_567n, 89n]],
    ]);
    expect(verifySumProof(claimOf(tree, VECTOR_LEAVES, 2))).toBe(true);
  });

  it("user 2's proof: leaf 0 on the left, then leaf 2 on the right", () => {
    const proof = tree.proof(1);
    expect(proof.map((step) => [toHex(step.hash), step.sums])).toEqual([
      [VECTORS.leaves[0], VECTOR_LEAVES[0]!.amounts],
      [VECTORS.leaves[2], VECTOR_LEAVES[2]!.amounts],
    ]);
    expect(verifySumProof(claimOf(tree, VECTOR_LEAVES, 1))).toBe(true);
  });
});

const arbitraryLeaves = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 40 }))
  .chain(([columns, count]) =>
    fc.tuple(
      fc.constant(columns),
      fc.array(
        fc.record({
          salt: fc.uint8Array({ minLength: 32, maxLength: 32 }),
          amounts: fc.array(fc.bigInt({ min: 0n, max: (1n << 56n) - 1n }), {
            minLength: columns,
            maxLength: columns,
          }),
        }),
        { minLength: count, maxLength: count },
      ),
    ),
  )
  .map(([columns, rows]) => ({
    columns,
    leaves: rows.map((row, index): SumLeaf => ({ ...row, userId: String(index + 1) })),
  }));

describe('proofs', () => {
  it('every leaf of every tree verifies, and the root sums are the column totals', () => {
    fc.assert(
      fc.property(arbitraryLeaves, ({ columns, leaves }) => {
        const tree = SumTree.build(leaves, columns);
        const totals = Array.from({ length: columns }, (_, column) =>
          leaves.reduce((sum, leaf) => sum + (leaf.amounts[column] as bigint), 0n),
        );
        expect(tree.root().sums).toEqual(totals);
        for (let position = 0; position < leaves.length; position += 1)
          expect(verifySumProof(claimOf(tree, leaves, position))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('the proof addresses are the RFC 9162 inclusion path (its length for every size)', () => {
    for (let count = 1; count <= 70; count += 1) {
      for (let position = 0; position < count; position += 1) {
        let expected = 0;
        // RFC 9162 PATH(m, D[n]) length, by its recursion.
        for (let m = position, n = count; n > 1;) {
          let k = 1;
          while (k * 2 < n) k *= 2;
          expected += 1;
          if (m < k) n = k;
          else {
            m -= k;
            n -= k;
          }
        }
        expect(sumProofAddresses(position, count)).toHaveLength(expected);
      }
    }
  });

  it('fails when any sibling sum is lowered, any amount changed, or the user or salt differs', () => {
    fc.assert(
      fc.property(arbitraryLeaves, fc.nat(), fc.nat(), ({ columns, leaves }, pick, pickColumn) => {
        if (leaves.length < 2) return;
        const tree = SumTree.build(leaves, columns);
        const position = pick % leaves.length;
        const claim = claimOf(tree, leaves, position);
        const column = pickColumn % columns;
        // Lowering any sibling's sum (where there is something to lower) fails.
        claim.path.forEach((step, at) => {
          if ((step.sums[column] as bigint) === 0n) return;
          const sums = step.sums.map((sum, c) => (c === column ? sum - 1n : sum));
          const path: SumNode[] = claim.path.map((s, i) => (i === at ? { hash: s.hash, sums } : s));
          expect(verifySumProof({ ...claim, path })).toBe(false);
          // Even with the published totals lowered to match, the hash gives it away.
          const rootSums = claim.rootSums.map((sum, c) => (c === column ? sum - 1n : sum));
          expect(verifySumProof({ ...claim, path, rootSums })).toBe(false);
        });
        // Any amount changed, up or down.
        const leaf = claim.leaf;
        for (const delta of [1n, -1n]) {
          const amount = (leaf.amounts[column] as bigint) + delta;
          if (amount < 0n) continue;
          const amounts = leaf.amounts.map((a, c) => (c === column ? amount : a));
          expect(verifySumProof({ ...claim, leaf: { ...leaf, amounts } })).toBe(false);
        }
        // Another user's id, or another salt.
        expect(verifySumProof({ ...claim, leaf: { ...leaf, userId: `${leaf.userId}0` } })).toBe(false);
        const otherSalt = leaf.salt.slice();
        otherSalt[0] = (otherSalt[0] as number) ^ 1;
        expect(verifySumProof({ ...claim, leaf: { ...leaf, salt: otherSalt } })).toBe(false);
        // Another position. (The leaf count is not bound by the hashes alone, as in RFC 9162: a verifier
        // takes it from the log entry, never from the proof.)
        expect(verifySumProof({ ...claim, position: (position + 1) % leaves.length })).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('a sibling claiming a negative or 2^64 sum fails instead of throwing', () => {
    const tree = SumTree.build(VECTOR_LEAVES, 3);
    const claim = claimOf(tree, VECTOR_LEAVES, 1);
    for (const bad of [-1n, SUM_LIMIT]) {
      const path = claim.path.map((step, at) => (at === 0 ? { hash: step.hash, sums: [bad, 0n, 0n] } : step));
      expect(verifySumProof({ ...claim, path })).toBe(false);
    }
  });
});

describe('refused leaves and sums', () => {
  const leaf = (amounts: bigint[]): SumLeaf => ({ salt: salt(1), userId: '9', amounts });
  const code = (build: () => unknown): string => {
    try {
      build();
    } catch (error) {
      if (error instanceof SumTreeError) return error.code;
      throw error;
    }
    return 'built';
  };

  it('a negative amount cannot be built', () => {
    expect(code(() => SumTree.build([leaf([1n, -1n])], 2))).toBe('negative_amount');
    expect(code(() => sumLeafHash(leaf([-5n])))).toBe('negative_amount');
  });

  it('an amount of 2^64 or more cannot be built', () => {
    expect(code(() => SumTree.build([leaf([SUM_LIMIT])], 1))).toBe('amount_overflow');
    expect(code(() => SumTree.build([leaf([SUM_LIMIT - 1n])], 1))).toBe('built');
  });

  it('a sum that reaches 2^64 cannot be built, even when every leaf is in range', () => {
    const half = SUM_LIMIT / 2n;
    expect(code(() => SumTree.build([leaf([half]), leaf([half])], 1))).toBe('sum_overflow');
    expect(code(() => SumTree.build([leaf([half]), leaf([half - 1n])], 1))).toBe('built');
    expect(code(() => SumTree.build([leaf([1n]), leaf([1n]), leaf([SUM_LIMIT - 2n])], 1))).toBe(
      'sum_overflow',
    );
  });

  it('wrong column counts, salts, user ids and an empty tree are refused', () => {
    expect(code(() => SumTree.build([leaf([1n])], 2))).toBe('column_count');
    expect(code(() => SumTree.build([{ salt: salt(1).subarray(1), userId: '1', amounts: [] }], 0))).toBe(
      'salt_length',
    );
    expect(code(() => SumTree.build([{ salt: salt(1), userId: 'a b', amounts: [] }], 0))).toBe('user_id');
    expect(code(() => SumTree.build([], 1))).toBe('no_leaves');
  });

  it('a node hash commits to both sides: sumNodeHash differs when only a sum differs', () => {
    const a = sumLeafHash(VECTOR_LEAVES[0]!);
    const b = sumLeafHash(VECTOR_LEAVES[1]!);
    expect(toHex(sumNodeHash(a, [1n], b, [2n]))).not.toBe(toHex(sumNodeHash(a, [1n], b, [1n])));
    expect(toHex(sumNodeHash(a, [1n], b, [2n]))).not.toBe(toHex(sumNodeHash(a, [0n], b, [2n])));
  });
});

describe('the word arithmetic of large trees', () => {
  it('adds with a carry across the 32-bit halves and hashes as the bigint encoding does', () => {
    const big: SumLeaf[] = [
      { salt: salt(1), userId: '1', amounts: [0xffff_ffffn, (1n << 62n) + 0xffff_ffffn] },
      { salt: salt(2), userId: '2', amounts: [1n, 0xffff_ffffn] },
      { salt: salt(3), userId: '3', amounts: [0x1_0000_0000n, (1n << 63n) - 3n] },
    ];
    const tree = SumTree.build(big, 2);
    const left = referenceNode(
      [referenceLeaf(big[0]!), [...big[0]!.amounts]],
      [referenceLeaf(big[1]!), [...big[1]!.amounts]],
    );
    const root = referenceNode(left, [referenceLeaf(big[2]!), [...big[2]!.amounts]]);
    expect(toHex(tree.root().hash)).toBe(root[0]);
    expect(tree.root().sums).toEqual(root[1]);
    expect(tree.node(1, 0).sums).toEqual([0x1_0000_0000n, (1n << 62n) + 0x1_ffff_fffen]);
  });

  it('reads amounts from text beyond 2^53 exactly, and refuses what is no amount', () => {
    const into = new BigUint64Array(4);
    setAmountFromText(into, 0, '18446744073709551615', 0, '1');
    setAmountFromText(into, 1, '9007199254740993', 1, '1');
    setAmountFromText(into, 2, '123456789012345', 2, '1');
    expect([...into.subarray(0, 3)]).toEqual([SUM_LIMIT - 1n, 9_007_199_254_740_993n, 123_456_789_012_345n]);
    for (const [text, code] of [
      ['-1', 'negative_amount'],
      ['18446744073709551616', 'amount_overflow'],
      ['1.5', 'amount_overflow'],
      ['', 'amount_overflow'],
    ] as const)
      expect(() => setAmountFromText(into, 3, text, 3, '1')).toThrow(expect.objectContaining({ code }));
    const sums = new BigUint64Array([5n, SUM_LIMIT - 1n]);
    const leaf = { salt: salt(9), userId: '77', amounts: [5n, SUM_LIMIT - 1n] };
    expect(toHex(sumLeafHashAt(leaf.salt, '77', sums, 0, 2))).toBe(toHex(sumLeafHash(leaf)));
  });
});
