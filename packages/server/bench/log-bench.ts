// Transparency-log benchmark (docs/transparency.md): how fast the proof calls answer over a long log.
//
// The node table is filled directly: `LOG_BENCH_SECONDS` leaves (one entry a second; default a year,
// 31,536,000, on PostgreSQL when DATABASE_URL is set, and 30 days on PGlite, whose single-file store a year
// of nodes (about 63 million rows) would take hours to fill) are appended with merkle.ts's appendLeaf, and
// every perfect subtree they complete is COPYed into log_nodes, as the projection writes them. Then 1,000
// inclusion proofs of random entries in the whole tree and 1,000 consistency proofs from a random earlier
// size, through the functions the routes call (LogReads, one query of log_nodes each); p50 and p99, target
// p99 < 10 ms.
//
// Run directly: node packages/server/bench/log-bench.ts, or npm run bench -- log
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { appendLeaf, rangeRoot } from '@fairex/engine/log/merkle.ts';
import type { Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { checkpointBody, ed25519KeyFromSeed, signCheckpoint } from '../src/transparency/note.ts';
import { LogReads } from '../src/transparency/proofs.ts';
import { pgliteDatabase, postgresDatabase } from './journal-bench.ts';

type Figures = Record<string, number | string>;

const YEAR_S = 365 * 86_400;
const PGLITE_DEFAULT_S = 30 * 86_400;
const ORIGIN = 'bench.example/fairex-log';
const COPY_ROWS = 200_000;

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Appends `count` leaves and COPYs their nodes; returns the root. */
async function fill(store: Store, count: number): Promise<string> {
  let range: Uint8Array[] = [];
  let text = '';
  let rows = 0;
  const flush = async () => {
    if (rows === 0) return;
    const chunk = text;
    text = '';
    rows = 0;
    await store.transaction(async (tx) => {
      if (!tx.copyFrom) throw new Error('the store has no COPY');
      await tx.copyFrom('log_nodes', ['level', 'idx', 'hash'], chunk);
    });
  };
  for (let index = 0; index < count; index++) {
    // A leaf hash as the engine would compute it from a one-second prices entry.
    const leaf = createHash('sha256')
      .update(Buffer.from([0]))
      .update(`fairex-log-v1 prices\ntime ${index}\n`)
      .digest();
    const appended = appendLeaf(range, index, leaf);
    range = appended.range;
    for (const node of appended.completed) {
      text += `${node.level}\t${node.index}\t${Buffer.from(node.hash).toString('hex')}\n`;
      rows += 1;
    }
    if (rows >= COPY_ROWS) await flush();
  }
  await flush();
  return Buffer.from(rangeRoot(range)).toString('hex');
}

async function measure(name: string, store: Store, count: number, reads = 1_000): Promise<Figures> {
  const fillBegan = performance.now();
  const root = await fill(store, count);
  const key = ed25519KeyFromSeed(new Uint8Array(32).fill(5));
  await store.query('insert into log_checkpoints (size, root, time_ms, note) values ($1, $2, $3, $4)', [
    count,
    root,
    count * 1000,
    signCheckpoint(checkpointBody(ORIGIN, count, root), ORIGIN, key),
  ]);
  await store.query('analyze log_nodes');
  const fillS = (performance.now() - fillBegan) / 1000;
  const logReads = new LogReads(store);
  let state = 12_345;
  const random = (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((state / 2_147_483_648) * below);
  };
  const inclusion: number[] = [];
  const consistency: number[] = [];
  let proofHashes = 0;
  for (let read = 0; read < reads; read++) {
    const index = random(count);
    let began = performance.now();
    const proof = await logReads.inclusion(index, count);
    inclusion.push(performance.now() - began);
    proofHashes += proof.proof.length;
    const from = 1 + random(count - 1);
    began = performance.now();
    await logReads.consistency(from, count);
    consistency.push(performance.now() - began);
  }
  const at = (latencies: number[], fraction: number) => {
    const sorted = [...latencies].sort((a, b) => a - b);
    return round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0);
  };
  const inclusionP99 = at(inclusion, 0.99);
  const consistencyP99 = at(consistency, 0.99);
  return {
    [`${name}: leaves in the log (one a second)`]: count,
    [`${name}: nodes stored`]: 2 * count - bitCount(count),
    [`${name}: seconds to build and COPY them`]: round(fillS),
    [`${name}: hashes per inclusion proof (mean)`]: round(proofHashes / reads),
    [`${name}: inclusion proof p50 (ms)`]: at(inclusion, 0.5),
    [`${name}: inclusion proof p99 (ms)`]: inclusionP99,
    [`${name}: consistency proof p50 (ms)`]: at(consistency, 0.5),
    [`${name}: consistency proof p99 (ms)`]: consistencyP99,
    [`${name}: target p99 < 10 ms`]: inclusionP99 < 10 && consistencyP99 < 10 ? 'met' : 'NOT met',
  };
}

function bitCount(value: number): number {
  let bits = 0;
  for (let rest = value; rest > 0; rest = Math.floor(rest / 2)) bits += rest % 2;
  return bits;
}

export async function runLogBench(): Promise<Figures> {
  const url = process.env.DATABASE_URL;
  const postgres = url !== undefined && url !== '';
  const seconds = Number(process.env.LOG_BENCH_SECONDS ?? (postgres ? YEAR_S : PGLITE_DEFAULT_S));
  if (!Number.isSafeInteger(seconds) || seconds < 2)
    throw new Error('LOG_BENCH_SECONDS must be a whole number >= 2');
  const database = postgres
    ? await postgresDatabase(url, 'log_bench')
    : await pgliteDatabase('fairex-log-bench-');
  try {
    const store = await openStore(database.options);
    try {
      return {
        'load average at start': loadavg()[0]?.toFixed(2) ?? '?',
        ...(await measure(postgres ? 'PostgreSQL' : 'PGlite', store, seconds)),
      };
    } finally {
      await store.close();
    }
  } finally {
    await database.cleanup();
  }
}

if (import.meta.main) {
  const figures = await runLogBench();
  const width = Math.max(...Object.keys(figures).map((key) => key.length));
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(width)}  ${value}`);
}
