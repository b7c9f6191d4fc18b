import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { ProductDetails, ProductTerms } from './commands.ts';

export type ProductKind = 'ico' | 'miner' | 'defi';
export type ProductStatus = 'draft' | 'open' | 'closed';
export type MinerRateKind = 'fixed' | 'recorded';
export type EarlyExitPolicy = 'forfeit' | 'none';

/** Sums over a set of holdings: how many, their units, their fixed daily amount and their daily promise. */
export type HoldingSums = { count: number; units: bigint; daily: bigint; promise: bigint };

export function emptySums(): HoldingSums {
  return { count: 0, units: 0n, daily: 0n, promise: 0n };
}

/**
 * A product. `reserveHold` is what the house holds on its account for the product (unsold tokens, or the
 * yields promised and not yet accrued); `earnedHold` the earnings accrued to holders and not yet paid.
 * Accrual moves day by day: `nextAccrualDay` is the next day to credit; `active` sums the holdings running
 * on the days accrued so far that have days left; `startsAt` and `endsAt` (by day) hold the holdings that
 * begin on a later day and the day each unfinished holding accrues last.
 */
export type Product = {
  readonly productId: number;
  readonly kind: ProductKind;
  readonly createdMs: number;
  status: ProductStatus;
  terms: ProductTerms;
  details: ProductDetails;
  /** Units sold since creation (never above the total). */
  sold: bigint;
  /** Minor units of one unit: 10^scale of the token (ico) or staked coin (defi); 1 for a miner. */
  readonly unitMinor: bigint;
  /** House wallet index and currency of the reserve and earned holds. */
  readonly houseWallet: number;
  reserveHold: Hold | null;
  earnedHold: Hold | null;
  /** Σ over unfinished holdings of their promise for the days they have left. */
  unaccruedPromised: bigint;
  nextAccrualDay: number;
  unfinished: number;
  active: HoldingSums;
  readonly startsAt: Map<number, HoldingSums>;
  readonly endsAt: Map<number, HoldingSums>;
  /** Recorded miner rates by day (days not yet accrued), per unit. */
  readonly rates: Map<number, bigint>;
  /** Recorded-rate miner: the days accrued with holdings running, ascending, and the cumulative amount per unit. */
  readonly accruedDays: number[];
  readonly accruedCum: bigint[];
  /** Defi: unpaid stakes by their last day. */
  readonly maturing: Map<number, Set<Holding>>;
};

/** A rent (miner) or a stake (defi). Token-sale purchases leave no holding: the tokens are the user's. */
export type Holding = {
  readonly holdingId: number;
  readonly productId: number;
  readonly kind: 'miner' | 'defi';
  readonly userId: number;
  readonly units: bigint;
  readonly principal: bigint;
  readonly paid: bigint;
  readonly fee: bigint;
  /** Fixed daily amount (a fixed-rate miner, a stake); 0 for a recorded-rate miner. */
  readonly daily: bigint;
  /** What the house promised per day for this holding (daily; units x the range's maximum for a recorded miner). */
  readonly promisePerDay: bigint;
  /** Recorded-rate miner: true (the day's amount per unit comes from the product's rates). */
  readonly recorded: boolean;
  readonly startDay: number;
  readonly days: number;
  readonly createdMs: number;
  readonly earlyExit: EarlyExitPolicy | null;
  extracted: bigint;
  /** Defi: the principal on the user's defi wallet (owner `products.stake`, ref: the holding). */
  principalHold: Hold | null;
};

export function userKey(productId: number, userId: number): number {
  return productId * 2_147_483_648 + userId;
}

/** The products area's state: products, running holdings, and what each user bought per product. */
export class ProductsState {
  readonly ledger: Ledger;
  nextProductId = 1;
  nextHoldingId = 1;
  readonly products = new Map<number, Product>();
  readonly holdings = new Map<number, Holding>();
  readonly holdingsByUser = new Map<number, Set<number>>();
  /** Per (product, user): units bought and what was paid (fees excluded), over all purchases. */
  readonly bought = new Map<number, { units: bigint; paid: bigint }>();

  constructor(ledger: Ledger) {
    this.ledger = ledger;
  }

  isEmpty(): boolean {
    return this.products.size === 0 && this.nextProductId === 1 && this.nextHoldingId === 1;
  }

  addHolding(holding: Holding): void {
    this.holdings.set(holding.holdingId, holding);
    let set = this.holdingsByUser.get(holding.userId);
    if (set === undefined) this.holdingsByUser.set(holding.userId, (set = new Set()));
    set.add(holding.holdingId);
  }

  removeHolding(holding: Holding): void {
    this.holdings.delete(holding.holdingId);
    const set = this.holdingsByUser.get(holding.userId);
    if (set !== undefined) {
      set.delete(holding.holdingId);
      if (set.size === 0) this.holdingsByUser.delete(holding.userId);
    }
  }
}

export function addSums(map: Map<number, HoldingSums>, day: number, holding: Holding, sign: 1 | -1): void {
  let sums = map.get(day);
  if (sums === undefined) map.set(day, (sums = emptySums()));
  applySums(sums, holding, sign);
  if (sums.count === 0) map.delete(day);
}

export function applySums(sums: HoldingSums, holding: Holding, sign: 1 | -1): void {
  const s = BigInt(sign);
  sums.count += sign;
  sums.units += s * holding.units;
  sums.daily += s * holding.daily;
  sums.promise += s * holding.promisePerDay;
}

export function mergeSums(into: HoldingSums, from: HoldingSums, sign: 1 | -1): void {
  const s = BigInt(sign);
  into.count += sign * from.count;
  into.units += s * from.units;
  into.daily += s * from.daily;
  into.promise += s * from.promise;
}

/** The last day the holding accrues. */
export function lastDayOf(holding: Holding): number {
  return holding.startDay + holding.days - 1;
}

/** Days of the holding credited so far (the product credits its days one by one, none skipped). */
export function daysAccrued(product: Product, holding: Holding): number {
  const credited = product.nextAccrualDay - holding.startDay;
  return credited <= 0 ? 0 : Math.min(credited, holding.days);
}

function lowerBound(days: readonly number[], day: number): number {
  let low = 0;
  let high = days.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((days[middle] as number) < day) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Earnings credited to the holding so far. */
export function accruedOf(product: Product, holding: Holding): bigint {
  const n = daysAccrued(product, holding);
  if (n === 0) return 0n;
  if (!holding.recorded) return holding.daily * BigInt(n);
  const first = lowerBound(product.accruedDays, holding.startDay);
  const before = first === 0 ? 0n : (product.accruedCum[first - 1] as bigint);
  const through = product.accruedCum[first + n - 1] as bigint;
  return holding.units * (through - before);
}

/** The holding's promise for the days it has left. */
export function unaccruedOf(product: Product, holding: Holding): bigint {
  return holding.promisePerDay * BigInt(holding.days - daysAccrued(product, holding));
}
