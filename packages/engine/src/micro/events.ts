import type { MicroDirection, MicroOutcome, MicroSample, MicroVoidReason } from './rules.ts';

/** The seconds-contract configuration changed (any of its commands); the server re-reads it from the engine. */
export type MicroConfigChangedEvent = { type: 'microConfigChanged'; command: string };

/** An order was accepted: stake held on the user's micro wallet, fee paid, the house's profit reserved. */
export type MicroOrderPlacedEvent = {
  type: 'microOrderPlaced';
  orderId: number;
  userId: number;
  marketId: number;
  currencyId: number;
  direction: MicroDirection;
  seconds: number;
  profitRatioBp: number;
  stake: bigint;
  fee: bigint;
  acceptedMs: number;
  expiryMs: number;
};

/** The order's open sample: the first sample of its market strictly after acceptance. */
export type MicroOrderOpenedEvent = {
  type: 'microOrderOpened';
  orderId: number;
  userId: number;
  open: MicroSample;
};

/**
 * The order is settled by rule `ruleVersion`. `payout` is what returned to the user's micro wallet (stake
 * plus profit on a win, the stake on a draw or void, 0 on a loss); `feeRefund` the fee returned on a void.
 */
export type MicroOrderSettledEvent = {
  type: 'microOrderSettled';
  orderId: number;
  userId: number;
  marketId: number;
  currencyId: number;
  direction: MicroDirection;
  seconds: number;
  profitRatioBp: number;
  stake: bigint;
  fee: bigint;
  acceptedMs: number;
  expiryMs: number;
  maxSampleAgeMs: number;
  outcome: MicroOutcome;
  voidReason: MicroVoidReason | null;
  open: MicroSample | null;
  end: MicroSample | null;
  payout: bigint;
  feeRefund: bigint;
  ruleVersion: string;
};

export type MicroEvent =
  MicroConfigChangedEvent | MicroOrderPlacedEvent | MicroOrderOpenedEvent | MicroOrderSettledEvent;
