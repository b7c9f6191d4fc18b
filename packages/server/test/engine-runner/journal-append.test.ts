// Several journal rows appended in one statement (appendBatches: the projector stage behind a durable log,
// and a restart's catch-up) must read back exactly as appended one at a time, on both stores: texts that an
// array literal has to quote, missing and present state hashes, and the same fence.
import { afterAll, describe, expect, it } from 'vitest';
import { JournalConflictError } from '../../src/engine-runner/errors.ts';
import type { JournalBatchRow } from '../../src/engine-runner/journal.ts';
import { appendBatch, appendBatches, forEachBatchAfter } from '../../src/engine-runner/journal.ts';
import { open, storeTargets } from './test-stores.ts';

const AWKWARD = ['{"a":"b\\"c"}', 'back\\slash', '{x,y}', 'NULL', '"', "it's", '价格 ¥', ' spaced '];

for (const target of storeTargets()) {
  describe(`appending journal rows on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it('appends consecutive batches in one statement, exactly, and fences them like one', async () => {
      const store = await open(await target.fresh());
      await appendBatch(store, { firstSeq: 1, lastSeq: 1, envelopes: ['first'], stateHash: null });
      const batches: JournalBatchRow[] = [
        { firstSeq: 2, lastSeq: 4, envelopes: AWKWARD.slice(0, 3), stateHash: null },
        { firstSeq: 5, lastSeq: 5, envelopes: [AWKWARD[3] as string], stateHash: 'ab'.repeat(32) },
        { firstSeq: 6, lastSeq: 9, envelopes: AWKWARD.slice(4), stateHash: null },
      ];
      await store.transaction((tx) => appendBatches(tx, batches));
      const read: JournalBatchRow[] = [];
      await forEachBatchAfter(store, 1, async (batch) => {
        read.push(batch);
      });
      expect(read).toEqual(batches);
      // The journal ends at 9: the same rows again, or rows after a gap, change nothing.
      await expect(appendBatches(store, batches)).rejects.toBeInstanceOf(JournalConflictError);
      const gap = batches.map((batch) => ({
        ...batch,
        firstSeq: batch.firstSeq + 10,
        lastSeq: batch.lastSeq + 10,
      }));
      await expect(appendBatches(store, gap)).rejects.toBeInstanceOf(JournalConflictError);
      await expect(
        appendBatches(store, [batches[2] as JournalBatchRow, batches[0] as JournalBatchRow]),
      ).rejects.toThrow(/not consecutive/);
      const { rows } = await store.query<{ count: bigint }>('select count(*) as count from engine_journal');
      expect(Number(rows[0]?.count)).toBe(4);
      await store.close();
    });
  });
}
