// The overnight job's schedule and its command: at start it asks for today (the engine charges every day not
// yet charged, so a restart after downtime catches up and a second run charges nothing more), then just
// after each UTC midnight.
import type { Command, Outcome } from '@fairex/engine';
import { describe, expect, it } from 'vitest';
import { LeverOvernightJob, msUntilNextRun, utcDay } from '../../src/scheduler/lever-overnight.ts';

const DAY = 86_400_000;

describe('the lever overnight job', () => {
  it('runs a minute after the next UTC midnight', () => {
    expect(msUntilNextRun(10 * DAY)).toBe(DAY + 60_000);
    expect(msUntilNextRun(10 * DAY + DAY - 1)).toBe(60_001);
    expect(utcDay(10 * DAY + 5)).toBe(10);
  });

  it('submits one chargeLeverOvernight for the current day at start and stops cleanly', async () => {
    const submitted: Command[] = [];
    const runner = {
      submit: async (command: Command): Promise<Outcome> => {
        submitted.push(command);
        return { code: 0, events: [], timeEvents: 0 } as unknown as Outcome;
      },
    };
    const job = new LeverOvernightJob(runner, { now: () => 20_000 * DAY + 123 });
    job.start();
    await job.stop();
    expect(submitted).toEqual([{ type: 'chargeLeverOvernight', day: 20_000 }]);
  });
});
