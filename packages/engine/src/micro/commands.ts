import type { MicroDirection } from './rules.ts';

/** Replaces the seconds options: each a duration in seconds and its profit ratio in basis points (1 % = 100). */
export type SetMicroSecondsCommand = {
  type: 'setMicroSeconds';
  options: [seconds: number, profitRatioBp: number][];
};

/**
 * Sets a payable currency of seconds contracts: the fee in basis points of the stake, the least and the
 * largest stake, the preset stakes shown to users, and the most running orders a user may hold in it.
 * `maxOpenOrders` 0 closes the currency to new orders (running ones still settle).
 */
export type SetMicroCurrencyCommand = {
  type: 'setMicroCurrency';
  currencyId: number;
  feeBp: number;
  minStake: bigint;
  maxStake: bigint;
  presets: bigint[];
  maxOpenOrders: number;
};

/** The house's exposure cap for one pair and payable currency per expiry second; 0 closes the pair. */
export type SetMicroExposureCapCommand = {
  type: 'setMicroExposureCap';
  marketId: number;
  currencyId: number;
  exposureCap: bigint;
};

/** The staleness bound of the void rule (milliseconds between acceptance or expiry and the sample). */
export type SetMicroStalenessCommand = { type: 'setMicroStaleness'; maxSampleAgeMs: number };

/**
 * A user's up (1) or down (2) order on a pair's recorded price for `seconds`, staking `stake` of a currency.
 * `settleOn: 'index'` (what the exchange sends) settles it on the recorded index by rule fairex-micro-v2 and
 * refuses it while the price is stale; without the field (commands journaled before) it settles on the mark
 * by rule fairex-micro-v1, as it always did.
 */
export type SubmitMicroOrderCommand = {
  type: 'submitMicroOrder';
  userId: number;
  marketId: number;
  currencyId: number;
  direction: MicroDirection;
  seconds: number;
  stake: bigint;
  settleOn?: 'index';
};

export type MicroCommand =
  | SetMicroSecondsCommand
  | SetMicroCurrencyCommand
  | SetMicroExposureCapCommand
  | SetMicroStalenessCommand
  | SubmitMicroOrderCommand;
