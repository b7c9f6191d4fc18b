// Journal retention benchmark (docs/operations.md, "Snapshots and retention"): how long a retention run
// over a large backlog takes on PGlite, and how public reads fare while it runs. The backlog is made with
// SQL: `RETENTION_BENCH_COMMANDS` journaled commands (default 100,000) in rows of 20 behind a snapshot, and
// half as many market-maker quotes that ended untraded, with their hold and release rows; then clients read
// ten minutes of price samples (the query of GET /api/price/samples) before, during and after the run.
// The journal rows are filler (retention never decodes them in delete mode) and the snapshot is checked by
// a kit whose snapshot is `{"lastSeq": n}`, so the figures are those of the deletes, the batches' pauses
// and the vacuums, not of an engine restore. The test of the same rule
// (test/engine-runner/retention-reads.test.ts) seeds its store with `seedRetentionBacklog`.
//
// Run directly: node packages/server/bench/retention-bench.ts, or npm run bench -- retention
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { ReasonCode } from '@fairex/engine';
import type { ExchangeKit } from '../src/engine-runner/engine-kit.ts';
import { compactJournal } from '../src/engine-runner/retention.ts';
import type { Queryable, Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { pgliteDatabase } from './journal-bench.ts';

type Figures = Record<string, number | string>;

export const SAMPLES_FROM_MS = 1_700_000_000_000;
const PER_ROW = 20;

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A kit whose snapshot is `{"lastSeq": n}`: the seeded journal is made of filler envelopes no engine could
 * replay, and retention only needs the cut snapshot to restore to its recorded hash.
 */
export const snapshotKit = {
  restore: (text: string) => {
    const { lastSeq } = JSON.parse(text) as { lastSeq: number };
    return { lastSeq, snapshot: () => text, stateHash: () => sha(text) };
  },
  hashSnapshot: sha,
} as unknown as ExchangeKit;

/**
 * `commands` journaled commands (rows of 20, each a 150-character envelope) and a last row after them, a
 * snapshot at `commands`, `quotes` market-maker quotes that ended untraded before it with their hold and
 * release rows, and 3,000 price samples of market 1, one a second.
 */
export async function seedRetentionBacklog(
  store: Queryable,
  { commands, quotes }: { commands: number; quotes: number },
): Promise<void> {
  const COMMANDS = commands;
  const QUOTES = quotes;
  // The commands in rows of 20, each command a 150-character envelope, and a last row after the cut.
  await store.query(
    `insert into engine_journal (first_seq, last_seq, command_count, envelopes)
     select n * $2::int + 1, n * $2::int + $2::int, $2::int, repeat(repeat('e', 149) || chr(10), $2)
       from generate_series(0, $1::int / $2::int) as n`,
    [COMMANDS, PER_ROW],
  );
  const body = JSON.stringify({ lastSeq: COMMANDS });
  await store.query(`insert into engine_snapshots (seq, time_ms, state_hash, body) values ($1, $2, $3, $4)`, [
    COMMANDS,
    SAMPLES_FROM_MS,
    sha(body),
    body,
  ]);
  // The market maker's quotes that ended untraded before the cut, with their hold and release rows.
  await store.query(
    `insert into spot_orders (owner_key, order_id, market_id, side, kind, status, cancel_reason, price_ticks,
       quantity_lots, filled_lots, quote_filled, fee_paid, created_time_ms, closed_seq, closed_time_ms)
     select -1, n, 1, 1, 1, 2, 1, 6700000, 1, 0, 0, 0, $2::bigint, n, $2::bigint from generate_series(1, $1) as n`,
    [QUOTES, SAMPLES_FROM_MS],
  );
  await store.query(
    `insert into account_log (seq, event_index, transfer_id, owner_key, wallet, currency_id, available_before,
       available_after, locked_before, locked_after, reason, reference_id, time_ms)
     select n, r, 0, -1, 'change', 3, 0, 0, 0, 0, case r when 0 then $2::smallint else $3::smallint end, n, $4::bigint
       from generate_series(1, $1) as n, generate_series(0, 1) as r`,
    [QUOTES, ReasonCode.orderHold, ReasonCode.orderRelease, SAMPLES_FROM_MS],
  );
  await store.query(
    `insert into price_samples (market_id, seq, time_ms, source_time_ms, index_ticks, mark_ticks, sources, stale,
       prev_hash, hash)
     select 1, n, $1::bigint + n * 1000, null, 6700000, 6700000, '[]', false, repeat('0', 64), repeat('a', 64)
       from generate_series(1, 3000) as n`,
    [SAMPLES_FROM_MS],
  );
  await store.query('vacuum analyze');
}

/** One public read: ten minutes of a market's price samples, as GET /api/price/samples asks for them. */
export async function readSamples(store: Queryable): Promise<number> {
  const started = performance.now();
  const fromMs = SAMPLES_FROM_MS + 1_000_000 + Math.floor(Math.random() * 1_000_000);
  const { rows } = await store.query(
    `select seq, time_ms, source_time_ms, index_ticks, mark_ticks, sources, stale, prev_hash, hash
       from price_samples where market_id = $1 and time_ms >= $2 and time_ms <= $3
      order by time_ms, seq limit 600`,
    [1, fromMs, fromMs + 600_000],
  );
  if (rows.length === 0) throw new Error('the seeded price samples are missing');
  return performance.now() - started;
}

/** `readers` clients reading one after another, 5 ms apart, until `until` settles; their latencies. */
export async function readWhile(store: Queryable, until: Promise<unknown>, readers = 4): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (!done) {
        latencies.push(await readSamples(store));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }),
  );
  return latencies;
}

export function percentile(latencies: readonly number[], share: number): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

const round = (value: number) => Math.round(value * 10) / 10;

export async function runRetentionBench(): Promise<Figures> {
  const commands = Math.max(1_000, Number(process.env.RETENTION_BENCH_COMMANDS ?? 100_000) || 100_000);
  const quotes = Math.floor(commands / 2);
  const database = await pgliteDatabase('fairex-retention-bench-');
  const store: Store = await openStore(database.options);
  try {
    await seedRetentionBacklog(store, { commands, quotes });
    const seconds = () => readWhile(store, new Promise((resolve) => setTimeout(resolve, 3_000)));
    const before = await seconds();
    const startedMs = performance.now();
    const job = compactJournal(store, { mode: 'delete', kit: snapshotKit, snapshotsKept: 1, vacuum: true });
    const during = await readWhile(store, job);
    const result = await job;
    const runMs = performance.now() - startedMs;
    const after = await seconds();
    return {
      'load average at start (1 min)': round(loadavg()[0] ?? 0),
      'commands removed': result.removedCommands,
      'market-maker quotes removed': result.removedQuotes,
      'retention run, s': round(runMs / 100) / 10,
      'price-samples read p50 before, ms': round(percentile(before, 0.5)),
      'price-samples read p99 before, ms': round(percentile(before, 0.99)),
      'price-samples read p50 during, ms': round(percentile(during, 0.5)),
      'price-samples read p99 during, ms': round(percentile(during, 0.99)),
      'price-samples read max during, ms': round(Math.max(...during)),
      'price-samples read p99 after, ms': round(percentile(after, 0.99)),
      'reads during the run': during.length,
    };
  } finally {
    await store.close();
    await database.cleanup();
  }
}

if (import.meta.main) {
  const figures = await runRetentionBench();
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(40)}  ${value}`);
}
