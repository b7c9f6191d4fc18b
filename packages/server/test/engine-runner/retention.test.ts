// Journal retention: compaction archives (or deletes) only the journal at or before a verified snapshot, the
// archive holds exactly the removed commands, recovery afterwards reaches the same state hash, and nothing
// after the newest snapshot is ever removed.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { createExchangeRunner, rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import type { EngineRunnerOptions, ExchangeRunner } from '../../src/engine-runner/index.ts';
import { forEachBatchAfter } from '../../src/engine-runner/journal.ts';
import { archiveFileName, compactJournal, GENESIS_FILE } from '../../src/engine-runner/retention.ts';
import { BTC, BTC_USDT, setupCommands, USDT, Workload } from '../../bench/workload.ts';
import { memoryLogger, open, steppingClock, storeTargets } from './test-stores.ts';

const START_MS = 1_700_000_000_000;

function start(store: Store, options: Partial<EngineRunnerOptions> = {}): Promise<ExchangeRunner> {
  return createExchangeRunner({ store, logger: memoryLogger(), clock: steppingClock(START_MS), ...options });
}

async function drive(runner: ExchangeRunner, count: number): Promise<void> {
  for (const command of setupCommands(10)) await runner.submit(command);
  const workload = new Workload(5, 10);
  for (let done = 0; done < count; done += 20) {
    await Promise.all(Array.from({ length: 20 }, () => runner.submit(workload.next(runner.engine))));
  }
}

/** Every journal line by seq. */
async function journalLines(store: Store): Promise<Map<number, string>> {
  const lines = new Map<number, string>();
  await forEachBatchAfter(store, 0, (batch) => {
    batch.envelopes.forEach((text, index) => lines.set(batch.firstSeq + index, text));
  });
  return lines;
}

async function snapshotSeqs(store: Store): Promise<number[]> {
  const { rows } = await store.query<{ seq: bigint }>('select seq from engine_snapshots order by seq');
  return rows.map((row) => Number(row.seq));
}

for (const target of storeTargets()) {
  describe(`journal retention on ${target.name}`, () => {
    const folders: string[] = [];
    afterAll(async () => {
      await target.cleanup();
      await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
    });

    it('archives the journal before the newest snapshot; recovery then reaches the same state hash', async () => {
      const options = await target.fresh();
      let store = await open(options);
      const runner = await start(store, { snapshotEvery: 400, snapshotsKept: 10, snapshotOnClose: false });
      await drive(runner, 2_000);
      const liveHash = runner.engine.stateHash();
      const liveSeq = runner.stats().lastSeq;
      await runner.close();
      const before = await journalLines(store);
      const snapshotsBefore = await snapshotSeqs(store);
      const newest = snapshotsBefore.at(-1) as number;
      expect(newest).toBeGreaterThan(0);
      expect(newest).toBeLessThan(liveSeq);

      const archiveDir = await mkdtemp(join(tmpdir(), 'fairex-archive-'));
      folders.push(archiveDir);
      const result = await compactJournal(store, { mode: 'archive', archiveDir, snapshotsKept: 2 });
      expect(result.cutSeq).toBe(newest);
      expect(result.removedCommands).toBeGreaterThan(0);

      // What stays: every command from the first one the newest snapshot does not hold, unchanged.
      const after = await journalLines(store);
      const firstKept = Math.min(...after.keys());
      expect(firstKept).toBeLessThanOrEqual(newest + 1);
      for (let seq = firstKept; seq <= liveSeq; seq++) expect(after.get(seq)).toBe(before.get(seq));
      expect(after.size).toBe(liveSeq - firstKept + 1);

      // The archive holds exactly the removed commands, one envelope per line, and the genesis snapshot.
      expect((await readdir(archiveDir)).sort()).toEqual(
        [archiveFileName(1, firstKept - 1), GENESIS_FILE].sort(),
      );
      expect(result.archiveFile).toBe(join(archiveDir, archiveFileName(1, firstKept - 1)));
      const archived = gunzipSync(await readFile(result.archiveFile as string))
        .toString('utf8')
        .split('\n');
      expect(archived.pop()).toBe('');
      expect(archived).toEqual(Array.from({ length: firstKept - 1 }, (_, index) => before.get(index + 1)));
      expect(result.removedCommands).toBe(archived.length);

      // Snapshots: the newest two; the genesis went once the journal no longer starts at seq 1.
      expect(await snapshotSeqs(store)).toEqual(snapshotsBefore.slice(-2));
      await store.close();

      store = await open(options);
      const restarted = await start(store);
      expect(restarted.stats().recovery.snapshotSeq).toBe(newest);
      expect(restarted.engine.stateHash()).toBe(liveHash);
      await restarted.close();
      // A rebuild from the beginning needs the archived journal: it refuses instead of rebuilding wrong.
      await expect(rebuildExchangeProjections(store)).rejects.toThrow(/compacted/);
      await store.close();
    });

    it('never removes a command after the snapshot it cuts at, whatever the window', async () => {
      const options = await target.fresh();
      const store = await open(options);
      const runner = await start(store, { snapshotEvery: 300, snapshotsKept: 20, snapshotOnClose: false });
      await drive(runner, 1_800);
      const liveSeq = runner.stats().lastSeq;
      await runner.close();
      const snapshots = await store.query<{ seq: bigint; time_ms: bigint }>(
        'select seq, time_ms from engine_snapshots where seq > 0 order by seq',
      );
      const lastTimeMs = Number(snapshots.rows.at(-1)?.time_ms);
      // From "keep everything" to "keep nothing": each cut is the newest snapshot old enough, no later.
      for (const keepMs of [10_000_000, 1_000, 600, 200, 0]) {
        const eligible = snapshots.rows.filter((row) => Number(row.time_ms) <= lastTimeMs - keepMs).at(-1);
        const expectedCut = eligible === undefined ? 0 : Number(eligible.seq);
        const result = await compactJournal(store, {
          mode: 'delete',
          keepMs,
          nowMs: lastTimeMs,
          snapshotsKept: 20,
        });
        expect(result.cutSeq).toBe(expectedCut);
        const lines = await journalLines(store);
        for (let seq = expectedCut + 1; seq <= liveSeq; seq++) expect(lines.has(seq)).toBe(true);
        if (expectedCut === 0) expect(lines.has(1)).toBe(true);
      }
      await store.close();
    });

    it("removes the market maker's orders that never traded, with their hold and release rows only", async () => {
      const options = await target.fresh();
      let store = await open(options);
      const runner = await start(store, { snapshotEvery: 300, snapshotOnClose: false });
      for (const command of setupCommands(10)) await runner.submit(command);
      for (const currencyId of [BTC, USDT]) {
        await runner.submit({ type: 'systemFund', owner: 'marketMaker', currencyId, amount: 10n ** 15n });
      }
      // 30 quotes far from the market, cancelled; one quote that a user's order fills.
      for (let index = 0; index < 30; index++) {
        const placed = await runner.submit({
          type: 'placeOrder',
          owner: 'marketMaker',
          marketId: BTC_USDT,
          side: 'buy',
          kind: 'limit',
          priceTicks: 100_000 + index,
          quantityLots: 5,
        });
        const orderId = (placed.reply as { orderId: number }).orderId;
        await runner.submit({ type: 'cancelOrder', owner: 'marketMaker', orderId });
      }
      const traded = [
        { owner: 'marketMaker', side: 'sell' },
        { owner: 1, side: 'buy' },
      ] as const;
      for (const { owner, side } of traded) {
        const outcome = await runner.submit({
          type: 'placeOrder',
          owner,
          marketId: BTC_USDT,
          side,
          kind: 'limit',
          priceTicks: 9_000_000,
          quantityLots: 3,
        });
        expect(outcome.code).toBe(0);
      }
      const workload = new Workload(9, 10);
      for (let index = 0; index < 700; index++) await runner.submit(workload.next(runner.engine));
      const liveHash = runner.engine.stateHash();
      await runner.close();
      const count = async (sql: string) => Number((await store.query<{ n: bigint }>(sql)).rows[0]?.n);
      const userLog = 'select count(*)::bigint as n from account_log where owner_key > 0';
      const usersBefore = await count(userLog);
      const makerTradeRows = await count(
        'select count(*)::bigint as n from account_log where owner_key < 0 and reason not in (300, 301)',
      );

      const result = await compactJournal(store, { mode: 'delete', vacuum: true });
      expect(result.cutSeq).toBeGreaterThan(100);
      expect(result.removedQuotes).toBe(30);
      const makerOrders = await store.query<{ status: number; filled_lots: bigint }>(
        'select status, filled_lots from spot_orders where owner_key < 0',
      );
      // status 1: filled (spot/order-codes.ts).
      expect(makerOrders.rows).toEqual([{ status: 1, filled_lots: 3n }]);
      // Left: the filled quote's hold, and every row that is not a hold or release (funding, trades, fees).
      expect(
        await count(
          'select count(*)::bigint as n from account_log where owner_key < 0 and reason in (300, 301)',
        ),
      ).toBe(1);
      expect(
        await count(
          'select count(*)::bigint as n from account_log where owner_key < 0 and reason not in (300, 301)',
        ),
      ).toBe(makerTradeRows);
      expect(await count(userLog)).toBe(usersBefore);
      await store.close();

      store = await open(options);
      const restarted = await start(store);
      expect(restarted.engine.stateHash()).toBe(liveHash);
      await restarted.close();
      await store.close();
    });

    it('removes nothing when the newest snapshot does not restore to its state hash', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store, { snapshotEvery: 300, snapshotOnClose: false });
      await drive(runner, 900);
      await runner.close();
      await store.query(
        `update engine_snapshots set state_hash = 'bad' where seq = (select max(seq) from engine_snapshots)`,
      );
      const before = await journalLines(store);
      const result = await compactJournal(store, { mode: 'delete' });
      expect(result).toMatchObject({ cutSeq: 0, removedCommands: 0 });
      expect(await journalLines(store)).toEqual(before);
      await store.close();
    });

    it('keeps the journal end when the newest snapshot is at it', async () => {
      const options = await target.fresh();
      let store = await open(options);
      const runner = await start(store, { snapshotEvery: 250 });
      await drive(runner, 600);
      const liveHash = runner.engine.stateHash();
      const liveSeq = runner.stats().lastSeq;
      await runner.close(); // the closing snapshot is at the journal's end
      expect((await snapshotSeqs(store)).at(-1)).toBe(liveSeq);
      await compactJournal(store, { mode: 'delete' });
      const lines = await journalLines(store);
      expect(lines.has(liveSeq)).toBe(true);
      await store.close();
      // The append check finds the journal's end, so the runner serves on.
      store = await open(options);
      const restarted = await start(store);
      expect(restarted.engine.stateHash()).toBe(liveHash);
      const next = await restarted.submit({ type: 'deposit', userId: 1, currencyId: 1, amount: 1n });
      expect(next.seq).toBe(liveSeq + 1);
      await restarted.close();
      await store.close();
    });
  });
}
