// Command handlers of the products area. Each validates everything first and refuses having changed
// nothing; an accepted command moves the balances and the holding (or the product) together.
import { DAY_MS, dayOf, defiDaily, icoCost, minerCost } from '../calc/products.ts';
import type { CommandContext } from '../kernel/context.ts';
import { FEES_OWNER_KEY, HOUSE_OWNER_KEY, ownerKeyOf, walletIndexOf } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import { MAX_AMOUNT, MAX_CURRENCY_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isAmount, isCount, isNatural } from '../validate.ts';
import { ProductsReasonCode as Reason, ProductsResultCode as Code } from './codes.ts';
import type {
  AccrueProductDayCommand,
  BuyIcoCommand,
  BuyMinerCommand,
  CloseProductCommand,
  CreateProductCommand,
  EditProductCommand,
  ExitDefiStakeCommand,
  ExtractMinerEarningsCommand,
  MatureProductHoldingsCommand,
  OpenProductCommand,
  ProductDetails,
  ProductTerms,
  RecordMinerRateCommand,
  StakeDefiCommand,
} from './commands.ts';
import { minerPromisePerUnit, requiredReserve } from './rules.ts';
import {
  accruedOf,
  addSums,
  applySums,
  daysAccrued,
  emptySums,
  lastDayOf,
  mergeSums,
  unaccruedOf,
  userKey,
} from './state.ts';
import type { Holding, Product, ProductKind, ProductsState } from './state.ts';

/** Hold owners: a product's reserve and its earned-unpaid amount (house), a stake's principal (user). */
export const PRODUCT_RESERVE_HOLDS = 'products';
export const PRODUCT_EARNED_HOLDS = 'products.earned';
export const PRODUCT_STAKE_HOLDS = 'products.stake';

export const MAX_PRODUCT_UNITS = 1_000_000_000;
export const MAX_PRODUCT_DAYS = 3650;
export const MAX_PRODUCT_ID = 1_000_000;
export const MAX_APR_BP = 100_000;
/** Rates may be recorded at most this many days ahead. */
export const MAX_RATE_DAYS_AHEAD = 366;
export const MAX_MATURE_BATCH = 100_000;

const WALLET_OF_KIND: Record<ProductKind, number> = {
  ico: walletIndexOf('ico'),
  miner: walletIndexOf('miner'),
  defi: walletIndexOf('defi'),
};

function isKind(value: unknown): value is ProductKind {
  return value === 'ico' || value === 'miner' || value === 'defi';
}

function isShortText(value: unknown, max: number, required: boolean): boolean {
  if (typeof value !== 'string' || value.length > max || (required && value.trim().length === 0))
    return false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

function isLongText(value: unknown, max: number): boolean {
  if (typeof value !== 'string' || value.length > max) return false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

function validDetails(details: unknown): details is ProductDetails {
  if (typeof details !== 'object' || details === null) return false;
  const d = details as Record<string, unknown>;
  return (
    isShortText(d.title, 80, true) &&
    isShortText(d.logo, 300, false) &&
    isShortText(d.white, 300, false) &&
    isShortText(d.image, 300, false) &&
    isShortText(d.label, 80, false) &&
    isLongText(d.description, 2000)
  );
}

function isRate(value: unknown): value is bigint {
  return typeof value === 'bigint' && value >= 0n && value <= MAX_AMOUNT;
}

/** The unit's size in minor units, or 0n when the terms are invalid for the kind. */
function checkTerms(ctx: CommandContext, kind: ProductKind, terms: unknown): bigint {
  if (typeof terms !== 'object' || terms === null) return 0n;
  const t = terms as ProductTerms;
  if (!isNatural(t.startMs, Number.MAX_SAFE_INTEGER) || !isNatural(t.endMs, Number.MAX_SAFE_INTEGER))
    return 0n;
  if (t.startMs >= t.endMs) return 0n;
  if (!isCount(t.currencyId, MAX_CURRENCY_ID) || !isCount(t.payCurrencyId, MAX_CURRENCY_ID)) return 0n;
  const currency = ctx.ledger.currencies.get(t.currencyId);
  if (currency === undefined || !ctx.ledger.currencies.has(t.payCurrencyId)) return 0n;
  if (typeof t.totalUnits !== 'bigint' || t.totalUnits < 1n || t.totalUnits > BigInt(MAX_PRODUCT_UNITS))
    return 0n;
  if (
    t.perUserCap !== null &&
    (typeof t.perUserCap !== 'bigint' || t.perUserCap < 1n || t.perUserCap > t.totalUnits)
  )
    return 0n;
  if (!isRate(t.unitPrice) || !isRate(t.rateMin) || !isRate(t.rateMax)) return 0n;
  if (!isNatural(t.feeBp, 10_000) || !isNatural(t.days, MAX_PRODUCT_DAYS) || !isNatural(t.aprBp, MAX_APR_BP))
    return 0n;
  const unitMinor = kind === 'miner' ? 1n : 10n ** BigInt(currency.scale);
  switch (kind) {
    case 'ico':
      if (t.currencyId === t.payCurrencyId || t.unitPrice === 0n) return 0n;
      if (t.feeBp !== 0 || t.days !== 0 || t.aprBp !== 0 || t.rateKind !== null || t.earlyExit !== null)
        return 0n;
      if (t.rateMin !== 0n || t.rateMax !== 0n) return 0n;
      if (t.unitPrice * t.totalUnits > MAX_AMOUNT) return 0n;
      break;
    case 'miner':
      if (t.unitPrice === 0n || t.days === 0 || t.aprBp !== 0 || t.earlyExit !== null) return 0n;
      if (t.rateKind !== 'fixed' && t.rateKind !== 'recorded') return 0n;
      if (t.rateMax === 0n || t.rateMin > t.rateMax || (t.rateKind === 'fixed' && t.rateMin !== t.rateMax))
        return 0n;
      if (t.unitPrice * t.totalUnits * 2n > MAX_AMOUNT) return 0n;
      if (t.rateMax * t.totalUnits * BigInt(t.days) > MAX_AMOUNT) return 0n;
      break;
    case 'defi':
      if (t.payCurrencyId !== t.currencyId || t.unitPrice !== 0n || t.feeBp !== 0 || t.days === 0) return 0n;
      if (t.rateKind !== null || t.rateMin !== 0n || t.rateMax !== 0n) return 0n;
      if (t.earlyExit !== 'forfeit' && t.earlyExit !== 'none') return 0n;
      if (t.totalUnits * unitMinor * BigInt(Math.max(1, t.aprBp)) * BigInt(t.days) > MAX_AMOUNT) return 0n;
      break;
  }
  return unitMinor;
}

function copyTerms(t: ProductTerms): ProductTerms {
  return {
    startMs: t.startMs,
    endMs: t.endMs,
    currencyId: t.currencyId,
    payCurrencyId: t.payCurrencyId,
    totalUnits: t.totalUnits,
    unitPrice: t.unitPrice,
    feeBp: t.feeBp,
    days: t.days,
    rateKind: t.rateKind,
    rateMin: t.rateMin,
    rateMax: t.rateMax,
    aprBp: t.aprBp,
    earlyExit: t.earlyExit,
    perUserCap: t.perUserCap,
  };
}

function copyDetails(d: ProductDetails): ProductDetails {
  return {
    title: d.title,
    logo: d.logo,
    white: d.white,
    image: d.image,
    label: d.label,
    description: d.description,
  };
}

/** The house account a product's reserve and earned holds sit on (ico: the token; else the yield currency). */
export function houseAccountOf(ctx: { ledger: CommandContext['ledger'] }, product: Product): Account {
  return ctx.ledger.account(HOUSE_OWNER_KEY, product.houseWallet, product.terms.currencyId);
}

/**
 * Sets one of a product's house holds to `target`: a lower amount releases the difference; a higher one
 * releases what was held (reason productHoldResize) and holds the new amount (the ledger's holds have no
 * top-up). The caller has checked that the house has the difference available.
 */
function setProductHold(
  ctx: CommandContext,
  product: Product,
  which: 'reserveHold' | 'earnedHold',
  target: bigint,
  raiseReason: number,
  lowerReason: number,
): void {
  const hold = product[which];
  const current = hold?.amount ?? 0n;
  if (target === current) return;
  if (target < current) {
    ctx.ledger.release(hold as Hold, current - target, lowerReason);
    if (target === 0n) product[which] = null;
    return;
  }
  if (hold !== null && current > 0n) ctx.ledger.release(hold, current, Reason.productHoldResize);
  const owner = which === 'reserveHold' ? PRODUCT_RESERVE_HOLDS : PRODUCT_EARNED_HOLDS;
  const fresh = new Hold(owner, product.productId, houseAccountOf(ctx, product), target, raiseReason);
  ctx.ledger.hold(fresh);
  product[which] = fresh;
}

/** Whether the house can bring the reserve to `target` (it has the difference available). */
function houseCovers(ctx: CommandContext, product: Product, target: bigint): boolean {
  const current = product.reserveHold?.amount ?? 0n;
  if (target <= current) return true;
  const account = ctx.ledger.findAccount(HOUSE_OWNER_KEY, product.houseWallet, product.terms.currencyId);
  return account !== undefined && account.available >= target - current;
}

export function createProduct(
  ctx: CommandContext,
  state: ProductsState,
  command: CreateProductCommand,
): number {
  if (!isKind(command.kind)) return ResultCode.invalidField;
  if (!validDetails(command.details)) return ResultCode.invalidField;
  const unitMinor = checkTerms(ctx, command.kind, command.terms);
  if (unitMinor === 0n) return Code.productInvalidTerms;
  if (state.nextProductId > MAX_PRODUCT_ID) return Code.productInvalidTerms;
  const productId = state.nextProductId++;
  const terms = copyTerms(command.terms);
  const details = copyDetails(command.details);
  state.products.set(productId, {
    productId,
    kind: command.kind,
    createdMs: ctx.timeMs,
    status: 'draft',
    terms,
    details,
    sold: 0n,
    unitMinor,
    houseWallet: WALLET_OF_KIND[command.kind],
    reserveHold: null,
    earnedHold: null,
    unaccruedPromised: 0n,
    nextAccrualDay: dayOf(ctx.timeMs),
    unfinished: 0,
    active: emptySums(),
    startsAt: new Map(),
    endsAt: new Map(),
    rates: new Map(),
    accruedDays: [],
    accruedCum: [],
    maturing: new Map(),
  });
  ctx.emit({
    type: 'productCreated',
    productId,
    kind: command.kind,
    terms: copyTerms(terms),
    details: copyDetails(details),
    timeMs: ctx.timeMs,
  });
  ctx.reply({ productId });
  return ResultCode.ok;
}

function productOf(state: ProductsState, productId: unknown, kind?: ProductKind): Product | undefined {
  if (!isCount(productId, MAX_PRODUCT_ID)) return undefined;
  const product = state.products.get(productId);
  return product === undefined || (kind !== undefined && product.kind !== kind) ? undefined : product;
}

export function editProduct(ctx: CommandContext, state: ProductsState, command: EditProductCommand): number {
  const product = productOf(state, command.productId);
  if (product === undefined) return Code.productNotFound;
  if (!validDetails(command.details)) return ResultCode.invalidField;
  if (checkTerms(ctx, product.kind, command.terms) === 0n) return Code.productInvalidTerms;
  const next = command.terms;
  const terms = product.terms;
  if (next.currencyId !== terms.currencyId || next.payCurrencyId !== terms.payCurrencyId)
    return Code.productInvalidTerms;
  if (next.totalUnits < product.sold) return Code.productInvalidTerms;
  if (next.perUserCap !== null && next.perUserCap < 1n) return Code.productInvalidTerms;
  if (
    product.kind === 'miner' &&
    product.unfinished > 0 &&
    (next.rateKind !== terms.rateKind ||
      (terms.rateKind === 'recorded' && (next.rateMin !== terms.rateMin || next.rateMax !== terms.rateMax)))
  )
    return Code.productTermsLocked;
  const nextTerms = copyTerms(next);
  const target = requiredReserve({ ...product, terms: nextTerms });
  if (!houseCovers(ctx, product, target)) return Code.productHouseShort;
  product.terms = nextTerms;
  product.details = copyDetails(command.details);
  setProductHold(
    ctx,
    product,
    'reserveHold',
    target,
    Reason.productReserveHold,
    Reason.productReserveRelease,
  );
  ctx.emit({
    type: 'productEdited',
    productId: product.productId,
    kind: product.kind,
    terms: copyTerms(nextTerms),
    details: copyDetails(product.details),
    reserve: product.reserveHold?.amount ?? 0n,
  });
  return ResultCode.ok;
}

function statusChanged(ctx: CommandContext, product: Product, status: 'open' | 'closed'): number {
  ctx.emit({
    type: 'productStatusChanged',
    productId: product.productId,
    kind: product.kind,
    status,
    reserve: product.reserveHold?.amount ?? 0n,
    timeMs: ctx.timeMs,
  });
  return ResultCode.ok;
}

/** Opens a draft or closed product once the house account holds what it will promise. */
export function openProduct(ctx: CommandContext, state: ProductsState, command: OpenProductCommand): number {
  const product = productOf(state, command.productId);
  if (product === undefined) return Code.productNotFound;
  if (product.status === 'open') return Code.productWrongState;
  const target = requiredReserve({ ...product, status: 'open' });
  if (!houseCovers(ctx, product, target)) return Code.productHouseShort;
  product.status = 'open';
  setProductHold(
    ctx,
    product,
    'reserveHold',
    target,
    Reason.productReserveHold,
    Reason.productReserveRelease,
  );
  return statusChanged(ctx, product, 'open');
}

/** Stops sales: the reserve keeps only the holdings' promises. */
export function closeProduct(
  ctx: CommandContext,
  state: ProductsState,
  command: CloseProductCommand,
): number {
  const product = productOf(state, command.productId);
  if (product === undefined) return Code.productNotFound;
  if (product.status !== 'open') return Code.productWrongState;
  product.status = 'closed';
  setProductHold(
    ctx,
    product,
    'reserveHold',
    requiredReserve(product),
    Reason.productReserveHold,
    Reason.productReserveRelease,
  );
  return statusChanged(ctx, product, 'closed');
}

export function recordMinerRate(
  ctx: CommandContext,
  state: ProductsState,
  command: RecordMinerRateCommand,
): number {
  const product = productOf(state, command.productId, 'miner');
  if (product === undefined) return Code.productNotFound;
  const { day, perUnit } = command;
  if (!isNatural(day, 10_000_000)) return ResultCode.invalidField;
  if (product.terms.rateKind !== 'recorded') return Code.productRateTooLate;
  const today = dayOf(ctx.timeMs);
  if (day <= today || day < product.nextAccrualDay) return Code.productRateTooLate;
  if (day > today + MAX_RATE_DAYS_AHEAD) return ResultCode.invalidField;
  if (!isRate(perUnit) || perUnit < product.terms.rateMin || perUnit > product.terms.rateMax)
    return Code.productRateOutOfRange;
  product.rates.set(day, perUnit);
  ctx.emit({ type: 'minerRateRecorded', productId: product.productId, day, perUnit, timeMs: ctx.timeMs });
  return ResultCode.ok;
}

/** Common checks of a purchase: the product sells now, the quantity fits its total and the user's cap. */
function checkPurchase(
  ctx: CommandContext,
  state: ProductsState,
  kind: ProductKind,
  command: { userId: number; productId: number; quantity: number },
): { product: Product; userId: number; units: bigint } | number {
  const userId = ownerKeyOf(command.userId);
  if (userId <= 0) return ResultCode.invalidOwner;
  const product = productOf(state, command.productId, kind);
  if (product === undefined) return Code.productNotFound;
  if (!isCount(command.quantity, MAX_PRODUCT_UNITS)) return Code.productInvalidQuantity;
  const { terms } = product;
  if (product.status !== 'open' || ctx.timeMs < terms.startMs || ctx.timeMs >= terms.endMs)
    return Code.productNotSelling;
  const units = BigInt(command.quantity);
  if (product.sold + units > terms.totalUnits) return Code.productSoldOut;
  if (terms.perUserCap !== null) {
    const bought = state.bought.get(userKey(product.productId, userId))?.units ?? 0n;
    if (bought + units > terms.perUserCap) return Code.productUserCapReached;
  }
  return { product, userId, units };
}

function recordBought(
  state: ProductsState,
  product: Product,
  userId: number,
  units: bigint,
  paid: bigint,
): void {
  const key = userKey(product.productId, userId);
  const entry = state.bought.get(key);
  if (entry === undefined) state.bought.set(key, { units, paid });
  else {
    entry.units += units;
    entry.paid += paid;
  }
  product.sold += units;
}

/** Token sale: quantity x price from the user's ico wallet; the tokens from the sale's reserve to the user. */
export function buyIco(ctx: CommandContext, state: ProductsState, command: BuyIcoCommand): number {
  const checked = checkPurchase(ctx, state, 'ico', command);
  if (typeof checked === 'number') return checked;
  const { product, userId, units } = checked;
  const { terms } = product;
  const cost = icoCost({ quantity: units, price: terms.unitPrice });
  const ledger = ctx.ledger;
  const payer = ledger.findAccount(userId, product.houseWallet, terms.payCurrencyId);
  if (payer === undefined || payer.available < cost) return ResultCode.insufficientFunds;
  const tokens = units * product.unitMinor;
  const holdingId = state.nextHoldingId++;
  ledger.transfer(
    payer,
    ledger.account(HOUSE_OWNER_KEY, product.houseWallet, terms.payCurrencyId),
    cost,
    Reason.productIcoPayment,
    holdingId,
  );
  const reserve = product.reserveHold as Hold;
  ledger.post(
    reserve,
    ledger.account(userId, product.houseWallet, terms.currencyId),
    tokens,
    Reason.productIcoTokens,
    holdingId,
  );
  if (reserve.amount === 0n) product.reserveHold = null;
  recordBought(state, product, userId, units, cost);
  return bought(ctx, product, userId, holdingId, units, cost, 0n, 0n, 0n, 0, 0);
}

function bought(
  ctx: CommandContext,
  product: Product,
  userId: number,
  holdingId: number,
  units: bigint,
  paid: bigint,
  fee: bigint,
  principal: bigint,
  daily: bigint,
  startDay: number,
  days: number,
): number {
  ctx.emit({
    type: 'productBought',
    holdingId,
    productId: product.productId,
    kind: product.kind,
    userId,
    units,
    paid,
    fee,
    principal,
    daily,
    startDay,
    days,
    timeMs: ctx.timeMs,
  });
  ctx.reply({
    holdingId,
    units,
    paid,
    fee,
    principal,
    daily,
    startDay,
    endDay: days === 0 ? startDay : startDay + days - 1,
  });
  return ResultCode.ok;
}

/** Adds a new holding to the product's accrual schedule (it starts the day after the purchase). */
function schedule(state: ProductsState, product: Product, holding: Holding): void {
  state.addHolding(holding);
  // With nothing running, the days before the new holding's first have nothing to credit: skip them (and
  // any rate recorded for them, which no holding will ever be paid on).
  if (product.unfinished === 0 && product.nextAccrualDay < holding.startDay) {
    product.nextAccrualDay = holding.startDay;
    for (const day of [...product.rates.keys()]) if (day < holding.startDay) product.rates.delete(day);
  }
  product.unfinished += 1;
  product.unaccruedPromised += holding.promisePerDay * BigInt(holding.days);
  addSums(product.startsAt, holding.startDay, holding, 1);
  addSums(product.endsAt, lastDayOf(holding), holding, 1);
  if (holding.kind === 'defi') {
    const last = lastDayOf(holding);
    let set = product.maturing.get(last);
    if (set === undefined) product.maturing.set(last, (set = new Set()));
    set.add(holding);
  }
}

/** Miner: rent + fee from the user's miner wallet; the house's reserve now backs this rent's promise. */
export function buyMiner(ctx: CommandContext, state: ProductsState, command: BuyMinerCommand): number {
  const checked = checkPurchase(ctx, state, 'miner', command);
  if (typeof checked === 'number') return checked;
  const { product, userId, units } = checked;
  const { terms } = product;
  const { rent, fee, paid } = minerCost({ quantity: units, price: terms.unitPrice, feeBp: terms.feeBp });
  const ledger = ctx.ledger;
  const payer = ledger.findAccount(userId, product.houseWallet, terms.payCurrencyId);
  if (payer === undefined || payer.available < paid) return ResultCode.insufficientFunds;
  const holdingId = state.nextHoldingId++;
  ledger.transfer(
    payer,
    ledger.account(HOUSE_OWNER_KEY, product.houseWallet, terms.payCurrencyId),
    rent,
    Reason.productMinerRent,
    holdingId,
  );
  if (fee > 0n)
    ledger.transfer(
      payer,
      ledger.account(FEES_OWNER_KEY, product.houseWallet, terms.payCurrencyId),
      fee,
      Reason.productMinerFee,
      holdingId,
    );
  const recorded = terms.rateKind === 'recorded';
  const daily = recorded ? 0n : units * terms.rateMin;
  const holding: Holding = {
    holdingId,
    productId: product.productId,
    kind: 'miner',
    userId,
    units,
    principal: 0n,
    paid: rent,
    fee,
    daily,
    promisePerDay: units * minerPromisePerUnit(terms),
    recorded,
    startDay: dayOf(ctx.timeMs) + 1,
    days: terms.days,
    createdMs: ctx.timeMs,
    earlyExit: null,
    extracted: 0n,
    principalHold: null,
  };
  recordBought(state, product, userId, units, rent);
  schedule(state, product, holding);
  return bought(ctx, product, userId, holdingId, units, rent, fee, 0n, daily, holding.startDay, holding.days);
}

/** Defi: the principal is held on the user's defi wallet; the reserve keeps exactly what it must promise. */
export function stakeDefi(ctx: CommandContext, state: ProductsState, command: StakeDefiCommand): number {
  const checked = checkPurchase(ctx, state, 'defi', command);
  if (typeof checked === 'number') return checked;
  const { product, userId, units } = checked;
  const { terms } = product;
  const principal = units * product.unitMinor;
  const ledger = ctx.ledger;
  const staker = ledger.findAccount(userId, product.houseWallet, terms.currencyId);
  if (staker === undefined || staker.available < principal) return ResultCode.insufficientFunds;
  const holdingId = state.nextHoldingId++;
  const principalHold = new Hold(PRODUCT_STAKE_HOLDS, holdingId, staker, principal, Reason.productStake);
  ledger.hold(principalHold);
  const daily = defiDaily({ principal, aprBp: terms.aprBp });
  const holding: Holding = {
    holdingId,
    productId: product.productId,
    kind: 'defi',
    userId,
    units,
    principal,
    paid: 0n,
    fee: 0n,
    daily,
    promisePerDay: daily,
    recorded: false,
    startDay: dayOf(ctx.timeMs) + 1,
    days: terms.days,
    createdMs: ctx.timeMs,
    earlyExit: terms.earlyExit,
    extracted: 0n,
    principalHold,
  };
  recordBought(state, product, userId, units, principal);
  schedule(state, product, holding);
  // Rounding down per stake leaves the unsold promise at least the sum of the stakes' promises: the rest
  // returns to the house.
  setProductHold(
    ctx,
    product,
    'reserveHold',
    requiredReserve(product),
    Reason.productReserveHold,
    Reason.productReserveRelease,
  );
  return bought(
    ctx,
    product,
    userId,
    holdingId,
    units,
    0n,
    0n,
    principal,
    daily,
    holding.startDay,
    holding.days,
  );
}

/**
 * Credits `day` (the product's next day, ended) to every holding running that day: the day's promise leaves
 * the reserve, and the day's earnings are held for the holders; a recorded rate below the maximum returns the
 * rest to the house. A holding's credited days are the product's days from its start, so each (holding, day)
 * is credited exactly once.
 */
export function accrueProductDay(
  ctx: CommandContext,
  state: ProductsState,
  command: AccrueProductDayCommand,
): number {
  const product = productOf(state, command.productId);
  if (product === undefined || product.kind === 'ico') return Code.productNotFound;
  const { day } = command;
  if (!isNatural(day, 10_000_000)) return ResultCode.invalidField;
  if (product.unfinished === 0) return Code.productNothingDue;
  if (day !== product.nextAccrualDay || (day + 1) * DAY_MS > ctx.timeMs) return Code.productDayNotDue;
  const starting = product.startsAt.get(day);
  if (starting !== undefined) {
    mergeSums(product.active, starting, 1);
    product.startsAt.delete(day);
  }
  const active = product.active;
  let perUnit: bigint | null = null;
  let earnings = active.daily;
  if (product.kind === 'miner') {
    if (product.terms.rateKind === 'recorded') {
      perUnit = product.rates.get(day) ?? product.terms.rateMin;
      product.rates.delete(day);
      earnings = active.units * perUnit;
      const previous = product.accruedCum.length === 0 ? 0n : (product.accruedCum.at(-1) as bigint);
      product.accruedDays.push(day);
      product.accruedCum.push(previous + perUnit);
    } else perUnit = product.terms.rateMin;
  }
  const promise = active.promise;
  const holdings = active.count;
  if (promise > 0n) ctx.ledger.release(product.reserveHold as Hold, promise, Reason.productAccrualRelease);
  if (product.reserveHold !== null && product.reserveHold.amount === 0n) product.reserveHold = null;
  if (earnings > 0n)
    setProductHold(
      ctx,
      product,
      'earnedHold',
      (product.earnedHold?.amount ?? 0n) + earnings,
      Reason.productAccrued,
      Reason.productAccrued,
    );
  product.unaccruedPromised -= promise;
  product.nextAccrualDay = day + 1;
  const ending = product.endsAt.get(day);
  if (ending !== undefined) {
    mergeSums(product.active, ending, -1);
    product.unfinished -= ending.count;
    product.endsAt.delete(day);
  }
  const released = promise - earnings;
  ctx.emit({
    type: 'productDayAccrued',
    productId: product.productId,
    day,
    holdings,
    earnings,
    perUnit,
    released,
    timeMs: ctx.timeMs,
  });
  ctx.reply({ holdings, amount: earnings, released });
  return ResultCode.ok;
}

function holdingOf(
  state: ProductsState,
  userId: number,
  holdingId: unknown,
  kind: 'miner' | 'defi',
): Holding | undefined {
  if (!isCount(holdingId, Number.MAX_SAFE_INTEGER)) return undefined;
  const holding = state.holdings.get(holdingId);
  return holding === undefined || holding.userId !== userId || holding.kind !== kind ? undefined : holding;
}

/** Miner: part of a rent's extractable earnings into the user's miner wallet. */
export function extractMinerEarnings(
  ctx: CommandContext,
  state: ProductsState,
  command: ExtractMinerEarningsCommand,
): number {
  const userId = ownerKeyOf(command.userId);
  if (userId <= 0) return ResultCode.invalidOwner;
  const holding = holdingOf(state, userId, command.holdingId, 'miner');
  if (holding === undefined) return Code.productHoldingNotFound;
  if (!isAmount(command.amount)) return ResultCode.invalidAmount;
  const product = state.products.get(holding.productId) as Product;
  const extractable = accruedOf(product, holding) - holding.extracted;
  if (command.amount > extractable) return Code.productNothingToExtract;
  const earned = product.earnedHold as Hold;
  ctx.ledger.post(
    earned,
    ctx.ledger.account(userId, product.houseWallet, product.terms.currencyId),
    command.amount,
    Reason.productExtract,
    holding.holdingId,
  );
  if (earned.amount === 0n) product.earnedHold = null;
  holding.extracted += command.amount;
  ctx.emit({
    type: 'minerEarningsExtracted',
    holdingId: holding.holdingId,
    productId: product.productId,
    userId,
    amount: command.amount,
    timeMs: ctx.timeMs,
  });
  ctx.reply({ amount: command.amount, extractable: extractable - command.amount });
  return ResultCode.ok;
}

/** Ends a stake: principal released, earnings paid (matured) or forfeited to the house (exited early). */
function endStake(
  ctx: CommandContext,
  state: ProductsState,
  product: Product,
  holding: Holding,
  how: 'matured' | 'exited',
): bigint {
  const ledger = ctx.ledger;
  const accrued = accruedOf(product, holding);
  ledger.release(holding.principalHold as Hold, holding.principal, Reason.productPrincipalReturn);
  holding.principalHold = null;
  const earned = product.earnedHold;
  if (accrued > 0n) {
    if (how === 'matured')
      ledger.post(
        earned as Hold,
        ledger.account(holding.userId, product.houseWallet, product.terms.currencyId),
        accrued,
        Reason.productEarningsPaid,
        holding.holdingId,
      );
    else ledger.release(earned as Hold, accrued, Reason.productForfeit);
    if ((earned as Hold).amount === 0n) product.earnedHold = null;
  }
  const set = product.maturing.get(lastDayOf(holding));
  if (set !== undefined) {
    set.delete(holding);
    if (set.size === 0) product.maturing.delete(lastDayOf(holding));
  }
  state.removeHolding(holding);
  ctx.emit({
    type: 'defiStakeEnded',
    holdingId: holding.holdingId,
    productId: product.productId,
    userId: holding.userId,
    how,
    principal: holding.principal,
    earnings: how === 'matured' ? accrued : 0n,
    forfeited: how === 'exited' ? accrued : 0n,
    timeMs: ctx.timeMs,
  });
  return accrued;
}

/** Defi: pays out up to `limit` stakes whose last day has been accrued, oldest last day first. */
export function matureProductHoldings(
  ctx: CommandContext,
  state: ProductsState,
  command: MatureProductHoldingsCommand,
): number {
  const product = productOf(state, command.productId, 'defi');
  if (product === undefined) return Code.productNotFound;
  if (!isCount(command.limit, MAX_MATURE_BATCH)) return ResultCode.invalidField;
  const lastAccrued = product.nextAccrualDay - 1;
  const due = [...product.maturing.keys()].filter((day) => day <= lastAccrued).sort((a, b) => a - b);
  if (due.length === 0) return Code.productNothingDue;
  let matured = 0;
  for (const day of due) {
    const set = product.maturing.get(day) as Set<Holding>;
    const holdings = [...set].sort((a, b) => a.holdingId - b.holdingId);
    for (const holding of holdings) {
      if (matured === command.limit) break;
      endStake(ctx, state, product, holding, 'matured');
      matured += 1;
    }
    if (matured === command.limit) break;
  }
  let remaining = 0;
  for (const [day, set] of product.maturing) if (day <= lastAccrued) remaining += set.size;
  ctx.reply({ matured, remaining });
  return ResultCode.ok;
}

/** Defi: leaves a running stake early where its policy allows: principal back, accrued earnings forfeited. */
export function exitDefiStake(
  ctx: CommandContext,
  state: ProductsState,
  command: ExitDefiStakeCommand,
): number {
  const userId = ownerKeyOf(command.userId);
  if (userId <= 0) return ResultCode.invalidOwner;
  const holding = holdingOf(state, userId, command.holdingId, 'defi');
  if (holding === undefined) return Code.productHoldingNotFound;
  const product = state.products.get(holding.productId) as Product;
  const credited = daysAccrued(product, holding);
  if (holding.earlyExit !== 'forfeit' || credited >= holding.days) return Code.productExitNotAllowed;
  // Take the stake off the accrual schedule and release its promise for the days it will not run.
  const unaccrued = unaccruedOf(product, holding);
  if (credited > 0) applySums(product.active, holding, -1);
  else addSums(product.startsAt, holding.startDay, holding, -1);
  addSums(product.endsAt, lastDayOf(holding), holding, -1);
  product.unfinished -= 1;
  product.unaccruedPromised -= unaccrued;
  const forfeited = endStake(ctx, state, product, holding, 'exited');
  if (unaccrued > 0n)
    setProductHold(
      ctx,
      product,
      'reserveHold',
      (product.reserveHold?.amount ?? 0n) - unaccrued,
      Reason.productReserveHold,
      Reason.productReserveRelease,
    );
  ctx.reply({ returned: holding.principal, forfeited });
  return ResultCode.ok;
}
