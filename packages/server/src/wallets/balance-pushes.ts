// The wallets area's push (spec 03 section 9): `update_balance` to a user's room for every wallet of theirs
// a committed batch changed, with the balance as the batch left it. Made from committed engine events only,
// so what a user is told has happened is durable, whichever area's command moved the money (an order, a
// fill, a transfer, a deposit, a withdrawal, a flash exchange).
import type { BalanceChangedEvent, Command, Engine, EngineEvent } from '@fairex/engine';
import { formatDecimal } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';

export interface BalancePushesOptions {
  engine: Pick<Engine, 'ledger'>;
  realtime: Pick<Realtime, 'toUser' | 'mayReachUser'>;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
  /**
   * Remembers that the user was told of what the batch up to `seq` did (the runner's noteAcknowledged), so
   * that their next read (records, history) waits until the projections hold it: whichever area moved the
   * money (a fill, a liquidation, a settlement, a release), the balance push is what tells them.
   */
  acknowledge?(userId: number, seq: number): void;
}

export interface BalancePushes {
  stop(): void;
}

export function startBalancePushes(options: BalancePushesOptions): BalancePushes {
  const onBatch = (batch: CommittedBatch<Command, EngineEvent>) => {
    const balances = new Map<string, BalanceChangedEvent>();
    for (const { outcome } of batch.entries) {
      for (const event of outcome.events) {
        // Later events of the same account overwrite earlier ones: the push carries the batch's end state.
        if (event.type === 'balanceChanged' && typeof event.owner === 'number')
          balances.set(`${event.owner}:${event.wallet}:${event.currencyId}`, event);
      }
    }
    for (const event of balances.values()) pushBalance(options, event, batch.lastSeq);
  };
  const stop = options.onCommitted(onBatch);
  return { stop };
}

function pushBalance(options: BalancePushesOptions, event: BalanceChangedEvent, seq: number): void {
  if (typeof event.owner !== 'number' || !options.realtime.mayReachUser(event.owner)) return;
  const currency = options.engine.ledger.currency(event.currencyId);
  if (currency === undefined) return;
  options.acknowledge?.(event.owner, seq);
  options.realtime.toUser(event.owner, 'update_balance', {
    type: 'update_balance',
    currency_id: event.currencyId,
    currency_name: currency.code,
    wallet: event.wallet,
    balance: formatDecimal(event.availableAfter, currency.scale),
    lock_balance: formatDecimal(event.lockedAfter, currency.scale),
  });
}
