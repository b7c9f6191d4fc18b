// The browser's verifier against the RFC 6962 reference vectors (the eight leaves Certificate Transparency's
// own tests use, with the roots and proofs the engine's tree is pinned to), a checkpoint signed here with
// node:crypto in the documented C2SP form, and a small liabilities sum tree.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_ROOT_HEX,
  bytesToHex,
  hexToBytes,
  leafHash,
  nodeHash,
  parseCheckpointBody,
  parseLiabilitiesEntry,
  parsePricesEntry,
  parseVerifierKey,
  sumLeaf,
  sumNode,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
  verifyLiabilitiesProof,
  walkInclusion,
  type LiabilitiesEntry,
  type LiabilitiesProof,
  type SumNode,
} from './verify.ts';

const hex = (text: string): Uint8Array => hexToBytes(text)!;

// Data, as the engine's tests state them (RFC 6962's reference implementation).
const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const INCLUSION: [number, number, string[]][] = [
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
const CONSISTENCY: [number, number, string[]][] = [
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

/** The root of a list of leaf hashes by RFC 9162's definition (split at the largest power of two below n). */
async function mth(leaves: Uint8Array[]): Promise<Uint8Array> {
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(await mth(leaves.slice(0, k)), await mth(leaves.slice(k)));
}

describe('RFC 6962 vectors in the browser verifier', () => {
  it('hashes leaves and builds the eight roots', async () => {
    const leaves = await Promise.all(LEAVES.map((leaf) => leafHash(hex(leaf))));
    expect(bytesToHex(await leafHash(new Uint8Array()))).toBe(
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    );
    for (let size = 1; size <= 8; size += 1) {
      expect(bytesToHex(await mth(leaves.slice(0, size)))).toBe(ROOTS[size - 1]);
    }
  });

  it('accepts the inclusion proofs and refuses any change to them', async () => {
    for (const [index, size, path] of INCLUSION) {
      const leaf = await leafHash(hex(LEAVES[index]!));
      const proof = path.map(hex);
      const root = hex(ROOTS[size - 1]!);
      expect(await verifyInclusion(leaf, index, size, proof, root)).toBe(true);
      expect(await verifyInclusion(leaf, index + 1, size, proof, root)).toBe(false);
      expect(await verifyInclusion(await leafHash(hex('ff')), index, size, proof, root)).toBe(false);
      if (proof.length > 0) {
        const changed = proof.map((node, i) => (i === 0 ? Uint8Array.from(node, (b) => b ^ 1) : node));
        expect(await verifyInclusion(leaf, index, size, changed, root)).toBe(false);
        expect(await verifyInclusion(leaf, index, size, proof.slice(1), root)).toBe(false);
      }
      expect(await verifyInclusion(leaf, index, size, [...proof, leaf], root)).toBe(false);
    }
  });

  it('accepts the consistency proofs and refuses any change to them', async () => {
    for (const [first, second, path] of CONSISTENCY) {
      const proof = path.map(hex);
      const a = hex(ROOTS[first - 1]!);
      const b = hex(ROOTS[second - 1]!);
      expect(await verifyConsistency(first, second, a, b, proof)).toBe(true);
      expect(
        await verifyConsistency(
          first,
          second,
          b.map((x) => x ^ 1),
          b,
          proof,
        ),
      ).toBe(false);
      if (first !== second) {
        expect(await verifyConsistency(first, second, a, a, proof)).toBe(false);
        expect(await verifyConsistency(first, second, a, b, proof.slice(0, -1))).toBe(false);
        expect(await verifyConsistency(first + 1, second, a, b, proof)).toBe(false);
        expect(await verifyConsistency(second, first, b, a, proof)).toBe(false);
      }
    }
    expect(await verifyConsistency(0, 5, hex(EMPTY_ROOT_HEX), hex(ROOTS[4]!), [])).toBe(true);
  });

  it('checks consistency between every pair of sizes of a longer log, built here', async () => {
    const leaves = await Promise.all(Array.from({ length: 13 }, (_, i) => leafHash(Uint8Array.of(i))));
    const roots = await Promise.all(leaves.map((_, i) => mth(leaves.slice(0, i + 1))));
    // RFC 9162 section 2.1.4.1's SUBPROOF, to produce the proofs the server would serve.
    const subproof = async (m: number, d: Uint8Array[], b: boolean): Promise<Uint8Array[]> => {
      const n = d.length;
      if (m === n) return b ? [] : [await mth(d)];
      let k = 1;
      while (k * 2 < n) k *= 2;
      if (m <= k) return [...(await subproof(m, d.slice(0, k), b)), await mth(d.slice(k))];
      return [...(await subproof(m - k, d.slice(k), false)), await mth(d.slice(0, k))];
    };
    for (let second = 1; second <= 13; second += 1) {
      for (let first = 1; first <= second; first += 1) {
        const proof = await subproof(first, leaves.slice(0, second), true);
        const ok = await verifyConsistency(first, second, roots[first - 1]!, roots[second - 1]!, proof);
        expect(ok, `${first} -> ${second}`).toBe(true);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

const ORIGIN = 'example.test/fairex-log';

function rawPublicKey(key: KeyObject): Buffer {
  // The SPKI of an Ed25519 key ends with the 32 raw bytes.
  return key.export({ format: 'der', type: 'spki' }).subarray(-32);
}

function keyText(name: string, publicKey: Buffer): string {
  const id = createHash('sha256')
    .update(Buffer.concat([Buffer.from(name), Buffer.of(0x0a, 0x01), publicKey]))
    .digest()
    .subarray(0, 4);
  return `${name}+${id.toString('hex')}+${Buffer.concat([Buffer.of(1), publicKey]).toString('base64')}`;
}

/** A checkpoint note signed with node:crypto exactly as the notes of the design describe. */
function signedNote(
  name: string,
  privateKey: KeyObject,
  publicKey: Buffer,
  size: number,
  root: string,
): string {
  const body = `${name}\n${size}\n${Buffer.from(root, 'hex').toString('base64')}\n`;
  const id = createHash('sha256')
    .update(Buffer.concat([Buffer.from(name), Buffer.of(0x0a, 0x01), publicKey]))
    .digest()
    .subarray(0, 4);
  const signature = sign(null, Buffer.from(body), privateKey);
  return `${body}\n\u2014 ${name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
}

describe('signed checkpoints', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = rawPublicKey(publicKey);
  const text = keyText(ORIGIN, raw);

  it('reads the verifier key text and checks its key id', async () => {
    const key = await parseVerifierKey(text);
    expect(key?.name).toBe(ORIGIN);
    expect(bytesToHex(key!.publicKey)).toBe(raw.toString('hex'));
    const wrongId = text.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    expect(await parseVerifierKey(wrongId)).toBeNull();
    expect(await parseVerifierKey('no-plus-signs')).toBeNull();
    expect(
      await parseVerifierKey(keyText('other.test/log', raw).replace('other.test/log', ORIGIN)),
    ).toBeNull();
  });

  it('accepts a note the log key signed and reads its size and root', async () => {
    const key = (await parseVerifierKey(text))!;
    const note = signedNote(ORIGIN, privateKey, raw, 8, ROOTS[7]!);
    const check = await verifyCheckpoint(note, key);
    expect(check).toEqual({
      ok: true,
      checkpoint: { origin: ORIGIN, size: 8, root: ROOTS[7], note },
      cosigners: [],
    });
  });

  it('lists cosigners but does not let their lines stand in for the log key', async () => {
    const key = (await parseVerifierKey(text))!;
    const note = signedNote(ORIGIN, privateKey, raw, 8, ROOTS[7]!);
    const cosigned = `${note}\u2014 witness.test ${Buffer.alloc(76, 7).toString('base64')}\n`;
    const check = await verifyCheckpoint(cosigned, key);
    expect(check.ok && check.cosigners).toEqual(['witness.test']);
    const onlyWitness = note.replace(
      /\u2014 .*\n$/,
      `\u2014 witness.test ${Buffer.alloc(68).toString('base64')}\n`,
    );
    expect(await verifyCheckpoint(onlyWitness, key)).toEqual({ ok: false, reason: 'unsigned' });
  });

  it('refuses a changed size or root, another key, another origin and malformed notes', async () => {
    const key = (await parseVerifierKey(text))!;
    const note = signedNote(ORIGIN, privateKey, raw, 8, ROOTS[7]!);
    expect(await verifyCheckpoint(note.replace('\n8\n', '\n9\n'), key)).toEqual({
      ok: false,
      reason: 'signature',
    });
    const otherRoot = Buffer.from(ROOTS[6]!, 'hex').toString('base64');
    const original = Buffer.from(ROOTS[7]!, 'hex').toString('base64');
    expect(await verifyCheckpoint(note.replace(original, otherRoot), key)).toEqual({
      ok: false,
      reason: 'signature',
    });
    const other = generateKeyPairSync('ed25519');
    const forged = signedNote(ORIGIN, other.privateKey, raw, 8, ROOTS[7]!);
    expect(await verifyCheckpoint(forged, key)).toEqual({ ok: false, reason: 'signature' });
    const elsewhere = (await parseVerifierKey(keyText('other.test/log', raw)))!;
    expect(await verifyCheckpoint(note, elsewhere)).toEqual({ ok: false, reason: 'origin' });
    expect(await verifyCheckpoint(note.replace('\n\n', '\n'), key)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(await verifyCheckpoint(note.slice(0, -1), key)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('reads checkpoint bodies strictly', () => {
    const root = Buffer.from(ROOTS[0]!, 'hex').toString('base64');
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${root}\n`)).toEqual({
      origin: ORIGIN,
      size: 1,
      root: ROOTS[0],
    });
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${root}\nextension line\n`)?.size).toBe(1);
    expect(parseCheckpointBody(`${ORIGIN}\n01\n${root}\n`)).toBeNull();
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${root.slice(4)}\n`)).toBeNull();
    expect(parseCheckpointBody(`${ORIGIN}\n1\n${root}`)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('log entries', () => {
  it('reads a prices entry', () => {
    const entry =
      'fairex-log-v1 prices\ntime 1700000000000\n' +
      `BTC/USDT 12 ${'a'.repeat(64)}\nETH/USDT 9 ${'b'.repeat(64)}\n`;
    expect(parsePricesEntry(entry)).toEqual({
      time: 1700000000000,
      samples: [
        { symbol: 'BTC/USDT', seq: 12, hash: 'a'.repeat(64) },
        { symbol: 'ETH/USDT', seq: 9, hash: 'b'.repeat(64) },
      ],
    });
    expect(parsePricesEntry(entry.slice(0, -1))).toBeNull();
    expect(parsePricesEntry(entry.replace('12', '012'))).toBeNull();
  });

  it('reads a liabilities entry', () => {
    const entry = [
      'fairex-log-v1 liabilities',
      'snapshot daily-2026-12-07',
      'seq 991',
      'time 1765065600000',
      'leaves 3',
      `root ${'c'.repeat(64)}`,
      'total BTC 150000000',
      'total USDT 7000',
      'total USDT:upnl+ 0',
      'identity BTC 150000000 -5 -149999995',
      'identity USDT 7000 0 -7000',
      '',
    ].join('\n');
    const parsed = parseLiabilitiesEntry(entry);
    expect(parsed?.totals.map((total) => [total.column, total.amount])).toEqual([
      ['BTC', 150000000n],
      ['USDT', 7000n],
      ['USDT:upnl+', 0n],
    ]);
    expect(parsed?.identity[0]).toEqual({
      currency: 'BTC',
      users: 150000000n,
      exchange: -5n,
      outside: -149999995n,
    });
    expect(parsed?.leaves).toBe(3);
    expect(parseLiabilitiesEntry(entry.replace('total USDT 7000', 'total USDT -7000'))).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('liabilities sum tree', () => {
  const columns = ['BTC', 'USDT'];
  const users: [string, bigint[]][] = [
    ['7', [5n, 100n]],
    ['12', [0n, 2500n]],
    ['3', [100000000n, 0n]],
    ['41', [1n, 1n]],
    ['9', [0n, 9n]],
  ];
  const salt = (i: number) => bytesToHex(new Uint8Array(32).fill(i + 1));

  async function build(): Promise<{ leaves: SumNode[]; root: SumNode }> {
    const leaves = await Promise.all(users.map(([id, amounts], i) => sumLeaf(hex(salt(i)), id, amounts)));
    const tree = async (nodes: SumNode[]): Promise<SumNode> => {
      if (nodes.length === 1) return nodes[0]!;
      let k = 1;
      while (k * 2 < nodes.length) k *= 2;
      return sumNode(await tree(nodes.slice(0, k)), await tree(nodes.slice(k)));
    };
    return { leaves, root: await tree(leaves) };
  }

  async function pathOf(nodes: SumNode[], index: number): Promise<SumNode[]> {
    if (nodes.length === 1) return [];
    let k = 1;
    while (k * 2 < nodes.length) k *= 2;
    const build = async (list: SumNode[]): Promise<SumNode> => {
      if (list.length === 1) return list[0]!;
      let s = 1;
      while (s * 2 < list.length) s *= 2;
      return sumNode(await build(list.slice(0, s)), await build(list.slice(s)));
    };
    return index < k
      ? [...(await pathOf(nodes.slice(0, k), index)), await build(nodes.slice(k))]
      : [...(await pathOf(nodes.slice(k), index - k)), await build(nodes.slice(0, k))];
  }

  async function setUp(position: number): Promise<{ proof: LiabilitiesProof; entry: LiabilitiesEntry }> {
    const { leaves, root } = await build();
    const path = await pathOf(leaves, position);
    const proof: LiabilitiesProof = {
      snapshot_id: 's1',
      log_index: 4,
      user_id: users[position]![0],
      position,
      leaves: users.length,
      columns,
      salt: salt(position),
      amounts: users[position]![1],
      path: path.map((node) => ({ hash: bytesToHex(node.hash), sums: node.sums })),
    };
    const entry: LiabilitiesEntry = {
      snapshotId: 's1',
      seq: 1,
      time: 1,
      leaves: users.length,
      root: bytesToHex(root.hash),
      totals: columns.map((column, i) => ({ column, amount: root.sums[i]! })),
      identity: [],
    };
    return { proof, entry };
  }

  it('verifies every user’s proof against the published root and totals', async () => {
    for (let position = 0; position < users.length; position += 1) {
      const { proof, entry } = await setUp(position);
      expect(await verifyLiabilitiesProof(proof, entry)).toEqual({ ok: true });
    }
    const { entry } = await setUp(0);
    expect(entry.totals.map((total) => total.amount)).toEqual([100000006n, 2610n]);
  });

  it('fails when any sibling sum is lowered, or the amounts, position or totals are changed', async () => {
    for (let position = 0; position < users.length; position += 1) {
      const { proof, entry } = await setUp(position);
      for (let i = 0; i < proof.path.length; i += 1) {
        for (let c = 0; c < columns.length; c += 1) {
          if (proof.path[i]!.sums[c] === 0n) continue;
          const path = proof.path.map((node, j) =>
            j === i ? { ...node, sums: node.sums.map((sum, k) => (k === c ? sum - 1n : sum)) } : node,
          );
          const check = await verifyLiabilitiesProof({ ...proof, path }, entry);
          expect(check.ok).toBe(false);
        }
      }
      const amounts = proof.amounts.map((amount, k) => (k === 1 ? amount + 1n : amount));
      expect((await verifyLiabilitiesProof({ ...proof, amounts }, entry)).ok).toBe(false);
      const lowered = { ...entry, totals: entry.totals.map((t) => ({ ...t, amount: t.amount + 1n })) };
      expect(await verifyLiabilitiesProof(proof, lowered)).toEqual({ ok: false, reason: 'totals' });
      const moved = { ...proof, position: (position + 1) % users.length };
      expect((await verifyLiabilitiesProof(moved, entry)).ok).toBe(false);
    }
  });

  it('refuses negative amounts and sums that reach 2^64', async () => {
    const s = hex(salt(0));
    await expect(sumLeaf(s, '1', [-1n, 0n])).rejects.toThrow(RangeError);
    await expect(sumLeaf(s, '1', [1n << 64n, 0n])).rejects.toThrow(RangeError);
    const big = await sumLeaf(s, '1', [(1n << 64n) - 1n, 0n]);
    const one = await sumLeaf(s, '2', [1n, 0n]);
    await expect(sumNode(big, one)).rejects.toThrow(RangeError);
    const { proof, entry } = await setUp(0);
    const path = proof.path.map((node, j) => (j === 0 ? { ...node, sums: [-1n, node.sums[1]!] } : node));
    expect(await verifyLiabilitiesProof({ ...proof, path }, entry)).toEqual({ ok: false, reason: 'range' });
  });
});

describe('a proof of a million users', () => {
  it('is under 8 KB as served and checked here in under 50 ms (20 levels, 10 columns)', async () => {
    const columns = Array.from({ length: 10 }, (_, i) => `C${i}`);
    const amounts = columns.map((_, i) => BigInt(1_000_000 + i));
    const salt = bytesToHex(new Uint8Array(32).fill(9));
    // Siblings as a tree of 2^20 leaves would give them: each subtree's sums are large, its hash anything.
    const path = await Promise.all(
      Array.from({ length: 20 }, async (_, level) => ({
        hash: bytesToHex(await leafHash(Uint8Array.of(level))),
        sums: columns.map((_, i) => BigInt(2 ** level) * 987_654_321n + BigInt(i)),
      })),
    );
    const proof: LiabilitiesProof = {
      snapshot_id: 'daily-2026-12-07',
      log_index: 123_456_789,
      user_id: '1000000',
      position: 654_321,
      leaves: 1_000_000,
      columns,
      salt,
      amounts,
      path,
    };
    // The published root and totals are the ones this path leads to.
    const leaf = await sumLeaf(hex(salt), proof.user_id, amounts);
    const nodes = path.map((item) => ({ hash: hex(item.hash), sums: item.sums }));
    const node = (await walkInclusion(BigInt(proof.position), BigInt(proof.leaves), leaf, nodes, sumNode))!;
    const entry: LiabilitiesEntry = {
      snapshotId: proof.snapshot_id,
      seq: 1,
      time: 1,
      leaves: proof.leaves,
      root: bytesToHex(node.hash),
      totals: columns.map((column, i) => ({ column, amount: node.sums[i]! })),
      identity: [],
    };
    const served = JSON.stringify({
      ...proof,
      amounts: amounts.map(String),
      path: path.map((item) => ({ hash: item.hash, sums: item.sums.map(String) })),
      root: entry.root,
      totals: entry.totals.map((total) => String(total.amount)),
    });
    expect(served.length).toBeLessThan(8 * 1024);
    const started = performance.now();
    expect(await verifyLiabilitiesProof(proof, entry)).toEqual({ ok: true });
    expect(performance.now() - started).toBeLessThan(50);
  });
});
