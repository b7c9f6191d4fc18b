// The daily liabilities snapshot: named after the UTC day, submitted with an idempotency key so a repeat
// answers the first outcome, and scheduled just after the next UTC midnight.
import { describe, expect, it, vi } from 'vitest';
import { LiabilitiesDailyJob } from '../../src/scheduler/liabilities-daily.ts';
import { dailySnapshotId, onDemandSnapshotId } from '../../src/liabilities/publisher.ts';
import { LIABILITIES_SNAPSHOT_ID } from '@fairex/shared';

const NOON = Date.UTC(2026, 11, 7, 12, 0, 0);

describe('the daily liabilities job', () => {
  it('names the snapshot after the UTC day and keys it by the day', async () => {
    const calls: [string, string | undefined][] = [];
    const job = new LiabilitiesDailyJob(
      () => ({
        captureAndPublish: async (snapshotId, key) => {
          calls.push([snapshotId, key]);
          return 1;
        },
      }),
      { now: () => Date.UTC(2026, 11, 7, 0, 1, 0) },
    );
    await job.runOnce();
    await job.runOnce();
    expect(calls).toEqual([
      ['2026-12-07', 'liabilities:2026-12-07'],
      ['2026-12-07', 'liabilities:2026-12-07'],
    ]);
  });

  it('runs just after the next UTC midnight, then daily', async () => {
    vi.useFakeTimers({ now: NOON });
    try {
      const days: string[] = [];
      const job = new LiabilitiesDailyJob(
        () => ({
          captureAndPublish: async (snapshotId) => {
            days.push(snapshotId);
            return 1;
          },
        }),
        { now: () => Date.now() },
      );
      job.start();
      await vi.advanceTimersByTimeAsync(11 * 3_600_000);
      expect(days).toEqual([]);
      await vi.advanceTimersByTimeAsync(3_600_000 + 60_000);
      expect(days).toEqual(['2026-12-08']);
      await vi.advanceTimersByTimeAsync(86_400_000);
      expect(days).toEqual(['2026-12-08', '2026-12-09']);
      await job.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('skips quietly where the liabilities area is not registered', async () => {
    await expect(new LiabilitiesDailyJob(() => undefined).runOnce()).resolves.toBeUndefined();
  });

  it('gives ids the proof call accepts', () => {
    expect(dailySnapshotId(NOON)).toBe('2026-12-07');
    expect(onDemandSnapshotId(NOON + 3_723_000)).toBe('2026-12-07T130203Z');
    expect(LIABILITIES_SNAPSHOT_ID.test(dailySnapshotId(NOON))).toBe(true);
    expect(LIABILITIES_SNAPSHOT_ID.test(onDemandSnapshotId(NOON))).toBe(true);
  });
});
