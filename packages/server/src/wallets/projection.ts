// The wallets area's projection: the account log, one row per balance change of any account (users' six
// wallets and the system owners), written with the journal batch that made it. Wallet records, the
// back office's ledger views and the activity feed read it.
import type { Command, EngineEvent } from '@fairex/engine';
import type { Projector, ProjectionTransaction, BulkMode } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows, ownerKey } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

/** Column arrays ready for unnest; amounts as decimal text so both drivers pass them exactly. */
export interface AccountLogRows {
  seq: number[];
  eventIndex: number[];
  transferId: number[];
  ownerKey: number[];
  wallet: string[];
  currencyId: number[];
  availableBefore: string[];
  availableAfter: string[];
  lockedBefore: string[];
  lockedAfter: string[];
  reason: number[];
  referenceId: number[];
  memo: (string | null)[];
  timeMs: number[];
}

/** Derives the account-log rows of a batch. Pure: the same entries give the same rows. */
export function accountLogRows(entries: readonly Entry[]): AccountLogRows {
  const log: AccountLogRows = {
    seq: [],
    eventIndex: [],
    transferId: [],
    ownerKey: [],
    wallet: [],
    currencyId: [],
    availableBefore: [],
    availableAfter: [],
    lockedBefore: [],
    lockedAfter: [],
    reason: [],
    referenceId: [],
    memo: [],
    timeMs: [],
  };
  for (const { envelope, outcome } of entries) {
    const events = outcome.events;
    for (let eventIndex = 0; eventIndex < events.length; eventIndex++) {
      const event = events[eventIndex] as EngineEvent;
      if (event.type !== 'balanceChanged') continue;
      log.seq.push(envelope.seq);
      log.eventIndex.push(eventIndex);
      log.transferId.push(event.transferId);
      log.ownerKey.push(ownerKey(event.owner));
      log.wallet.push(event.wallet);
      log.currencyId.push(event.currencyId);
      log.availableBefore.push(event.availableBefore.toString());
      log.availableAfter.push(event.availableAfter.toString());
      log.lockedBefore.push(event.lockedBefore.toString());
      log.lockedAfter.push(event.lockedAfter.toString());
      log.reason.push(event.reason);
      log.referenceId.push(event.referenceId);
      log.memo.push(event.memo ?? null);
      log.timeMs.push(envelope.timeMs);
    }
  }
  return log;
}

const ACCOUNT_LOG_COLUMNS = {
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
  types: [
    'bigint',
    'int',
    'bigint',
    'int',
    'text',
    'int',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
    'smallint',
    'bigint',
    'text',
    'bigint',
  ],
} as const;

export async function writeAccountLog(
  tx: ProjectionTransaction,
  log: AccountLogRows,
  mode: BulkMode,
): Promise<void> {
  await insertRows(tx, mode, {
    ...ACCOUNT_LOG_COLUMNS,
    data: [
      log.seq,
      log.eventIndex,
      log.transferId,
      log.ownerKey,
      log.wallet,
      log.currencyId,
      log.availableBefore,
      log.availableAfter,
      log.lockedBefore,
      log.lockedAfter,
      log.reason,
      log.referenceId,
      log.memo,
      log.timeMs,
    ],
  });
}

/** The account log's projector for a store of the given kind. */
export function accountLogProjector(
  kind: 'pglite' | 'postgres' | undefined,
): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  return {
    name: 'account-log',
    tables: ['account_log'],
    project: (entries, tx) => writeAccountLog(tx, accountLogRows(entries), mode),
  };
}
