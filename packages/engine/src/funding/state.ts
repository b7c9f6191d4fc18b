import type { AreaSetup } from '../kernel/area.ts';
import type { Counter } from '../kernel/counters.ts';
import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';

/**
 * A pending withdrawal: `amount` is held on the user's change wallet (the hold: area 'funding', ref: the
 * withdrawal id) until it is completed or rejected.
 */
export type Withdrawal = {
  readonly withdrawalId: number;
  readonly userId: number;
  readonly currencyId: number;
  readonly amount: bigint;
  readonly feeAmount: bigint;
  readonly hold: Hold;
  readonly requestedTimeMs: number;
  readonly memo: string | undefined;
};

/** The funding area's state slice: pending withdrawals and their id counter. */
export class FundingState {
  readonly ledger: Ledger;
  readonly withdrawals = new Map<number, Withdrawal>();
  readonly withdrawalIds: Counter;

  constructor(setup: AreaSetup) {
    this.ledger = setup.ledger;
    this.withdrawalIds = setup.counter('nextWithdrawalId');
  }
}
