// Journal retention never stalls reads: while it removes 100,000 journaled commands and the market maker's
// dead quotes behind them (and vacuums), a public read - the price samples query GET /api/price/samples
// runs - still answers in about its usual time, because the job works in bounded batches and pauses between
// them. The bound is relative to a baseline measured in the same test, generous enough not to be flaky:
// p99 during the job <= max(2 x baseline p99, baseline p99 + 50 ms), the baseline measured just before and
// just after the job. The job's own figures are in the bench (npm run bench -- retention).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactJournal } from '../../src/engine-runner/retention.ts';
import type { Store } from '../../src/store/index.ts';
import { percentile, readWhile, seedRetentionBacklog, snapshotKit } from '../../bench/retention-bench.ts';
import { openPgliteTestStore, removeTempDirs } from '../helper.ts';

const COMMANDS = 100_000;
const QUOTES = 50_000;

let store: Store;

beforeAll(async () => {
  ({ store } = await openPgliteTestStore());
  await seedRetentionBacklog(store, { commands: COMMANDS, quotes: QUOTES });
}, 120_000);

afterAll(async () => {
  await store?.close();
  await removeTempDirs();
});

const p99 = (latencies: number[]) => percentile(latencies, 0.99);

describe('journal retention and public reads', () => {
  it('removes 100,000 commands while reads answer within their usual time', async () => {
    // The same readers for a few seconds without the job, before and after it: the usual time is the larger
    // of the two, so that a machine busier during one of them does not decide the outcome.
    const seconds = () => readWhile(store, new Promise((resolve) => setTimeout(resolve, 3_000)));
    const baselineBefore = await seconds();
    const job = compactJournal(store, { mode: 'delete', kit: snapshotKit, snapshotsKept: 1, vacuum: true });
    const during = await readWhile(store, job);
    const result = await job;
    const baselineAfter = await seconds();
    const before = Math.max(p99(baselineBefore), p99(baselineAfter));
    const bound = Math.max(2 * before, before + 50);
    expect(
      p99(during),
      `p99 ${p99(during).toFixed(1)} ms during ${during.length} reads, baseline ${before.toFixed(1)} ms`,
    ).toBeLessThanOrEqual(bound);
    // Enough reads ran during the job for a p99 to mean something.
    expect(during.length).toBeGreaterThan(50);
    expect(result).toMatchObject({ cutSeq: COMMANDS, removedCommands: COMMANDS, removedQuotes: QUOTES });
    const { rows } = await store.query<{ first: string; quotes: number; log: number }>(
      `select (select min(first_seq)::text from engine_journal) as first,
              (select count(*)::int from spot_orders) as quotes,
              (select count(*)::int from account_log) as log`,
    );
    expect(rows[0]).toEqual({ first: String(COMMANDS + 1), quotes: 0, log: 0 });
  }, 300_000);
});
