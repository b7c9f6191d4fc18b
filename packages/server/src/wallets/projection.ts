// The wallets area's projection: the account log, one row per balance change of any account (users' six
// wallets and the system owners), written with the journal batch that made it. Wallet records, the
// back office's ledger views and the activity feed read it.
import type { Command, EngineEvent } from '@fairex/engine';
import type { CopyRows, Projector, ProjectionTransaction } from '../engine-runner/projector.ts';
import { copyField, copyRows, ownerKey, writeCopyRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

const ACCOUNT_LOG = {
  table: 'account_log',
  columns: [
    'seq',
    'event_index',
    'transfer_id',
    'owner_key',
    'wallet',
    'currency_id',
    'available_before',
    'available_after',
    'locked_before',
    'locked_after',
    'reason',
    'reference_id',
    'memo',
    'time_ms',
  ],
} as const;

/**
 * The account-log rows of a batch, each line written straight from its balance-change event (the ledger's
 * posting), in ACCOUNT_LOG's column order. Pure: the same entries give the same rows.
 */
export function accountLogRows(entries: readonly Entry[]): CopyRows {
  const rows = copyRows(ACCOUNT_LOG);
  let text = '';
  let count = 0;
  for (const { envelope, outcome } of entries) {
    const { seq, timeMs } = envelope;
    const events = outcome.events;
    for (let eventIndex = 0; eventIndex < events.length; eventIndex++) {
      const event = events[eventIndex] as EngineEvent;
      if (event.type !== 'balanceChanged') continue;
      // Wallets are fixed names and amounts bigints: nothing to escape but the memo.
      text +=
        `${seq}\t${eventIndex}\t${event.transferId}\t${ownerKey(event.owner)}\t${event.wallet}\t` +
        `${event.currencyId}\t${event.availableBefore}\t${event.availableAfter}\t${event.lockedBefore}\t` +
        `${event.lockedAfter}\t${event.reason}\t${event.referenceId}\t${copyField(event.memo)}\t${timeMs}\n`;
      count += 1;
    }
  }
  rows.text = text;
  rows.count = count;
  return rows;
}

/** The account log's projector. */
export function accountLogProjector(
  _kind?: 'pglite' | 'postgres' | undefined,
): Projector<Command, EngineEvent> {
  return {
    name: 'account-log',
    tables: ['account_log'],
    project: (entries, tx: ProjectionTransaction) => writeCopyRows(tx, accountLogRows(entries)),
  };
}
