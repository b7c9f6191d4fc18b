// The Merkle tree against the test vectors of RFC 6962's reference implementation (the eight leaves that
// Certificate Transparency's own tests use), and properties: every proof the log serves verifies, and any
// change to an entry, any reordering, or any rewritten prefix fails against a checkpoint held before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../hash/sha256.ts';
import {
  appendLeaf,
  consistencyProof,
  consistencyProofNodes,
  EMPTY_ROOT,
  inclusionProof,
  inclusionProofNodes,
  leafHash,
  rangeRoot,
  treeRoot,
  treeRootNodes,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';
import type { NodeReader } from './merkle.ts';

const fromHex = (hex: string): Uint8Array =>
  Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));

export const VECTOR_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
export const VECTOR_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** A log in memory: the compact range and every completed node, as the engine and the store keep them. */
function buildLog(entries: readonly Uint8Array[]): { read: NodeReader; roots: Uint8Array[] } {
  const nodes = new Map<string, Uint8Array>();
  let range: Uint8Array[] = [];
  const roots: Uint8Array[] = [EMPTY_ROOT];
  entries.forEach((entry, size) => {
    const appended = appendLeaf(range, size, leafHash(entry));
    range = appended.range;
    for (const node of appended.completed) nodes.set(`${node.level}/${node.index}`, node.hash);
    roots.push(rangeRoot(range));
  });
  const read: NodeReader = (level, index) => {
    const hash = nodes.get(`${level}/${index}`);
    if (hash === undefined) throw new Error(`node ${level}/${index} not stored`);
    return hash;
  };
  return { read, roots };
}

describe('RFC 6962 test vectors', () => {
  const { read, roots } = buildLog(VECTOR_LEAVES.map(fromHex));

  it('the roots of the first 1 to 8 leaves', () => {
    expect(toHex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (let size = 1; size <= 8; size += 1) {
      expect(toHex(roots[size] as Uint8Array)).toBe(VECTOR_ROOTS[size - 1]);
      expect(toHex(treeRoot(read, size))).toBe(VECTOR_ROOTS[size - 1]);
    }
  });

  it('inclusion proofs', () => {
    const cases: [number, number, string[]][] = [
      [0, 1, []],
      [
        0,
        8,
        [
          '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
          '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
          '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
        ],
      ],
      [
        5,
        8,
        [
          'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
          'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
          'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
        ],
      ],
      [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
      [
        1,
        5,
        [
          '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
          '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
          'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
        ],
      ],
    ];
    for (const [index, size, expected] of cases) {
      const proof = inclusionProof(read, index, size);
      expect(proof.map(toHex)).toEqual(expected);
      const leaf = leafHash(fromHex(VECTOR_LEAVES[index] as string));
      expect(verifyInclusion(leaf, index, size, proof, roots[size] as Uint8Array)).toBe(true);
    }
  });

  it('consistency proofs', () => {
    const cases: [number, number, string[]][] = [
      [1, 1, []],
      [
        1,
        8,
        [
          '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
          '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
          '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
        ],
      ],
      [
        6,
        8,
        [
          '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
          'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
          'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
        ],
      ],
      [
        2,
        5,
        [
          '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
          'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
        ],
      ],
    ];
    for (const [first, second, expected] of cases) {
      const proof = consistencyProof(read, first, second);
      expect(proof.map(toHex)).toEqual(expected);
      expect(
        verifyConsistency(first, second, roots[first] as Uint8Array, roots[second] as Uint8Array, proof),
      ).toBe(true);
    }
  });
});

const entryList = fc.array(fc.uint8Array({ maxLength: 12 }), { minLength: 1, maxLength: 70 });

describe('properties', () => {
  it('every inclusion and consistency proof verifies, and reads only the nodes it names', () => {
    fc.assert(
      fc.property(entryList, fc.nat(), fc.nat(), (entries, a, b) => {
        const { read, roots } = buildLog(entries);
        const size = entries.length;
        const second = 1 + (a % size);
        const first = b % (second + 1);
        const index = b % second;
        const readOnly = (allowed: { level: number; index: number }[]): NodeReader => {
          const names = new Set(allowed.map((node) => `${node.level}/${node.index}`));
          return (level, at) => {
            if (!names.has(`${level}/${at}`)) throw new Error(`read ${level}/${at} outside the plan`);
            return read(level, at);
          };
        };
        const inclusion = inclusionProof(readOnly(inclusionProofNodes(index, second)), index, second);
        expect(
          verifyInclusion(
            leafHash(entries[index] as Uint8Array),
            index,
            second,
            inclusion,
            roots[second] as Uint8Array,
          ),
        ).toBe(true);
        const consistency = consistencyProof(readOnly(consistencyProofNodes(first, second)), first, second);
        expect(
          verifyConsistency(
            first,
            second,
            roots[first] as Uint8Array,
            roots[second] as Uint8Array,
            consistency,
          ),
        ).toBe(true);
        expect(toHex(treeRoot(readOnly(treeRootNodes(second)), second))).toBe(
          toHex(roots[second] as Uint8Array),
        );
      }),
    );
  });

  it('a client holding an earlier checkpoint catches any change, reordering or rewritten prefix', () => {
    fc.assert(
      fc.property(
        entryList,
        fc.nat(),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 4 }),
        (entries, a, b, extra) => {
          const honest = buildLog(entries);
          const size = entries.length;
          const held = 1 + (a % size); // the client holds the checkpoint of this size
          const at = b % held; // the operator rewrites an entry the held checkpoint covers
          const forged: Uint8Array[] = entries.slice();
          const original = forged[at] as Uint8Array;
          // A change of the entry, or (where one differs) a swap with its neighbour.
          const neighbour = forged[at + 1];
          const swap = neighbour !== undefined && toHex(neighbour) !== toHex(original) && b % 2 === 0;
          if (swap) {
            forged[at] = neighbour;
            forged[at + 1] = original;
          } else forged[at] = Uint8Array.from([...original, ...extra]);
          // ...and rebuilds the whole tree, growing it too.
          const rebuilt = buildLog([...forged, extra]);
          const newSize = forged.length + 1;
          const proof = consistencyProof(rebuilt.read, held, newSize);
          expect(
            verifyConsistency(
              held,
              newSize,
              honest.roots[held] as Uint8Array,
              rebuilt.roots[newSize] as Uint8Array,
              proof,
            ),
          ).toBe(false);
          // An inclusion proof of the forged entry against the held checkpoint fails too.
          const index = swap && at + 1 < held ? at + 1 : at;
          const inclusion = inclusionProof(rebuilt.read, index, held);
          expect(
            verifyInclusion(
              leafHash(forged[index] as Uint8Array),
              index,
              held,
              inclusion,
              honest.roots[held] as Uint8Array,
            ),
          ).toBe(false);
        },
      ),
    );
  });

  it('refuses proofs of the wrong length or for sizes out of range', () => {
    const { read, roots } = buildLog(VECTOR_LEAVES.map(fromHex));
    const proof = inclusionProof(read, 3, 8);
    const leaf = leafHash(fromHex(VECTOR_LEAVES[3] as string));
    expect(verifyInclusion(leaf, 3, 8, proof.slice(1), roots[8] as Uint8Array)).toBe(false);
    expect(verifyInclusion(leaf, 3, 8, [...proof, EMPTY_ROOT], roots[8] as Uint8Array)).toBe(false);
    expect(verifyInclusion(leaf, 8, 8, proof, roots[8] as Uint8Array)).toBe(false);
    const consistency = consistencyProof(read, 3, 8);
    expect(
      verifyConsistency(3, 8, roots[3] as Uint8Array, roots[8] as Uint8Array, consistency.slice(1)),
    ).toBe(false);
    expect(verifyConsistency(8, 3, roots[8] as Uint8Array, roots[3] as Uint8Array, consistency)).toBe(false);
    expect(() => inclusionProof(read, 8, 8)).toThrow(RangeError);
  });
});
