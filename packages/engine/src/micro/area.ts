// The micro (seconds contracts) area: configuration, submit, settlement on the recorded index (rule v2; the
// mark for orders journaled before it, rule v1). Each
// running order holds three amounts through the ledger's hold registry (its stake, its fee and the house's
// possible profit, hold owners `micro`, `micro.fee`, `micro.reserve`, each with the order id as ref);
// expired orders settle in the command-time hook, and price samples open orders in the price hook.
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN, frozenBy } from '../kernel/freezes.ts';
import { MicroReasonCode, MicroResultCode } from './codes.ts';
import type {
  SetMicroCurrencyCommand,
  SetMicroExposureCapCommand,
  SetMicroSecondsCommand,
  SetMicroStalenessCommand,
  SubmitMicroOrderCommand,
} from './commands.ts';
import {
  MICRO_FEE_HOLDS,
  MICRO_RESERVE_HOLDS,
  microOnPriceSample,
  microOnTime,
  setMicroCurrency,
  setMicroExposureCap,
  setMicroSeconds,
  setMicroStaleness,
  submitMicroOrder,
} from './handlers.ts';
import { checkMicroInvariants } from './invariants.ts';
import { microConfigView, microExposureView, microOrderView } from './reads.ts';
import type { MicroConfigView, MicroOrderView } from './reads.ts';
import { readMicroSection, writeMicroSection } from './snapshot.ts';
import type { MicroSnapshotSection } from './snapshot.ts';
import { MicroState } from './state.ts';
import { MICRO_PRICES } from './expected.ts';

export type MicroExposureView = {
  marketId: number;
  currencyId: number;
  expirySecond: number;
  up: bigint;
  down: bigint;
};

export type MicroQueries = {
  /** The configuration: seconds options, payable currencies, exposure caps, staleness bound (copies). */
  config(): MicroConfigView;
  /** A running seconds contract (undefined once settled). */
  order(orderId: number): MicroOrderView | undefined;
  /** The house's exposure per pair, currency and expiry second of the running seconds contracts. */
  exposure(): MicroExposureView[];
};

export const microArea = defineArea({
  name: 'micro',
  commands: {
    setMicroSeconds: command<MicroState, SetMicroSecondsCommand>(setMicroSeconds),
    setMicroCurrency: command<MicroState, SetMicroCurrencyCommand>(setMicroCurrency),
    setMicroExposureCap: command<MicroState, SetMicroExposureCapCommand>(setMicroExposureCap),
    setMicroStaleness: command<MicroState, SetMicroStalenessCommand>(setMicroStaleness),
    submitMicroOrder: command<MicroState, SubmitMicroOrderCommand>(submitMicroOrder, (c) => c.userId),
  },
  freezes: {
    setMicroSeconds: NOT_FROZEN,
    setMicroCurrency: NOT_FROZEN,
    setMicroExposureCap: NOT_FROZEN,
    setMicroStaleness: NOT_FROZEN,
    submitMicroOrder: frozenBy<MicroState, SubmitMicroOrderCommand>(['trading'], (c) => c.userId),
  },
  createState: (setup) => new MicroState(setup.ledger),
  queries: (state): MicroQueries => ({
    config: () => microConfigView(state),
    order: (orderId) => microOrderView(state, orderId),
    exposure: () => microExposureView(state),
  }),
  // Written only when the area holds anything, so a state that never used seconds contracts keeps its
  // snapshot text and state hash.
  writeSnapshot: (state) => ({ micro: writeMicroSection(state) }),
  readSnapshot: (state, document) => {
    readMicroSection(state, document.micro as MicroSnapshotSection | undefined, state.ledger);
  },
  rebuildsHolds: true,
  holdOwners: [MICRO_FEE_HOLDS, MICRO_RESERVE_HOLDS],
  checkInvariants: (state, ledger) => checkMicroInvariants(state, ledger),
  bigintFields: [
    'stake',
    'fee',
    'profit',
    'payout',
    'feeRefund',
    'minStake',
    'maxStake',
    'presets',
    'exposureCap',
  ],
  resultCodes: MicroResultCode,
  reasonCodes: MicroReasonCode,
  onCommandTime: (ctx, state) => {
    if (state.orders.size > 0) microOnTime(ctx, state);
  },
  onPrice: (ctx, state, price) => {
    if (!price.sample || state.orders.size === 0) return;
    const chain = ctx.port(MICRO_PRICES).priceChain(price.marketId);
    if (chain === undefined) return;
    microOnPriceSample(ctx, state, price.marketId, {
      seq: chain.latest.seq,
      timeMs: price.timeMs,
      markTicks: price.markTicks,
      indexTicks: price.indexTicks,
      stale: price.stale,
      hash: chain.latest.hash,
    });
  },
  stats: (state) => ({ microOpenOrders: state.orders.size }),
});
