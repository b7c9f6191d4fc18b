// Command handlers and the price hook of the lever area. Money moves only through the ledger: margins are
// holds on the user's lever wallet (owner `lever`, ref: the record id), a limit entry's fee a second hold
// (`lever.fee`); the house's, the fees account's and the insurance fund's lever wallets are the
// counterparties. Formulas and rounding: calc/lever.ts.
import {
  leverAtOrBelowThreshold,
  leverContractValue,
  leverEntryTicks,
  leverFee,
  leverLiquidationTicks,
  leverMargin,
  leverProfit,
  leverRiskRateBp,
} from '../calc/lever.ts';
import type { CommandContext } from '../kernel/context.ts';
import { FEES_OWNER_KEY, HOUSE_OWNER_KEY, ownerKeyOf } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { LEVER_PAIRS } from './expected.ts';
import { MAX_MARKET_ID, MAX_PRICE_TICKS, MAX_QUANTITY_LOTS } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount, isNatural } from '../validate.ts';
import { LeverReasonCode, LeverResultCode } from './codes.ts';
import type {
  ChargeLeverOvernightCommand,
  CloseLeverPositionCommand,
  CloseLeverPositionsCommand,
  LeverCloseReply,
  LeverSide,
  OpenLeverPositionCommand,
  RevokeLeverEntryCommand,
  SetLeverPairCommand,
  SetLeverStopsCommand,
  SubmitLeverEntryCommand,
} from './commands.ts';
import type { LeverCloseReason, LeverRecordFields } from './events.ts';
import type { Trigger } from './heap.ts';
import { armEntryTrigger } from './triggers.ts';
import { DAY_MS, LEVER_MAX_MARK_AGE_MS, LEVER_WALLET_INDEX, bookKey } from './state.ts';
import type { LeverBook, LeverPair, LeverRecord, LeverState } from './state.ts';

/** Hold owner names: a record's margin, a limit entry's fee. */
export const LEVER_MARGIN_HOLDS = 'lever';
export const LEVER_FEE_HOLDS = 'lever.fee';
export const INSURANCE_OWNER_KEY = ownerKeyOf('insurance');

export const MAX_LEVER_MULTIPLE = 1_000;
export const MAX_LEVER_MULTIPLES = 32;
export const MAX_LOTS_PER_SHARE = 1_000_000;
export const MAX_LEVER_SHARE = 1_000_000_000;
/** Spreads up to 50 %, fees and overnight rates up to 10 % (ppm). */
export const MAX_LEVER_SPREAD_PPM = 500_000;
export const MAX_LEVER_RATE_PPM = 100_000;
/** Thresholds below 100 % (bp): a transfer out keeps the risk rate at 100 % or more, above any threshold. */
export const MAX_LEVER_THRESHOLD_BP = 9_999;
export const MAX_LEVER_DAY = 10_000_000;

export function leverAccount(ledger: Ledger, ownerKey: number, currencyId: number): Account {
  return ledger.account(ownerKey, LEVER_WALLET_INDEX, currencyId);
}

function balanceOf(ledger: Ledger, ownerKey: number, currencyId: number): bigint {
  return ledger.findAccount(ownerKey, LEVER_WALLET_INDEX, currencyId)?.available ?? 0n;
}

function minOf(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function markOrThrow(state: LeverState, marketId: number): number {
  const mark = state.markOf(marketId);
  if (mark === undefined) throw new Error(`lever pair ${marketId} has a holding but no mark`);
  return mark;
}

// ---- the book: equity, risk, triggers ----------------------------------------------------------------------

/** The sum of the book's profits at the current marks. */
export function bookProfit(state: LeverState, book: LeverBook): bigint {
  let profit = 0n;
  for (const market of book.markets.values())
    profit +=
      BigInt(market.netLots) * market.quoteMinorPerTickLot * BigInt(markOrThrow(state, market.marketId)) -
      market.signedEntryValue;
  return profit;
}

/** balance + margins + profits: the risk rate's numerator. */
export function bookEquity(state: LeverState, book: LeverBook): bigint {
  return balanceOf(state.ledger, book.userId, book.currencyId) + book.margin + bookProfit(state, book);
}

export function bookAtOrBelowThreshold(state: LeverState, book: LeverBook): boolean {
  return (
    book.holdings.size > 0 &&
    leverAtOrBelowThreshold({
      equity: bookEquity(state, book),
      originMargin: book.originMargin,
      thresholdBp: book.thresholdBp,
    })
  );
}

/** The book's liquidation price in one of its pairs, the other marks held fixed (null: this mark cannot). */
export function bookLiquidationTicks(state: LeverState, book: LeverBook, marketId: number): number | null {
  const market = book.markets.get(marketId);
  if (market === undefined || market.netLots === 0) return null;
  const own = BigInt(market.netLots) * market.quoteMinorPerTickLot * BigInt(markOrThrow(state, marketId));
  return leverLiquidationTicks({
    netLots: market.netLots,
    quoteMinorPerTickLot: market.quoteMinorPerTickLot,
    restEquity: bookEquity(state, book) - own,
    originMargin: book.originMargin,
    thresholdBp: book.thresholdBp,
  });
}

/**
 * Re-computes the book's liquidation triggers: one per pair with a net, at the exact price where the risk
 * rate reaches the threshold with the other pairs' marks as they are now. A book with a net in two or more
 * pairs joins those pairs' cross-book sets, so a move of any of its marks re-computes the others.
 */
export function indexBook(state: LeverState, book: LeverBook): void {
  state.dirty.delete(book);
  const netMarkets: number[] = [];
  for (const market of book.markets.values()) {
    state.killLiquidationTrigger(market);
    const ticks = bookLiquidationTicks(state, book, market.marketId);
    if (ticks === null) continue;
    market.liquidationTrigger = state.addTrigger(
      market.marketId,
      'liquidation',
      ticks,
      market.netLots > 0,
      book,
    );
    netMarkets.push(market.marketId);
  }
  state.setCross(book, netMarkets.length >= 2 ? netMarkets.sort((a, b) => a - b) : []);
}

/** Liquidates the book when it is at or below its threshold now, otherwise re-indexes it. */
function refreshBook(ctx: CommandContext, state: LeverState, book: LeverBook, marketId: number): void {
  if (state.books.get(book.key) !== book) return;
  if (bookAtOrBelowThreshold(state, book)) liquidate(ctx, state, book, marketId);
  else indexBook(state, book);
}

function refreshBooks(
  ctx: CommandContext,
  state: LeverState,
  books: Iterable<LeverBook>,
  marketId: number,
): void {
  for (const book of [...books].sort((a, b) => a.key - b.key)) refreshBook(ctx, state, book, marketId);
}

/** A long's take-profit fires at or above its price and its stop-loss at or below; a short's the reverse. */
export function armStops(state: LeverState, record: LeverRecord): void {
  state.killTrigger(record.marketId, record.takeProfitTrigger);
  state.killTrigger(record.marketId, record.stopLossTrigger);
  record.takeProfitTrigger = null;
  record.stopLossTrigger = null;
  const long = record.side === 1;
  if (record.takeProfitTicks > 0)
    record.takeProfitTrigger = state.addTrigger(
      record.marketId,
      'stop',
      record.takeProfitTicks,
      !long,
      record,
    );
  if (record.stopLossTicks > 0)
    record.stopLossTrigger = state.addTrigger(record.marketId, 'stop', record.stopLossTicks, long, record);
}

// ---- configuration -------------------------------------------------------------------------------------------

export function setLeverPair(ctx: CommandContext, state: LeverState, command: SetLeverPairCommand): number {
  const { marketId } = command;
  if (!isCount(marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  const market = ctx.port(LEVER_PAIRS).market(marketId);
  if (market === undefined) return ResultCode.marketNotFound;
  if (typeof command.enabled !== 'boolean') return ResultCode.invalidField;
  if (!isCount(command.lotsPerShare, MAX_LOTS_PER_SHARE)) return ResultCode.invalidField;
  const multiples: unknown = command.multiples;
  if (!Array.isArray(multiples) || multiples.length === 0 || multiples.length > MAX_LEVER_MULTIPLES)
    return ResultCode.invalidField;
  const seen = new Set<number>();
  for (const multiple of multiples as unknown[]) {
    if (!isCount(multiple, MAX_LEVER_MULTIPLE) || seen.has(multiple)) return ResultCode.invalidField;
    seen.add(multiple);
  }
  if (!isCount(command.minShare, MAX_LEVER_SHARE) || !isNatural(command.maxShare, MAX_LEVER_SHARE))
    return ResultCode.invalidField;
  if (command.maxShare > 0 && command.maxShare < command.minShare) return ResultCode.invalidField;
  if (!isNatural(command.spreadPpm, MAX_LEVER_SPREAD_PPM)) return ResultCode.invalidField;
  if (!isNatural(command.feePpm, MAX_LEVER_RATE_PPM) || !isNatural(command.overnightPpm, MAX_LEVER_RATE_PPM))
    return ResultCode.invalidField;
  if (!isCount(command.liquidationThresholdBp, MAX_LEVER_THRESHOLD_BP)) return ResultCode.invalidField;
  if (!isNatural(command.liquidationFeePpm, MAX_LEVER_RATE_PPM)) return ResultCode.invalidField;
  if (!isNatural(command.exposureLimitLots, MAX_QUANTITY_LOTS)) return ResultCode.invalidField;
  const rules = {
    enabled: command.enabled,
    lotsPerShare: command.lotsPerShare,
    multiples: [...command.multiples].sort((a, b) => a - b),
    minShare: command.minShare,
    maxShare: command.maxShare,
    spreadPpm: command.spreadPpm,
    feePpm: command.feePpm,
    overnightPpm: command.overnightPpm,
    liquidationThresholdBp: command.liquidationThresholdBp,
    liquidationFeePpm: command.liquidationFeePpm,
    exposureLimitLots: command.exposureLimitLots,
  };
  const pair = state.pairs.get(marketId);
  if (pair === undefined)
    state.pairs.set(marketId, {
      marketId,
      quoteCurrencyId: market.quoteCurrencyId,
      quoteMinorPerTickLot: market.quoteMinorPerTickLot,
      ...rules,
      longLots: 0,
      shortLots: 0,
    });
  else Object.assign(pair, rules);
  ctx.emit({ type: 'leverPairConfigured', marketId, enabled: command.enabled });
  return ResultCode.ok;
}

// ---- orders -------------------------------------------------------------------------------------------------

type CheckedOrder = { userId: number; pair: LeverPair; side: LeverSide; markTicks: number };

function checkOrder(
  state: LeverState,
  command: OpenLeverPositionCommand | SubmitLeverEntryCommand,
): CheckedOrder | number {
  const userId = ownerKeyOf(command.userId);
  if (userId <= 0) return ResultCode.invalidOwner;
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  const pair = state.pairs.get(command.marketId);
  if (pair === undefined || !pair.enabled) return LeverResultCode.leverPairNotOpen;
  const side = command.side;
  if (side !== 1 && side !== 2) return ResultCode.invalidSide;
  if (!isCount(command.share, MAX_LEVER_SHARE)) return ResultCode.invalidField;
  if (command.share < pair.minShare || (pair.maxShare > 0 && command.share > pair.maxShare))
    return LeverResultCode.leverShareOutOfRange;
  if (!isCount(command.multiple, MAX_LEVER_MULTIPLE) || !pair.multiples.includes(command.multiple))
    return LeverResultCode.leverMultipleNotOffered;
  const markTicks = state.markOf(pair.marketId);
  if (markTicks === undefined || !state.market.isMarkFresh(pair.marketId, LEVER_MAX_MARK_AGE_MS))
    return LeverResultCode.leverNoMark;
  return { userId, pair, side, markTicks };
}

/** Whether adding `lots` on `side` keeps the house's net exposure within the limit (or reduces it). */
export function withinExposure(pair: LeverPair, side: LeverSide, lots: number): boolean {
  const net = pair.longLots - pair.shortLots;
  const after = side === 1 ? net + lots : net - lots;
  return Math.abs(after) <= pair.exposureLimitLots || Math.abs(after) <= Math.abs(net);
}

function rulesOf(pair: LeverPair): LeverRecord['rules'] {
  return {
    lotsPerShare: pair.lotsPerShare,
    spreadPpm: pair.spreadPpm,
    feePpm: pair.feePpm,
    overnightPpm: pair.overnightPpm,
    liquidationThresholdBp: pair.liquidationThresholdBp,
    liquidationFeePpm: pair.liquidationFeePpm,
  };
}

function newRecord(
  ctx: CommandContext,
  state: LeverState,
  order: CheckedOrder,
  command: OpenLeverPositionCommand | SubmitLeverEntryCommand,
  entryTicks: number,
): LeverRecord {
  const { pair, side, userId } = order;
  const lots = command.share * pair.lotsPerShare;
  const contractValue = leverContractValue({
    priceTicks: entryTicks,
    lots,
    quoteMinorPerTickLot: pair.quoteMinorPerTickLot,
  });
  const margin = leverMargin({ contractValue, multiple: command.multiple });
  return {
    positionId: 0,
    userId,
    marketId: pair.marketId,
    quoteCurrencyId: pair.quoteCurrencyId,
    quoteMinorPerTickLot: pair.quoteMinorPerTickLot,
    status: 0,
    side,
    share: command.share,
    lots,
    multiple: command.multiple,
    entryTicks,
    contractValue,
    originMargin: margin,
    margin,
    fee: leverFee({ amount: contractValue, ratePpm: pair.feePpm }),
    overnightPaid: 0n,
    takeProfitTicks: 0,
    stopLossTicks: 0,
    placedMs: ctx.timeMs,
    openedMs: 0,
    lastChargedDay: 0,
    rules: rulesOf(pair),
    marginHold: null,
    feeHold: null,
    entryTrigger: null,
    takeProfitTrigger: null,
    stopLossTrigger: null,
  };
}

function recordFields(record: LeverRecord): LeverRecordFields {
  return {
    positionId: record.positionId,
    userId: record.userId,
    marketId: record.marketId,
    quoteCurrencyId: record.quoteCurrencyId,
    side: record.side,
    share: record.share,
    lots: record.lots,
    multiple: record.multiple,
    entryTicks: record.entryTicks,
    contractValue: record.contractValue,
    margin: record.originMargin,
    fee: record.fee,
    rules: { ...record.rules },
  };
}

/**
 * Opens a position at the mark plus/minus the spread. Refused, with nothing changed, when an input is
 * invalid, the pair is closed, the mark is missing or stale, the house's exposure limit would be passed,
 * the lever wallet cannot pay margin and fee, or the user's risk rate in the quote currency would be at or
 * below the threshold right after opening.
 */
export function openLeverPosition(
  ctx: CommandContext,
  state: LeverState,
  command: OpenLeverPositionCommand,
): number {
  const order = checkOrder(state, command);
  if (typeof order === 'number') return order;
  const { pair, side, userId, markTicks } = order;
  const entryTicks = leverEntryTicks({ markTicks, spreadPpm: pair.spreadPpm, side });
  if (entryTicks < 1 || entryTicks > MAX_PRICE_TICKS) return LeverResultCode.leverNoMark;
  const record = newRecord(ctx, state, order, command, entryTicks);
  if (!withinExposure(pair, side, record.lots)) return LeverResultCode.leverExposureLimit;
  const ledger = ctx.ledger;
  const user = ledger.findAccount(userId, LEVER_WALLET_INDEX, pair.quoteCurrencyId);
  if (user === undefined || user.available < record.margin + record.fee) return ResultCode.insufficientFunds;
  // The risk rate right after opening: the fee leaves, the margin moves from balance to margin, and the
  // new position starts at its spread's loss.
  const book = state.books.get(bookKey(userId, pair.quoteCurrencyId));
  const startProfit = leverProfit({
    side,
    entryTicks,
    markTicks,
    lots: record.lots,
    quoteMinorPerTickLot: pair.quoteMinorPerTickLot,
  });
  const equity = (book === undefined ? user.available : bookEquity(state, book)) - record.fee + startProfit;
  const originMargin = (book?.originMargin ?? 0n) + record.margin;
  const thresholdBp = Math.max(book?.thresholdBp ?? 0, pair.liquidationThresholdBp);
  if (leverAtOrBelowThreshold({ equity, originMargin, thresholdBp })) return LeverResultCode.leverRiskTooHigh;

  const positionId = state.ids.next();
  const opened: LeverRecord = {
    ...record,
    positionId,
    status: 1,
    openedMs: ctx.timeMs,
    lastChargedDay: Math.floor(ctx.timeMs / DAY_MS),
  };
  opened.marginHold = new Hold(
    LEVER_MARGIN_HOLDS,
    positionId,
    user,
    opened.margin,
    LeverReasonCode.leverMarginHold,
  );
  ledger.hold(opened.marginHold);
  if (opened.fee > 0n)
    ledger.transfer(
      user,
      leverAccount(ledger, FEES_OWNER_KEY, pair.quoteCurrencyId),
      opened.fee,
      LeverReasonCode.leverFee,
      positionId,
    );
  state.addRecord(opened);
  ctx.emit({
    type: 'leverPositionOpened',
    ...recordFields(opened),
    fromEntry: false,
    openedMs: opened.openedMs,
    markTicks,
  });
  refreshBook(ctx, state, state.book(userId, pair.quoteCurrencyId), pair.marketId);
  ctx.reply({
    positionId,
    status: 1,
    entryTicks,
    lots: opened.lots,
    margin: opened.margin,
    fee: opened.fee,
  });
  return ResultCode.ok;
}

/**
 * Places a limit entry: margin and fee, priced on the target, are held on the user's lever wallet. A long's
 * target must be below the mark, a short's above. The entry counts toward the house's exposure at once.
 */
export function submitLeverEntry(
  ctx: CommandContext,
  state: LeverState,
  command: SubmitLeverEntryCommand,
): number {
  const order = checkOrder(state, command);
  if (typeof order === 'number') return order;
  const { pair, side, userId, markTicks } = order;
  const targetTicks = command.targetTicks;
  if (!isCount(targetTicks, MAX_PRICE_TICKS)) return ResultCode.invalidField;
  if (side === 1 ? targetTicks >= markTicks : targetTicks <= markTicks)
    return LeverResultCode.leverTargetWrongSide;
  const record = newRecord(ctx, state, order, command, targetTicks);
  if (!withinExposure(pair, side, record.lots)) return LeverResultCode.leverExposureLimit;
  const ledger = ctx.ledger;
  const user = ledger.findAccount(userId, LEVER_WALLET_INDEX, pair.quoteCurrencyId);
  if (user === undefined || user.available < record.margin + record.fee) return ResultCode.insufficientFunds;
  // The held amounts leave the balance the user's holdings lean on.
  const book = state.books.get(bookKey(userId, pair.quoteCurrencyId));
  if (
    book !== undefined &&
    leverAtOrBelowThreshold({
      equity: bookEquity(state, book) - record.margin - record.fee,
      originMargin: book.originMargin,
      thresholdBp: book.thresholdBp,
    })
  )
    return LeverResultCode.leverRiskTooHigh;

  const positionId = state.ids.next();
  const entry: LeverRecord = { ...record, positionId };
  entry.marginHold = new Hold(
    LEVER_MARGIN_HOLDS,
    positionId,
    user,
    entry.margin,
    LeverReasonCode.leverMarginHold,
  );
  ledger.hold(entry.marginHold);
  if (entry.fee > 0n) {
    entry.feeHold = new Hold(LEVER_FEE_HOLDS, positionId, user, entry.fee, LeverReasonCode.leverEntryFeeHold);
    ledger.hold(entry.feeHold);
  }
  state.addRecord(entry);
  armEntryTrigger(state, entry);
  ctx.emit({ type: 'leverEntryPlaced', ...recordFields(entry), placedMs: ctx.timeMs, markTicks });
  refreshBook(ctx, state, state.book(userId, pair.quoteCurrencyId), pair.marketId);
  ctx.reply({
    positionId,
    status: 0,
    entryTicks: targetTicks,
    lots: entry.lots,
    margin: entry.margin,
    fee: entry.fee,
  });
  return ResultCode.ok;
}

function ownRecord(state: LeverState, userIdInput: unknown, positionId: unknown): LeverRecord | number {
  const userId = ownerKeyOf(userIdInput);
  if (userId <= 0) return ResultCode.invalidOwner;
  if (!isCount(positionId, Number.MAX_SAFE_INTEGER)) return ResultCode.invalidId;
  const record = state.records.get(positionId);
  if (record === undefined || record.userId !== userId) return LeverResultCode.leverPositionNotFound;
  return record;
}

/** Revokes a limit entry: margin and fee return to the user's lever wallet. */
export function revokeLeverEntry(
  ctx: CommandContext,
  state: LeverState,
  command: RevokeLeverEntryCommand,
): number {
  const record = ownRecord(state, command.userId, command.positionId);
  if (typeof record === 'number') return record;
  if (record.status !== 0) return LeverResultCode.leverWrongStatus;
  const ledger = ctx.ledger;
  if (record.marginHold !== null)
    ledger.release(record.marginHold, record.margin, LeverReasonCode.leverEntryRevoked);
  if (record.feeHold !== null) ledger.release(record.feeHold, record.fee, LeverReasonCode.leverEntryRevoked);
  record.marginHold = null;
  record.feeHold = null;
  const book = state.book(record.userId, record.quoteCurrencyId);
  state.removeRecord(record);
  ctx.emit({
    type: 'leverEntryRevoked',
    positionId: record.positionId,
    userId: record.userId,
    marketId: record.marketId,
    quoteCurrencyId: record.quoteCurrencyId,
    marginRefund: record.margin,
    feeRefund: record.fee,
  });
  refreshBook(ctx, state, book, record.marketId);
  ctx.reply({ positionId: record.positionId, marginRefund: record.margin, feeRefund: record.fee });
  return ResultCode.ok;
}

/** Sets a holding's stops: long take-profit above entry and mark, stop-loss below both; short the reverse. */
export function setLeverStops(ctx: CommandContext, state: LeverState, command: SetLeverStopsCommand): number {
  const record = ownRecord(state, command.userId, command.positionId);
  if (typeof record === 'number') return record;
  const { takeProfitTicks, stopLossTicks } = command;
  if (!isNatural(takeProfitTicks, MAX_PRICE_TICKS) || !isNatural(stopLossTicks, MAX_PRICE_TICKS))
    return ResultCode.invalidField;
  if (record.status !== 1) return LeverResultCode.leverWrongStatus;
  const mark = markOrThrow(state, record.marketId);
  const entry = record.entryTicks;
  if (record.side === 1) {
    if (takeProfitTicks > 0 && (takeProfitTicks <= entry || takeProfitTicks <= mark))
      return LeverResultCode.leverStopWrongSide;
    if (stopLossTicks > 0 && (stopLossTicks >= entry || stopLossTicks >= mark))
      return LeverResultCode.leverStopWrongSide;
  } else {
    if (takeProfitTicks > 0 && (takeProfitTicks >= entry || takeProfitTicks >= mark))
      return LeverResultCode.leverStopWrongSide;
    if (stopLossTicks > 0 && (stopLossTicks <= entry || stopLossTicks <= mark))
      return LeverResultCode.leverStopWrongSide;
  }
  record.takeProfitTicks = takeProfitTicks;
  record.stopLossTicks = stopLossTicks;
  armStops(state, record);
  ctx.emit({
    type: 'leverStopsSet',
    positionId: record.positionId,
    userId: record.userId,
    marketId: record.marketId,
    takeProfitTicks,
    stopLossTicks,
  });
  ctx.reply({ positionId: record.positionId, takeProfitTicks, stopLossTicks });
  return ResultCode.ok;
}

// ---- closing ------------------------------------------------------------------------------------------------

type Closed = LeverCloseReply & { shortfall: bigint };

/**
 * Closes a holding at `markTicks`. With a profit the margin returns and the house pays the profit (as far as
 * its lever wallet can; the rest is disclosed as `houseUnpaid`). With a loss the margin pays first, then the
 * user's lever balance, then the margins of the user's other holdings in the currency (cross margin), and
 * the insurance fund pays the house what is still missing; whatever is left is the house's loss.
 */
function closeRecord(
  ctx: CommandContext,
  state: LeverState,
  record: LeverRecord,
  markTicks: number,
  reason: LeverCloseReason,
): Closed {
  const ledger = ctx.ledger;
  const { positionId, userId, quoteCurrencyId } = record;
  const book = state.book(userId, quoteCurrencyId);
  state.removeRecord(record);
  const profit = leverProfit({
    side: record.side,
    entryTicks: record.entryTicks,
    markTicks,
    lots: record.lots,
    quoteMinorPerTickLot: record.quoteMinorPerTickLot,
  });
  const user = leverAccount(ledger, userId, quoteCurrencyId);
  const house = leverAccount(ledger, HOUSE_OWNER_KEY, quoteCurrencyId);
  const margin = record.margin;
  const hold = record.marginHold;
  let returned: bigint;
  let houseUnpaid = 0n;
  let lossFromMargin = 0n;
  let lossFromBalance = 0n;
  let lossFromOtherMargins = 0n;
  let shortfall = 0n;
  let uncovered = 0n;
  if (profit >= 0n) {
    if (hold !== null && margin > 0n) ledger.release(hold, margin, LeverReasonCode.leverMarginRelease);
    const paid = minOf(profit, house.available);
    if (paid > 0n) ledger.transfer(house, user, paid, LeverReasonCode.leverProfit, positionId);
    houseUnpaid = profit - paid;
    returned = margin + paid;
  } else {
    let remaining = -profit;
    lossFromMargin = minOf(margin, remaining);
    if (hold !== null && lossFromMargin > 0n)
      ledger.post(hold, house, lossFromMargin, LeverReasonCode.leverLoss, positionId);
    if (hold !== null && margin > lossFromMargin)
      ledger.release(hold, margin - lossFromMargin, LeverReasonCode.leverMarginRelease);
    returned = margin - lossFromMargin;
    remaining -= lossFromMargin;
    lossFromBalance = minOf(remaining, user.available);
    if (lossFromBalance > 0n)
      ledger.transfer(user, house, lossFromBalance, LeverReasonCode.leverLoss, positionId);
    remaining -= lossFromBalance;
    if (remaining > 0n) {
      for (const other of [...book.holdings.values()].sort((a, b) => a.positionId - b.positionId)) {
        if (remaining === 0n) break;
        const take = minOf(remaining, other.margin);
        if (take === 0n || other.marginHold === null) continue;
        ledger.post(other.marginHold, house, take, LeverReasonCode.leverLoss, positionId);
        other.margin -= take;
        book.margin -= take;
        if (other.margin === 0n) other.marginHold = null;
        remaining -= take;
        lossFromOtherMargins += take;
        ctx.emit({
          type: 'leverMarginUsed',
          positionId: other.positionId,
          userId,
          byPositionId: positionId,
          amount: take,
          margin: other.margin,
        });
      }
    }
    if (remaining > 0n) {
      const fund = leverAccount(ledger, INSURANCE_OWNER_KEY, quoteCurrencyId);
      shortfall = minOf(remaining, fund.available);
      if (shortfall > 0n) ledger.transfer(fund, house, shortfall, LeverReasonCode.leverShortfall, positionId);
      uncovered = remaining - shortfall;
    }
  }
  record.marginHold = null;
  ctx.emit({
    type: 'leverPositionClosed',
    positionId,
    userId,
    marketId: record.marketId,
    quoteCurrencyId,
    side: record.side,
    lots: record.lots,
    entryTicks: record.entryTicks,
    closeTicks: markTicks,
    markTicks,
    reason,
    closedMs: ctx.timeMs,
    margin,
    originMargin: record.originMargin,
    overnightPaid: record.overnightPaid,
    profit,
    returned,
    lossFromMargin,
    lossFromBalance,
    lossFromOtherMargins,
    shortfall,
    uncovered,
    houseUnpaid,
  });
  return { positionId, closeTicks: markTicks, profit, returned, shortfall };
}

/** Profitable holdings first (so a loss never draws on the fund while a profit is still to be paid), by id. */
function closingOrder(state: LeverState, records: LeverRecord[]): LeverRecord[] {
  const profitOf = (record: LeverRecord) =>
    leverProfit({
      side: record.side,
      entryTicks: record.entryTicks,
      markTicks: markOrThrow(state, record.marketId),
      lots: record.lots,
      quoteMinorPerTickLot: record.quoteMinorPerTickLot,
    });
  const keyed = records.map((record) => ({ record, losing: profitOf(record) < 0n }));
  keyed.sort((a, b) => Number(a.losing) - Number(b.losing) || a.record.positionId - b.record.positionId);
  return keyed.map(({ record }) => record);
}

function liquidate(ctx: CommandContext, state: LeverState, book: LeverBook, marketId: number): void {
  const marks = [...book.markets.keys()]
    .sort((a, b) => a - b)
    .map((id): [number, number] => [id, markOrThrow(state, id)]);
  const equity = bookEquity(state, book);
  const originMargin = book.originMargin;
  const thresholdBp = book.thresholdBp;
  const records = closingOrder(state, [...book.holdings.values()]);
  let shortfall = 0n;
  let feeDue = 0n;
  for (const record of records) {
    feeDue += leverFee({ amount: record.contractValue, ratePpm: record.rules.liquidationFeePpm });
    shortfall += closeRecord(
      ctx,
      state,
      record,
      markOrThrow(state, record.marketId),
      'liquidation',
    ).shortfall;
  }
  const ledger = ctx.ledger;
  const user = leverAccount(ledger, book.userId, book.currencyId);
  const liquidationFee = minOf(feeDue, user.available);
  if (liquidationFee > 0n)
    ledger.transfer(
      user,
      leverAccount(ledger, INSURANCE_OWNER_KEY, book.currencyId),
      liquidationFee,
      LeverReasonCode.leverLiquidationFee,
      records[0]?.positionId ?? 0,
    );
  const own = marks.find(([id]) => id === marketId) ?? marks[0];
  ctx.emit({
    type: 'leverLiquidated',
    userId: book.userId,
    quoteCurrencyId: book.currencyId,
    marketId: own?.[0] ?? marketId,
    markTicks: own?.[1] ?? 0,
    marks,
    timeMs: ctx.timeMs,
    riskRateBp: leverRiskRateBp({ equity, originMargin }) ?? 0,
    thresholdBp,
    equity,
    originMargin,
    positionIds: records.map((record) => record.positionId).sort((a, b) => a - b),
    shortfall,
    liquidationFee,
  });
  state.dirty.delete(book);
}

function closeMarkOf(state: LeverState, marketId: number): number | undefined {
  const mark = state.markOf(marketId);
  return mark !== undefined && state.market.isMarkFresh(marketId, LEVER_MAX_MARK_AGE_MS) ? mark : undefined;
}

/** Closes one holding at the pair's (fresh) mark. */
export function closeLeverPosition(
  ctx: CommandContext,
  state: LeverState,
  command: CloseLeverPositionCommand,
): number {
  const record = ownRecord(state, command.userId, command.positionId);
  if (typeof record === 'number') return record;
  if (record.status !== 1) return LeverResultCode.leverWrongStatus;
  const mark = closeMarkOf(state, record.marketId);
  if (mark === undefined) return LeverResultCode.leverNoMark;
  const book = state.book(record.userId, record.quoteCurrencyId);
  const { shortfall: _shortfall, ...reply } = closeRecord(ctx, state, record, mark, 'user');
  refreshBook(ctx, state, book, record.marketId);
  ctx.reply(reply);
  return ResultCode.ok;
}

/**
 * Closes the user's holdings (0 all, 1 longs, 2 shorts) whose pair has a fresh mark; refused with
 * `leverNoMark` when some holding matches but none can close.
 */
export function closeLeverPositions(
  ctx: CommandContext,
  state: LeverState,
  command: CloseLeverPositionsCommand,
): number {
  const userId = ownerKeyOf(command.userId);
  if (userId <= 0) return ResultCode.invalidOwner;
  const which = command.which;
  if (which !== 0 && which !== 1 && which !== 2) return ResultCode.invalidField;
  const matching: LeverRecord[] = [];
  for (const currencyId of state.userCurrencies.get(userId) ?? [])
    for (const record of state.book(userId, currencyId).holdings.values())
      if (which === 0 || record.side === which) matching.push(record);
  const closable = matching.filter((record) => closeMarkOf(state, record.marketId) !== undefined);
  if (matching.length > 0 && closable.length === 0) return LeverResultCode.leverNoMark;
  const books = new Set(closable.map((record) => state.book(userId, record.quoteCurrencyId)));
  const closed: LeverCloseReply[] = [];
  for (const record of closingOrder(state, closable)) {
    const { shortfall: _shortfall, ...reply } = closeRecord(
      ctx,
      state,
      record,
      closeMarkOf(state, record.marketId) as number,
      'batch',
    );
    closed.push(reply);
  }
  refreshBooks(ctx, state, books, closable[0]?.marketId ?? 0);
  ctx.reply({ closed: closed.sort((a, b) => a.positionId - b.positionId) });
  return ResultCode.ok;
}

// ---- overnight ----------------------------------------------------------------------------------------------

/**
 * Charges every day up to `day` not yet charged to each holding opened before that day's start: the fee
 * (contract value at entry x overnight rate, rounded up) comes from the margin first, then the lever
 * balance; what neither holds is not taken (never below zero) and is reported as unpaid. A holding records
 * the last day charged, so a second run for the same day charges nothing and a run after missed days
 * charges each of them.
 */
export function chargeLeverOvernight(
  ctx: CommandContext,
  state: LeverState,
  command: ChargeLeverOvernightCommand,
): number {
  const day = command.day;
  if (!isNatural(day, MAX_LEVER_DAY)) return ResultCode.invalidField;
  if (day > Math.floor(ctx.timeMs / DAY_MS)) return LeverResultCode.leverDayNotReached;
  const ledger = ctx.ledger;
  const due = [...state.records.values()]
    .filter((record) => record.status === 1 && record.lastChargedDay < day)
    .sort((a, b) => a.positionId - b.positionId);
  const totals = new Map<number, bigint>();
  const books = new Set<LeverBook>();
  let charges = 0;
  for (const record of due) {
    const book = state.book(record.userId, record.quoteCurrencyId);
    const user = leverAccount(ledger, record.userId, record.quoteCurrencyId);
    const house = leverAccount(ledger, HOUSE_OWNER_KEY, record.quoteCurrencyId);
    const fee = leverFee({ amount: record.contractValue, ratePpm: record.rules.overnightPpm });
    while (record.lastChargedDay < day) {
      record.lastChargedDay += 1;
      if (fee === 0n) continue;
      const fromMargin = minOf(fee, record.margin);
      if (fromMargin > 0n && record.marginHold !== null) {
        ledger.post(record.marginHold, house, fromMargin, LeverReasonCode.leverOvernight, record.positionId);
        record.margin -= fromMargin;
        book.margin -= fromMargin;
        if (record.margin === 0n) record.marginHold = null;
      }
      const fromBalance = minOf(fee - fromMargin, user.available);
      if (fromBalance > 0n)
        ledger.transfer(user, house, fromBalance, LeverReasonCode.leverOvernight, record.positionId);
      const charged = fromMargin + fromBalance;
      record.overnightPaid += charged;
      charges += 1;
      totals.set(record.quoteCurrencyId, (totals.get(record.quoteCurrencyId) ?? 0n) + charged);
      books.add(book);
      ctx.emit({
        type: 'leverOvernightCharged',
        positionId: record.positionId,
        userId: record.userId,
        marketId: record.marketId,
        quoteCurrencyId: record.quoteCurrencyId,
        day: record.lastChargedDay,
        fee,
        fromMargin,
        fromBalance,
        unpaid: fee - charged,
        margin: record.margin,
        overnightTotal: record.overnightPaid,
      });
    }
  }
  for (const book of [...books].sort((a, b) => a.key - b.key))
    refreshBook(ctx, state, book, book.markets.keys().next().value ?? 0);
  ctx.reply({
    day,
    charges,
    totals: [...totals].sort(([a], [b]) => a - b).map(([currencyId, charged]) => ({ currencyId, charged })),
  });
  return ResultCode.ok;
}

// ---- the price hook -----------------------------------------------------------------------------------------

/** Opens a limit entry whose target the mark crossed: its fee is paid, its margin becomes the position's. */
function openEntry(ctx: CommandContext, state: LeverState, record: LeverRecord, markTicks: number): void {
  const ledger = ctx.ledger;
  const book = state.book(record.userId, record.quoteCurrencyId);
  if (record.feeHold !== null)
    ledger.post(
      record.feeHold,
      leverAccount(ledger, FEES_OWNER_KEY, record.quoteCurrencyId),
      record.fee,
      LeverReasonCode.leverEntryFee,
      record.positionId,
    );
  record.feeHold = null;
  record.entryTrigger = null;
  book.entries.delete(record.positionId);
  record.status = 1;
  record.openedMs = ctx.timeMs;
  record.lastChargedDay = Math.floor(ctx.timeMs / DAY_MS);
  state.addHolding(book, record);
  ctx.emit({
    type: 'leverPositionOpened',
    ...recordFields(record),
    fromEntry: true,
    openedMs: record.openedMs,
    markTicks,
  });
}

/**
 * A new mark of a pair: books another area may have lowered are re-indexed first (not acted on); then the triggers the mark
 * crosses act, each group in id order: limit entries open, stops close their holdings at this mark, and
 * every book touched (by those, by its liquidation trigger, or holding a net in this and another pair) is
 * liquidated when its risk rate is at or below its threshold, or re-indexed otherwise.
 */
export function leverOnMark(
  ctx: CommandContext,
  state: LeverState,
  marketId: number,
  markTicks: number,
): void {
  // Books another area may have lowered are only re-indexed here: if the new mark crosses a new trigger it
  // fires below with every other, so the order of what happens never depends on whether a book was dirty
  // (a restore, which indexes every book afresh, acts exactly as the live engine).
  if (state.dirty.size > 0)
    for (const book of [...state.dirty].sort((a, b) => a.key - b.key)) indexBook(state, book);
  const triggers = state.triggers.get(marketId);
  const touched = new Set<LeverBook>(state.crossBooks.get(marketId));
  if (triggers !== undefined) {
    const fired: Trigger<LeverRecord | LeverBook>[] = [];
    triggers.below.takeCrossed(markTicks, fired);
    triggers.above.takeCrossed(markTicks, fired);
    const entries: LeverRecord[] = [];
    const stops: { record: LeverRecord; reason: LeverCloseReason }[] = [];
    for (const trigger of fired) {
      if (trigger.kind === 'liquidation') touched.add(trigger.target as LeverBook);
      else if (trigger.kind === 'entry') entries.push(trigger.target as LeverRecord);
      else {
        const record = trigger.target as LeverRecord;
        stops.push({ record, reason: trigger === record.takeProfitTrigger ? 'takeProfit' : 'stopLoss' });
      }
    }
    entries.sort((a, b) => a.positionId - b.positionId);
    for (const record of entries) {
      if (state.records.get(record.positionId) !== record || record.status !== 0) continue;
      openEntry(ctx, state, record, markTicks);
      touched.add(state.book(record.userId, record.quoteCurrencyId));
    }
    stops.sort((a, b) => a.record.positionId - b.record.positionId);
    for (const { record, reason } of stops) {
      if (state.records.get(record.positionId) !== record || record.status !== 1) continue;
      const book = state.book(record.userId, record.quoteCurrencyId);
      closeRecord(ctx, state, record, markTicks, reason);
      touched.add(book);
    }
  }
  if (touched.size > 0) refreshBooks(ctx, state, touched, marketId);
}
