// The products area's snapshot section, written only when the area holds anything (so the snapshot text
// and state hash of an engine that never used products stay what they were). The accrual schedule (active
// sums, days holdings start and end on, stakes awaiting maturity) is derived from the holdings on restore.
import { HOUSE_OWNER_KEY } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { ProductsReasonCode } from './codes.ts';
import type { ProductDetails, ProductTerms } from './commands.ts';
import { PRODUCT_EARNED_HOLDS, PRODUCT_RESERVE_HOLDS, PRODUCT_STAKE_HOLDS } from './handlers.ts';
import { addSums, applySums, daysAccrued, emptySums, lastDayOf, unaccruedOf } from './state.ts';
import type {
  EarlyExitPolicy,
  Holding,
  MinerRateKind,
  Product,
  ProductKind,
  ProductStatus,
  ProductsState,
} from './state.ts';

type TermsRow = [
  startMs: number,
  endMs: number,
  currencyId: number,
  payCurrencyId: number,
  totalUnits: string,
  unitPrice: string,
  feeBp: number,
  days: number,
  rateKind: MinerRateKind | null,
  rateMin: string,
  rateMax: string,
  aprBp: number,
  earlyExit: EarlyExitPolicy | null,
  perUserCap: string | null,
];

type DetailsRow = [
  title: string,
  logo: string,
  white: string,
  image: string,
  label: string,
  description: string,
];

type ProductRow = [
  productId: number,
  kind: ProductKind,
  createdMs: number,
  status: ProductStatus,
  terms: TermsRow,
  details: DetailsRow,
  sold: string,
  unitMinor: string,
  houseWallet: number,
  reserve: string,
  earned: string,
  nextAccrualDay: number,
  rates: [day: number, perUnit: string][],
  accrued: [day: number, perUnit: string][],
];

type HoldingRow = [
  holdingId: number,
  productId: number,
  kind: 'miner' | 'defi',
  userId: number,
  units: string,
  principal: string,
  paid: string,
  fee: string,
  daily: string,
  promisePerDay: string,
  recorded: 0 | 1,
  startDay: number,
  days: number,
  createdMs: number,
  earlyExit: EarlyExitPolicy | null,
  extracted: string,
];

export type ProductsSnapshotSection = {
  nextProductId: number;
  nextHoldingId: number;
  products: ProductRow[];
  holdings: HoldingRow[];
  bought: [productId: number, userId: number, units: string, paid: string][];
};

function termsRow(t: ProductTerms): TermsRow {
  return [
    t.startMs,
    t.endMs,
    t.currencyId,
    t.payCurrencyId,
    t.totalUnits.toString(),
    t.unitPrice.toString(),
    t.feeBp,
    t.days,
    t.rateKind,
    t.rateMin.toString(),
    t.rateMax.toString(),
    t.aprBp,
    t.earlyExit,
    t.perUserCap === null ? null : t.perUserCap.toString(),
  ];
}

function termsOf(r: TermsRow): ProductTerms {
  return {
    startMs: r[0],
    endMs: r[1],
    currencyId: r[2],
    payCurrencyId: r[3],
    totalUnits: BigInt(r[4]),
    unitPrice: BigInt(r[5]),
    feeBp: r[6],
    days: r[7],
    rateKind: r[8],
    rateMin: BigInt(r[9]),
    rateMax: BigInt(r[10]),
    aprBp: r[11],
    earlyExit: r[12],
    perUserCap: r[13] === null ? null : BigInt(r[13]),
  };
}

function detailsRow(d: ProductDetails): DetailsRow {
  return [d.title, d.logo, d.white, d.image, d.label, d.description];
}

export function writeProductsSection(state: ProductsState): ProductsSnapshotSection | undefined {
  if (state.isEmpty()) return undefined;
  const products = [...state.products.values()].sort((a, b) => a.productId - b.productId);
  return {
    nextProductId: state.nextProductId,
    nextHoldingId: state.nextHoldingId,
    products: products.map((p) => {
      const accrued: [number, string][] = p.accruedDays.map((day, index) => {
        const cum = p.accruedCum[index] as bigint;
        const before = index === 0 ? 0n : (p.accruedCum[index - 1] as bigint);
        return [day, (cum - before).toString()];
      });
      return [
        p.productId,
        p.kind,
        p.createdMs,
        p.status,
        termsRow(p.terms),
        detailsRow(p.details),
        p.sold.toString(),
        p.unitMinor.toString(),
        p.houseWallet,
        (p.reserveHold?.amount ?? 0n).toString(),
        (p.earnedHold?.amount ?? 0n).toString(),
        p.nextAccrualDay,
        [...p.rates].sort(([a], [b]) => a - b).map(([day, rate]): [number, string] => [day, rate.toString()]),
        accrued,
      ];
    }),
    holdings: [...state.holdings.values()]
      .sort((a, b) => a.holdingId - b.holdingId)
      .map((h) => [
        h.holdingId,
        h.productId,
        h.kind,
        h.userId,
        h.units.toString(),
        h.principal.toString(),
        h.paid.toString(),
        h.fee.toString(),
        h.daily.toString(),
        h.promisePerDay.toString(),
        h.recorded ? 1 : 0,
        h.startDay,
        h.days,
        h.createdMs,
        h.earlyExit,
        h.extracted.toString(),
      ]),
    bought: [...state.bought]
      .sort(([a], [b]) => a - b)
      .map(([key, entry]) => [
        Math.floor(key / 2_147_483_648),
        key % 2_147_483_648,
        entry.units.toString(),
        entry.paid.toString(),
      ]),
  };
}

/** Fills an empty state from a section and re-creates the area's holds; the schedule is derived. */
export function readProductsSection(
  state: ProductsState,
  section: ProductsSnapshotSection | undefined,
  ledger: Ledger,
): void {
  if (section === undefined) return;
  state.nextProductId = section.nextProductId;
  state.nextHoldingId = section.nextHoldingId;
  for (const row of section.products) {
    const [productId, kind, createdMs, status, terms, details, sold, unitMinor, houseWallet] = row;
    const [, , , , , , , , , reserve, earned, nextAccrualDay, rates, accrued] = row;
    const parsedTerms = termsOf(terms);
    const restore = (owner: string, amount: bigint, reason: number): Hold | null => {
      if (amount === 0n) return null;
      const account = ledger.account(HOUSE_OWNER_KEY, houseWallet, parsedTerms.currencyId);
      const hold = new Hold(owner, productId, account, amount, reason);
      ledger.restoreHold(hold);
      return hold;
    };
    const product: Product = {
      productId,
      kind,
      createdMs,
      status,
      terms: parsedTerms,
      details: {
        title: details[0],
        logo: details[1],
        white: details[2],
        image: details[3],
        label: details[4],
        description: details[5],
      },
      sold: BigInt(sold),
      unitMinor: BigInt(unitMinor),
      houseWallet,
      reserveHold: restore(PRODUCT_RESERVE_HOLDS, BigInt(reserve), ProductsReasonCode.productReserveHold),
      earnedHold: restore(PRODUCT_EARNED_HOLDS, BigInt(earned), ProductsReasonCode.productAccrued),
      unaccruedPromised: 0n,
      nextAccrualDay,
      unfinished: 0,
      active: emptySums(),
      startsAt: new Map(),
      endsAt: new Map(),
      rates: new Map(rates.map(([day, rate]) => [day, BigInt(rate)])),
      accruedDays: [],
      accruedCum: [],
      maturing: new Map(),
    };
    let cum = 0n;
    for (const [day, perUnit] of accrued) {
      cum += BigInt(perUnit);
      product.accruedDays.push(day);
      product.accruedCum.push(cum);
    }
    state.products.set(productId, product);
  }
  for (const row of section.holdings) {
    const [holdingId, productId, kind, userId, units, principal, paid, fee, daily, promisePerDay, recorded] =
      row;
    const [, , , , , , , , , , , startDay, days, createdMs, earlyExit, extracted] = row;
    const product = state.products.get(productId);
    if (product === undefined) throw new Error(`holding ${holdingId} of unknown product ${productId}`);
    let principalHold: Hold | null = null;
    if (kind === 'defi') {
      const account = ledger.account(userId, product.houseWallet, product.terms.currencyId);
      principalHold = new Hold(
        PRODUCT_STAKE_HOLDS,
        holdingId,
        account,
        BigInt(principal),
        ProductsReasonCode.productStake,
      );
      ledger.restoreHold(principalHold);
    }
    const holding: Holding = {
      holdingId,
      productId,
      kind,
      userId,
      units: BigInt(units),
      principal: BigInt(principal),
      paid: BigInt(paid),
      fee: BigInt(fee),
      daily: BigInt(daily),
      promisePerDay: BigInt(promisePerDay),
      recorded: recorded === 1,
      startDay,
      days,
      createdMs,
      earlyExit,
      extracted: BigInt(extracted),
      principalHold,
    };
    state.addHolding(holding);
    scheduleRestored(product, holding);
  }
  for (const [productId, userId, units, paid] of section.bought)
    state.bought.set(productId * 2_147_483_648 + userId, { units: BigInt(units), paid: BigInt(paid) });
}

/** Puts a restored holding back on its product's accrual schedule. */
export function scheduleRestored(product: Product, holding: Holding): void {
  const credited = daysAccrued(product, holding);
  if (credited < holding.days) {
    product.unfinished += 1;
    product.unaccruedPromised += unaccruedOf(product, holding);
    addSums(product.endsAt, lastDayOf(holding), holding, 1);
    if (credited === 0) addSums(product.startsAt, holding.startDay, holding, 1);
    else applySums(product.active, holding, 1);
  }
  if (holding.kind === 'defi') {
    const last = lastDayOf(holding);
    let set = product.maturing.get(last);
    if (set === undefined) product.maturing.set(last, (set = new Set()));
    set.add(holding);
  }
}
