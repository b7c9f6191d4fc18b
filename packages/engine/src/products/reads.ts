// Read-only views of the products area (copies; bigint amounts in minor units).
import type { ProductDetails, ProductTerms } from './commands.ts';
import { requiredReserve } from './rules.ts';
import { accruedOf, daysAccrued, userKey } from './state.ts';
import type {
  EarlyExitPolicy,
  Holding,
  Product,
  ProductKind,
  ProductStatus,
  ProductsState,
} from './state.ts';

export type ProductView = {
  productId: number;
  kind: ProductKind;
  status: ProductStatus;
  createdMs: number;
  terms: ProductTerms;
  details: ProductDetails;
  /** Units sold and left; `unitMinor` minor units per unit (ico tokens, defi coins; 1 for a miner). */
  sold: bigint;
  remaining: bigint;
  unitMinor: bigint;
  houseWallet: number;
  /** Held on the house account for the product: the reserve and the earned-unpaid amount. */
  reserve: bigint;
  earned: bigint;
  requiredReserve: bigint;
  unaccruedPromised: bigint;
  nextAccrualDay: number;
  unfinished: number;
  /** Recorded miner rates for days not yet accrued. */
  rates: [day: number, perUnit: bigint][];
};

export type HoldingView = {
  holdingId: number;
  productId: number;
  kind: 'miner' | 'defi';
  userId: number;
  units: bigint;
  principal: bigint;
  paid: bigint;
  fee: bigint;
  daily: bigint;
  promisePerDay: bigint;
  recorded: boolean;
  startDay: number;
  days: number;
  createdMs: number;
  earlyExit: EarlyExitPolicy | null;
  daysAccrued: number;
  accrued: bigint;
  extracted: bigint;
};

export function productView(product: Product): ProductView {
  return {
    productId: product.productId,
    kind: product.kind,
    status: product.status,
    createdMs: product.createdMs,
    terms: { ...product.terms },
    details: { ...product.details },
    sold: product.sold,
    remaining: product.terms.totalUnits - product.sold,
    unitMinor: product.unitMinor,
    houseWallet: product.houseWallet,
    reserve: product.reserveHold?.amount ?? 0n,
    earned: product.earnedHold?.amount ?? 0n,
    requiredReserve: requiredReserve(product),
    unaccruedPromised: product.unaccruedPromised,
    nextAccrualDay: product.nextAccrualDay,
    unfinished: product.unfinished,
    rates: [...product.rates].sort(([a], [b]) => a - b),
  };
}

export function holdingView(state: ProductsState, holding: Holding): HoldingView {
  const product = state.products.get(holding.productId) as Product;
  return {
    holdingId: holding.holdingId,
    productId: holding.productId,
    kind: holding.kind,
    userId: holding.userId,
    units: holding.units,
    principal: holding.principal,
    paid: holding.paid,
    fee: holding.fee,
    daily: holding.daily,
    promisePerDay: holding.promisePerDay,
    recorded: holding.recorded,
    startDay: holding.startDay,
    days: holding.days,
    createdMs: holding.createdMs,
    earlyExit: holding.earlyExit,
    daysAccrued: daysAccrued(product, holding),
    accrued: accruedOf(product, holding),
    extracted: holding.extracted,
  };
}

export type ProductsQueries = {
  product(productId: number): ProductView | undefined;
  products(): ProductView[];
  /** A running rent or stake (undefined once a stake has ended). */
  holding(holdingId: number): HoldingView | undefined;
  /** A user's running rents and stakes, by holding id. */
  holdingsOf(userId: number): HoldingView[];
  /** What a user bought of a product over all purchases (units, and what was paid; fees excluded). */
  bought(productId: number, userId: number): { units: bigint; paid: bigint };
  /** The next day to accrue of every product whose holdings have days left and whose next day has ended by `timeMs`. */
  dueAccruals(timeMs: number): { productId: number; day: number }[];
  /** Defi products with stakes whose last day has been accrued and which are not paid yet. */
  dueMaturities(): number[];
};

export function productsQueries(state: ProductsState): ProductsQueries {
  return {
    product: (productId) => {
      const product = state.products.get(productId);
      return product === undefined ? undefined : productView(product);
    },
    products: () => [...state.products.values()].sort((a, b) => a.productId - b.productId).map(productView),
    holding: (holdingId) => {
      const holding = state.holdings.get(holdingId);
      return holding === undefined ? undefined : holdingView(state, holding);
    },
    holdingsOf: (userId) => {
      const ids = state.holdingsByUser.get(userId);
      if (ids === undefined) return [];
      return [...ids]
        .sort((a, b) => a - b)
        .map((id) => holdingView(state, state.holdings.get(id) as Holding));
    },
    bought: (productId, userId) => {
      const entry = state.bought.get(userKey(productId, userId));
      return entry === undefined ? { units: 0n, paid: 0n } : { units: entry.units, paid: entry.paid };
    },
    dueAccruals: (timeMs) => {
      const due: { productId: number; day: number }[] = [];
      for (const product of state.products.values())
        if (product.unfinished > 0 && (product.nextAccrualDay + 1) * 86_400_000 <= timeMs)
          due.push({ productId: product.productId, day: product.nextAccrualDay });
      return due.sort((a, b) => a.productId - b.productId);
    },
    dueMaturities: () => {
      const due: number[] = [];
      for (const product of state.products.values()) {
        const last = product.nextAccrualDay - 1;
        for (const day of product.maturing.keys())
          if (day <= last) {
            due.push(product.productId);
            break;
          }
      }
      return due.sort((a, b) => a - b);
    },
  };
}
