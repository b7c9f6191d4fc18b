// Test helpers: a transparency log in memory, served through the fake /api as the server serves it. The
// tree's proofs are built by RFC 9162's recursive definitions (section 2.1), the checkpoint note is signed
// with node:crypto in the documented C2SP form, and a liabilities sum tree gives a user's proof. Nothing
// here is used outside tests.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { ApiHandler } from '../news/test-support.tsx';
import { bytesToHex, leafHash, nodeHash, sumLeaf, sumNode, type SumNode } from './verify.ts';

export const TEST_ORIGIN = 'localhost/fairex-log';

export interface TestKey {
  privateKey: KeyObject;
  raw: Buffer;
  text: string;
}

export function testKey(name = TEST_ORIGIN): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const id = keyId(name, raw);
  const text = `${name}+${id.toString('hex')}+${Buffer.concat([Buffer.of(1), raw]).toString('base64')}`;
  return { privateKey, raw, text };
}

function keyId(name: string, raw: Buffer): Buffer {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(name), Buffer.of(0x0a, 0x01), raw]))
    .digest()
    .subarray(0, 4);
}

export function signNote(key: TestKey, size: number, rootHex: string, name = TEST_ORIGIN): string {
  const body = `${name}\n${size}\n${Buffer.from(rootHex, 'hex').toString('base64')}\n`;
  const signature = sign(null, Buffer.from(body), key.privateKey);
  return `${body}\n\u2014 ${name} ${Buffer.concat([keyId(name, key.raw), signature]).toString('base64')}\n`;
}

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export interface TestLog {
  key: TestKey;
  entries: string[];
  /** Root of the first `size` entries, hex. */
  root(size: number): string;
  inclusion(index: number, size: number): string[];
  consistency(from: number, to: number): string[];
  leafHash(index: number): string;
  checkpoint(size?: number): { note: string; size: number; root: string; time: number };
  /** The /log/* handlers of a log whose latest checkpoint covers `size` entries (all by default). */
  handlers(size?: number): Record<string, ApiHandler>;
}

export async function buildTestLog(entries: string[], key = testKey()): Promise<TestLog> {
  const leaves = await Promise.all(entries.map((entry) => leafHash(entry)));
  const memo = new Map<string, Uint8Array>();
  const mth = async (a: number, b: number): Promise<Uint8Array> => {
    const name = `${a}:${b}`;
    const known = memo.get(name);
    if (known !== undefined) return known;
    const hash =
      b - a === 1
        ? leaves[a]!
        : await nodeHash(await mth(a, a + split(b - a)), await mth(a + split(b - a), b));
    memo.set(name, hash);
    return hash;
  };
  for (let b = 1; b <= leaves.length; b += 1) for (let a = 0; a < b; a += 1) await mth(a, b);
  const at = (a: number, b: number) => bytesToHex(memo.get(`${a}:${b}`)!);
  const path = (m: number, a: number, b: number): string[] => {
    if (b - a <= 1) return [];
    const k = split(b - a);
    return m < k ? [...path(m, a, a + k), at(a + k, b)] : [...path(m - k, a + k, b), at(a, a + k)];
  };
  const subproof = (m: number, a: number, b: number, complete: boolean): string[] => {
    const n = b - a;
    if (m === n) return complete ? [] : [at(a, b)];
    const k = split(n);
    return m <= k
      ? [...subproof(m, a, a + k, complete), at(a + k, b)]
      : [...subproof(m - k, a + k, b, false), at(a, a + k)];
  };
  const root = (size: number) => (size === 0 ? createHash('sha256').digest('hex') : at(0, size));
  const log: TestLog = {
    key,
    entries,
    root,
    inclusion: (index, size) => path(index, 0, size),
    consistency: (from, to) => (from === 0 || from === to ? [] : subproof(from, 0, to, true)),
    leafHash: (index) => bytesToHex(leaves[index]!),
    checkpoint: (size = entries.length) => ({
      note: signNote(key, size, root(size)),
      size,
      root: root(size),
      time: 1_765_000_000_000 + size * 1000,
    }),
    handlers: (size = entries.length) => ({
      '/log/key': () => ({
        origin: TEST_ORIGIN,
        key: key.text,
        public_key: key.raw.toString('base64'),
      }),
      '/log/checkpoint': () => log.checkpoint(size),
      '/log/consistency': (_, url) => {
        const from = Number(url.searchParams.get('from'));
        const to = Number(url.searchParams.get('to'));
        if (!(from <= to && to <= size)) {
          return new Response(JSON.stringify({ type: 'error', message: 'The tree sizes are not valid.' }));
        }
        return { from, to, proof: log.consistency(from, to) };
      },
      '/log/inclusion': (_, url) => {
        const index = Number(url.searchParams.get('index'));
        const at = Number(url.searchParams.get('size'));
        return { index, size: at, leaf_hash: log.leafHash(index), proof: log.inclusion(index, at) };
      },
      '/log/entries': (_, url) => {
        const start = Number(url.searchParams.get('start'));
        const end = Number(url.searchParams.get('end'));
        return {
          entries: entries
            .slice(start, end)
            .map((entry, i) => ({ index: start + i, kind: entry.split('\n')[0]!.split(' ')[1], entry })),
        };
      },
    }),
  };
  return log;
}

/** A prices entry as the engine writes it. */
export function pricesEntry(time: number, samples: [symbol: string, seq: number, hash: string][]): string {
  return `fairex-log-v1 prices\ntime ${time}\n${samples.map((line) => `${line.join(' ')}\n`).join('')}`;
}

export interface TestLiabilities {
  entry: string;
  /** The served proof of user `userId`, as JSON (amounts as decimal strings). */
  proofOf(userId: string, logIndex: number): Record<string, unknown>;
  latest(index: number): Record<string, unknown>;
}

/** A liabilities snapshot over `users` (in leaf order) and its entry. */
export async function buildLiabilities(
  snapshotId: string,
  columns: string[],
  users: [string, bigint[]][],
  time = 1_765_065_600_000,
): Promise<TestLiabilities> {
  const salt = (i: number) => Buffer.alloc(32, i + 1);
  const leaves = await Promise.all(users.map(([id, amounts], i) => sumLeaf(salt(i), id, amounts)));
  const build = async (nodes: SumNode[]): Promise<SumNode> =>
    nodes.length === 1
      ? nodes[0]!
      : sumNode(
          await build(nodes.slice(0, split(nodes.length))),
          await build(nodes.slice(split(nodes.length))),
        );
  const paths = async (nodes: SumNode[], index: number): Promise<SumNode[]> => {
    if (nodes.length === 1) return [];
    const k = split(nodes.length);
    return index < k
      ? [...(await paths(nodes.slice(0, k), index)), await build(nodes.slice(k))]
      : [...(await paths(nodes.slice(k), index - k)), await build(nodes.slice(0, k))];
  };
  const root = await build(leaves);
  const allPaths = await Promise.all(users.map((_, i) => paths(leaves, i)));
  const rootHex = bytesToHex(root.hash);
  const entry =
    [
      'fairex-log-v1 liabilities',
      `snapshot ${snapshotId}`,
      'seq 100',
      `time ${time}`,
      `leaves ${users.length}`,
      `root ${rootHex}`,
      ...columns.map((column, i) => `total ${column} ${root.sums[i]}`),
      ...columns.flatMap((column, i) =>
        column.includes(':') ? [] : [`identity ${column} ${root.sums[i]} 0 -${root.sums[i]}`],
      ),
    ].join('\n') + '\n';
  return {
    entry,
    proofOf: (userId, logIndex) => {
      const position = users.findIndex(([id]) => id === userId);
      return {
        snapshot_id: snapshotId,
        log_index: logIndex,
        user_id: userId,
        position,
        leaves: users.length,
        columns,
        salt: salt(position).toString('hex'),
        amounts: users[position]![1].map(String),
        path: allPaths[position]!.map((node) => ({
          hash: bytesToHex(node.hash),
          sums: node.sums.map(String),
        })),
        root: rootHex,
        totals: root.sums.map(String),
      };
    },
    latest: (index) => ({
      snapshot_id: snapshotId,
      index,
      time,
      seq: 100,
      root: rootHex,
      leaves: users.length,
      columns,
      totals: Object.fromEntries(columns.map((column, i) => [column, String(root.sums[i])])),
      identity: [],
      entry,
    }),
  };
}
