import { leverEntryTriggerTicks } from '../calc/lever.ts';
import type { LeverRecord, LeverState } from './state.ts';

/** A limit entry's trigger: a long opens when the mark is at or below it, a short at or above. */
export function armEntryTrigger(state: LeverState, record: LeverRecord): void {
  const ticks = leverEntryTriggerTicks({
    targetTicks: record.entryTicks,
    spreadPpm: record.rules.spreadPpm,
    side: record.side,
  });
  record.entryTrigger = state.addTrigger(record.marketId, 'entry', ticks, record.side === 1, record);
}
