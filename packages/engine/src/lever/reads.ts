// The lever area's queries (copies; the state is never handed out).
import { leverProfit, leverRiskRateBp } from '../calc/lever.ts';
import { HOUSE_OWNER_KEY } from '../ledger/accounts.ts';
import { bookEquity, bookLiquidationTicks, bookProfit, INSURANCE_OWNER_KEY } from './handlers.ts';
import type {
  LeverExposureView,
  LeverInsuranceView,
  LeverPairView,
  LeverPositionView,
  LeverRiskView,
} from './queries.ts';
import { LEVER_WALLET_INDEX, bookKey } from './state.ts';
import type { LeverBook, LeverPair, LeverRecord, LeverState } from './state.ts';

export function pairView(pair: LeverPair): LeverPairView {
  return {
    marketId: pair.marketId,
    quoteCurrencyId: pair.quoteCurrencyId,
    enabled: pair.enabled,
    lotsPerShare: pair.lotsPerShare,
    multiples: [...pair.multiples],
    minShare: pair.minShare,
    maxShare: pair.maxShare,
    spreadPpm: pair.spreadPpm,
    feePpm: pair.feePpm,
    overnightPpm: pair.overnightPpm,
    liquidationThresholdBp: pair.liquidationThresholdBp,
    liquidationFeePpm: pair.liquidationFeePpm,
    exposureLimitLots: pair.exposureLimitLots,
  };
}

export function positionView(state: LeverState, record: LeverRecord): LeverPositionView {
  const mark = state.markOf(record.marketId);
  const holding = record.status === 1;
  const book = state.books.get(bookKey(record.userId, record.quoteCurrencyId));
  return {
    positionId: record.positionId,
    userId: record.userId,
    marketId: record.marketId,
    quoteCurrencyId: record.quoteCurrencyId,
    status: record.status,
    side: record.side,
    share: record.share,
    lots: record.lots,
    multiple: record.multiple,
    entryTicks: record.entryTicks,
    contractValue: record.contractValue,
    margin: record.margin,
    originMargin: record.originMargin,
    fee: record.fee,
    overnightPaid: record.overnightPaid,
    takeProfitTicks: record.takeProfitTicks,
    stopLossTicks: record.stopLossTicks,
    placedMs: record.placedMs,
    openedMs: record.openedMs,
    lastChargedDay: record.lastChargedDay,
    rules: { ...record.rules },
    profit:
      holding && mark !== undefined
        ? leverProfit({
            side: record.side,
            entryTicks: record.entryTicks,
            markTicks: mark,
            lots: record.lots,
            quoteMinorPerTickLot: record.quoteMinorPerTickLot,
          })
        : 0n,
    liquidationTicks:
      holding && book !== undefined ? bookLiquidationTicks(state, book, record.marketId) : null,
  };
}

export function positionsView(state: LeverState, userId: number, status?: 0 | 1): LeverPositionView[] {
  const records: LeverRecord[] = [];
  for (const currencyId of state.userCurrencies.get(userId) ?? []) {
    const book = state.books.get(bookKey(userId, currencyId)) as LeverBook;
    if (status !== 1) records.push(...book.entries.values());
    if (status !== 0) records.push(...book.holdings.values());
  }
  return records.sort((a, b) => a.positionId - b.positionId).map((record) => positionView(state, record));
}

/** What the user's lever wallet must keep: the origin margins not covered by margins and profits. */
export function reservedOf(state: LeverState, book: LeverBook): bigint {
  if (book.holdings.size === 0) return 0n;
  const reserved = book.originMargin - book.margin - bookProfit(state, book);
  return reserved > 0n ? reserved : 0n;
}

export function riskView(state: LeverState, userId: number, currencyId: number): LeverRiskView {
  const book = state.books.get(bookKey(userId, currencyId));
  const balance = state.ledger.findAccount(userId, LEVER_WALLET_INDEX, currencyId)?.available ?? 0n;
  if (book === undefined)
    return {
      userId,
      quoteCurrencyId: currencyId,
      balance,
      margin: 0n,
      originMargin: 0n,
      profit: 0n,
      equity: balance,
      riskRateBp: null,
      thresholdBp: 0,
      reserved: 0n,
      holdings: 0,
      entries: 0,
    };
  const profit = bookProfit(state, book);
  const equity = bookEquity(state, book);
  return {
    userId,
    quoteCurrencyId: currencyId,
    balance,
    margin: book.margin,
    originMargin: book.originMargin,
    profit,
    equity,
    riskRateBp: leverRiskRateBp({ equity, originMargin: book.originMargin }),
    thresholdBp: book.thresholdBp,
    reserved: reservedOf(state, book),
    holdings: book.holdings.size,
    entries: book.entries.size,
  };
}

export function exposureView(state: LeverState): LeverExposureView[] {
  return [...state.pairs.values()]
    .sort((a, b) => a.marketId - b.marketId)
    .map((pair) => ({
      marketId: pair.marketId,
      longLots: pair.longLots,
      shortLots: pair.shortLots,
      netLots: pair.longLots - pair.shortLots,
      limitLots: pair.exposureLimitLots,
    }));
}

export function insuranceView(state: LeverState): LeverInsuranceView[] {
  const currencies = new Set([...state.pairs.values()].map((pair) => pair.quoteCurrencyId));
  return [...currencies]
    .sort((a, b) => a - b)
    .map((currencyId) => ({
      currencyId,
      balance: state.ledger.findAccount(INSURANCE_OWNER_KEY, LEVER_WALLET_INDEX, currencyId)?.available ?? 0n,
    }));
}

/** The house's lever wallet per quote currency (the counterparty of every position). */
export function houseBalance(state: LeverState, currencyId: number): bigint {
  return state.ledger.findAccount(HOUSE_OWNER_KEY, LEVER_WALLET_INDEX, currencyId)?.available ?? 0n;
}
