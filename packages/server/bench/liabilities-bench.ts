// Proof-of-liabilities benchmark (docs/transparency.md, "Proof of liabilities"; issue 42's targets): a sum
// tree for 1,000,000 users x 10 columns built on the tree worker thread exactly as the server builds one
// (builder.ts `buildInWorker`: pages of amounts handed over from the main thread, the worker orders, salts,
// checks and hashes, then hands the rows back a chunk at a time), with
// - the time from the first page to the root, and to the last chunk of rows (target < 60 s);
// - the main thread's longest event-loop stall meanwhile (perf_hooks monitorEventLoopDelay, 10 ms
//   resolution; target < 50 ms): the main thread hands the pages of amounts over (made before the clock
//   starts; the server reads them from its store) and receives every chunk of rows (the server writes them
//   with COPY), so it does what the server's does but the SQL; the longest of its own steps is printed too,
//   since on a machine busy with other work the stall also counts the time the thread waited for a core;
// - one user's proof, assembled from the rows handed back as the proof read assembles it, checked, and its
//   JSON size as the API answers it (target < 8 KB).
// Amounts are pseudo-random (a fixed linear congruential sequence) up to 10^13 minor units in every column,
// the largest proof the tree can give (sums of 19 digits near the root).
//
// Run directly: node packages/server/bench/liabilities-bench.ts, or npm run bench -- liabilities
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { sumProofAddresses, verifySumProof } from '@fairex/engine/log/sum-tree.ts';
import type { LiabilitiesProofReply } from '@fairex/shared';
import { buildInWorker, PAGE_ROWS } from '../src/liabilities/builder.ts';
import { CHUNK_ROWS } from '../src/liabilities/tree.ts';
import type { AmountsPage } from '../src/liabilities/tree.ts';

type Figures = Record<string, number | string>;

const USERS = Number(process.env.LIABILITIES_BENCH_USERS ?? 1_000_000);
const COLUMNS = 10;
const SNAPSHOT = '2026-12-07';

/** The longest stretches of the main thread's own work: a page handed to the worker, a chunk of rows taken in. */
const longestOwnStepMs = { page: 0, chunk: 0 };
const ownStep = (kind: 'page' | 'chunk', ms: number) => {
  if (ms > longestOwnStepMs[kind]) longestOwnStepMs[kind] = ms;
};

/** The amounts, made before the clock starts (the server reads them from its store, a page at a time). */
function makePages(): AmountsPage[] {
  let state = 12_345;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state;
  };
  const made: AmountsPage[] = [];
  for (let first = 1; first <= USERS; first += PAGE_ROWS) {
    const users: number[] = [];
    const amounts: string[] = [];
    for (let userId = first; userId < first + PAGE_ROWS && userId <= USERS; userId += 1) {
      users.push(userId);
      let text = '';
      for (let column = 0; column < COLUMNS; column += 1)
        text += (column === 0 ? '' : ',') + String(next() * 4_656 + (next() % 4_656));
      amounts.push(text);
    }
    made.push({ users, amounts });
  }
  return made;
}

async function* pages(made: AmountsPage[]): AsyncIterable<AmountsPage> {
  for (const page of made) {
    const began = performance.now();
    yield page;
    ownStep('page', performance.now() - began);
    // As the store's reads do: the event loop turns between two pages.
    await turn();
  }
}

export async function runLiabilitiesBench(): Promise<Figures> {
  const loadBefore = loadavg()[0] ?? 0;
  const target = Math.floor(USERS * 0.777);
  const wanted = new Map<string, number>();
  for (const [at, address] of sumProofAddresses(target, USERS).entries())
    wanted.set(`${address.level}\t${address.index}`, at);
  let leafLine = '';
  const siblings: { hash: string; sums: string[] }[] = [];
  // Only the rows the proof needs are kept (a store would keep them all): each is found by its key at the
  // start of a line, in the chunk that holds it (chunks are CHUNK_ROWS rows, leaves first, then the nodes
  // level by level), so the main thread does little more per chunk than the server's COPY hand-over.
  const levelStart: number[] = [0, 0];
  for (let level = 1, count = Math.ceil(USERS / 2); count >= 1; level += 1, count = Math.ceil(count / 2)) {
    levelStart[level + 1] = (levelStart[level] as number) + count;
    if (count === 1) break;
  }
  const leafChunks = Math.ceil(USERS / CHUNK_ROWS);
  const chunkOf = (level: number, index: number) =>
    level === 0
      ? Math.floor(index / CHUNK_ROWS)
      : leafChunks + Math.floor(((levelStart[level] as number) + index) / CHUNK_ROWS);
  const lineAt = (text: string, key: string): string[] => {
    const at = text.startsWith(key) ? 0 : text.indexOf(`\n${key}`) + 1;
    if (at <= 0 && !text.startsWith(key)) throw new Error(`row ${key} not in its chunk`);
    return text.slice(at, text.indexOf('\n', at)).split('\t');
  };
  let chunk = 0;
  const sink = async (_table: 'liability_leaves' | 'liability_nodes', text: string) => {
    const began = performance.now();
    if (chunkOf(0, target) === chunk) leafLine = lineAt(text, `${SNAPSHOT}\t${target}\t`).join('\t');
    for (const [key, at] of wanted) {
      const [level, index] = key.split('\t').map(Number) as [number, number];
      if (chunkOf(level, index) !== chunk) continue;
      const fields = lineAt(text, level === 0 ? `${SNAPSHOT}\t${index}\t` : `${SNAPSHOT}\t${key}\t`);
      siblings[at] =
        level === 0
          ? { hash: fields[5] as string, sums: (fields[4] as string).split(',') }
          : { hash: fields[3] as string, sums: (fields[4] as string).split(',') };
    }
    chunk += 1;
    ownStep('chunk', performance.now() - began);
    await turn();
  };

  const made = makePages();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  let rootMs = 0;
  const root = await buildInWorker(
    { secret: new Uint8Array(32).fill(7), snapshotId: SNAPSHOT, columns: COLUMNS },
    pages(made),
    async (table, text) => {
      if (rootMs === 0) rootMs = performance.now() - started;
      await sink(table, text);
    },
  );
  const totalMs = performance.now() - started;
  delay.disable();

  const fields = leafLine.split('\t');
  const proof: LiabilitiesProofReply = {
    snapshot_id: SNAPSHOT,
    log_index: 123_456_789,
    user_id: fields[2] as string,
    position: target,
    leaves: root.leafCount,
    columns: Array.from({ length: COLUMNS }, (_, column) => `CUR${column}`),
    salt: fields[3] as string,
    amounts: (fields[4] as string).split(','),
    path: siblings,
    root: root.root,
    totals: [...root.totals],
  };
  const verified = verifySumProof({
    leaf: {
      salt: Buffer.from(proof.salt, 'hex'),
      userId: proof.user_id,
      amounts: proof.amounts.map(BigInt),
    },
    position: proof.position,
    leafCount: proof.leaves,
    path: proof.path.map((step) => ({ hash: Buffer.from(step.hash, 'hex'), sums: step.sums.map(BigInt) })),
    rootHash: Buffer.from(proof.root, 'hex'),
    rootSums: proof.totals.map(BigInt),
  });
  if (!verified) throw new Error('the assembled proof does not verify');
  const proofBytes = Buffer.byteLength(JSON.stringify({ type: 'ok', message: proof }), 'utf8');
  return {
    users: USERS,
    columns: COLUMNS,
    'worker build to root (s)': Number((rootMs / 1000).toFixed(1)),
    'worker build with every row handed back (s)': Number((totalMs / 1000).toFixed(1)),
    'target build (s)': '< 60',
    'main thread longest stall (ms)': Number((delay.max / 1e6).toFixed(1)),
    'main thread stall p99 (ms)': Number((delay.percentile(99) / 1e6).toFixed(1)),
    'main thread longest page handed over (ms)': Number(longestOwnStepMs.page.toFixed(1)),
    'main thread longest chunk taken in (ms)': Number(longestOwnStepMs.chunk.toFixed(1)),
    'target stall (ms)': '< 50',
    'proof path steps': proof.path.length,
    'proof JSON (bytes)': proofBytes,
    'target proof (bytes)': '< 8192',
    'load average before / after': `${loadBefore.toFixed(1)} / ${(loadavg()[0] ?? 0).toFixed(1)}`,
  };
}

if (import.meta.main) console.log(await runLiabilitiesBench());
