import type { ProductDetails, ProductTerms } from './commands.ts';
import type { ProductKind } from './state.ts';

/** A draft product was created (its terms and texts, for the projection). */
export type ProductCreatedEvent = {
  type: 'productCreated';
  productId: number;
  kind: ProductKind;
  terms: ProductTerms;
  details: ProductDetails;
  timeMs: number;
};

/** New terms for future purchases. `reserve` is what the house now holds for the product. */
export type ProductEditedEvent = {
  type: 'productEdited';
  productId: number;
  kind: ProductKind;
  terms: ProductTerms;
  details: ProductDetails;
  reserve: bigint;
};

/** Opened or closed; `reserve` is what the house holds for the product afterwards. */
export type ProductStatusChangedEvent = {
  type: 'productStatusChanged';
  productId: number;
  kind: ProductKind;
  status: 'open' | 'closed';
  reserve: bigint;
  timeMs: number;
};

/** A miner's amount per unit for a day, recorded before the day started. */
export type MinerRateRecordedEvent = {
  type: 'minerRateRecorded';
  productId: number;
  day: number;
  perUnit: bigint;
  timeMs: number;
};

/**
 * A purchase: tokens bought (ico), units rented (miner) or coins staked (defi). `paid` is what left the
 * user's wallet besides `fee` (ico: quantity x price; miner: the rent; defi: 0, the principal stays held on
 * the user's own defi wallet). `daily` is the holding's fixed daily amount (0 for a recorded-rate miner and
 * for a token sale); it accrues from `startDay` for `days` days.
 */
export type ProductBoughtEvent = {
  type: 'productBought';
  holdingId: number;
  productId: number;
  kind: ProductKind;
  userId: number;
  units: bigint;
  paid: bigint;
  fee: bigint;
  principal: bigint;
  daily: bigint;
  startDay: number;
  days: number;
  timeMs: number;
};

/**
 * One day of a product accrued: `holdings` holdings credited `earnings` in total (held for them on the
 * house account), `perUnit` the miner's amount per unit that day (null for defi), and `released` what the
 * house had promised for the day beyond what it paid (a recorded miner rate below the maximum).
 */
export type ProductDayAccruedEvent = {
  type: 'productDayAccrued';
  productId: number;
  day: number;
  holdings: number;
  earnings: bigint;
  perUnit: bigint | null;
  released: bigint;
  timeMs: number;
};

/** Miner earnings moved into the user's miner wallet. */
export type MinerEarningsExtractedEvent = {
  type: 'minerEarningsExtracted';
  holdingId: number;
  productId: number;
  userId: number;
  amount: bigint;
  timeMs: number;
};

/** A defi stake ended: `principal` released, `earnings` paid (matured) or `forfeited` (exited early). */
export type DefiStakeEndedEvent = {
  type: 'defiStakeEnded';
  holdingId: number;
  productId: number;
  userId: number;
  how: 'matured' | 'exited';
  principal: bigint;
  earnings: bigint;
  forfeited: bigint;
  timeMs: number;
};

export type ProductsEvent =
  | ProductCreatedEvent
  | ProductEditedEvent
  | ProductStatusChangedEvent
  | MinerRateRecordedEvent
  | ProductBoughtEvent
  | ProductDayAccruedEvent
  | MinerEarningsExtractedEvent
  | DefiStakeEndedEvent;
