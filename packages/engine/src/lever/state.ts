// The lever area's state: pair rules, the live records (limit entries and holdings), each user's
// cross-margin book per quote currency, and the price-indexed triggers of every pair. Books, exposure and
// triggers are derived from the records; a restore rebuilds them with `addRecord` and `indexBook`.
import type { AreaSetup } from '../kernel/area.ts';
import type { Counter } from '../kernel/counters.ts';
import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { Port } from '../kernel/ports.ts';
import { LEVER_PRICES } from './expected.ts';
import type { LeverPriceReads } from './expected.ts';
import { MAX_CURRENCY_ID } from '../limits.ts';
import type { LeverSide } from './commands.ts';
import type { LeverRules } from './events.ts';
import { Trigger, TriggerHeap } from './heap.ts';

/** The wallet index of `lever` (accounts.ts). */
export const LEVER_WALLET_INDEX = 1;
/** A mark older than this (command time) opens and closes nothing at the user's request. */
export const LEVER_MAX_MARK_AGE_MS = 10_000;
export const DAY_MS = 86_400_000;

export type LeverPair = {
  readonly marketId: number;
  readonly quoteCurrencyId: number;
  readonly quoteMinorPerTickLot: bigint;
  enabled: boolean;
  lotsPerShare: number;
  multiples: number[];
  minShare: number;
  maxShare: number;
  spreadPpm: number;
  feePpm: number;
  overnightPpm: number;
  liquidationThresholdBp: number;
  liquidationFeePpm: number;
  exposureLimitLots: number;
  /** Lots of holdings and waiting entries, each side. */
  longLots: number;
  shortLots: number;
};

/** A live record: status 0 (limit entry) or 1 (holding). */
export type LeverRecord = {
  readonly positionId: number;
  readonly userId: number;
  readonly marketId: number;
  readonly quoteCurrencyId: number;
  readonly quoteMinorPerTickLot: bigint;
  status: 0 | 1;
  readonly side: LeverSide;
  readonly share: number;
  readonly lots: number;
  readonly multiple: number;
  readonly entryTicks: number;
  readonly contractValue: bigint;
  readonly originMargin: bigint;
  /** The margin held now (overnight fees and a cross-margin loss of another position take from it). */
  margin: bigint;
  readonly fee: bigint;
  overnightPaid: bigint;
  takeProfitTicks: number;
  stopLossTicks: number;
  readonly placedMs: number;
  openedMs: number;
  lastChargedDay: number;
  readonly rules: LeverRules;
  /** The margin on the user's lever wallet (hold owner `lever`, ref: the id); null once it is 0. */
  marginHold: Hold | null;
  /** A limit entry's fee on the user's lever wallet (`lever.fee`); null for a holding. */
  feeHold: Hold | null;
  /** An entry's trigger, or a holding's take-profit and stop-loss triggers. */
  entryTrigger: Trigger<LeverRecord | LeverBook> | null;
  takeProfitTrigger: Trigger<LeverRecord | LeverBook> | null;
  stopLossTrigger: Trigger<LeverRecord | LeverBook> | null;
};

/** A user's position in one pair inside a book: net lots and the signed entry values of the holdings. */
export type BookMarket = {
  readonly marketId: number;
  readonly quoteMinorPerTickLot: bigint;
  /** Long lots minus short lots. */
  netLots: number;
  /** sum of (+1 long, -1 short) x entry x lots x quote per tick-lot: profit = netLots x q x mark - this. */
  signedEntryValue: bigint;
  holdings: number;
  liquidationTrigger: Trigger<LeverRecord | LeverBook> | null;
};

/** A user's cross-margin account in one quote currency. */
export class LeverBook {
  readonly key: number;
  readonly userId: number;
  readonly currencyId: number;
  readonly holdings = new Map<number, LeverRecord>();
  readonly entries = new Map<number, LeverRecord>();
  originMargin = 0n;
  margin = 0n;
  /** The highest liquidation threshold copied onto a holding (0 without holdings). */
  thresholdBp = 0;
  readonly markets = new Map<number, BookMarket>();
  /** The markets whose cross-book sets hold this book (it has a net in two or more pairs). */
  crossMarkets: number[] = [];

  constructor(userId: number, currencyId: number) {
    this.key = bookKey(userId, currencyId);
    this.userId = userId;
    this.currencyId = currencyId;
  }
}

export function bookKey(userId: number, currencyId: number): number {
  return userId * (MAX_CURRENCY_ID + 1) + currencyId;
}

/** The two trigger heaps of one pair. */
export type MarketTriggers = {
  below: TriggerHeap<LeverRecord | LeverBook>;
  above: TriggerHeap<LeverRecord | LeverBook>;
};

export class LeverState {
  readonly ledger: Ledger;
  readonly ids: Counter;
  readonly pairs = new Map<number, LeverPair>();
  readonly records = new Map<number, LeverRecord>();
  readonly books = new Map<number, LeverBook>();
  /** The quote currencies in which each user has a book. */
  readonly userCurrencies = new Map<number, Set<number>>();
  readonly triggers = new Map<number, MarketTriggers>();
  /** Per pair, the books with a net in two or more pairs: re-indexed when this pair's mark moves. */
  readonly crossBooks = new Map<number, Set<LeverBook>>();
  /** Per pair, the books with a holding in it: whom a mark move of the pair concerns. Derived. */
  readonly pairHolders = new Map<number, Set<LeverBook>>();
  /** Per quote currency, the books with a holding in it. Derived. */
  readonly currencyHolders = new Map<number, Set<LeverBook>>();
  /**
   * Books whose lever balance another area may have lowered (a transfer out asks `reservedFunds` first):
   * re-indexed before the next mark is acted on. Not state: a restore re-indexes every book.
   */
  readonly dirty = new Set<LeverBook>();
  private readonly setup: AreaSetup;

  constructor(setup: AreaSetup) {
    this.setup = setup;
    this.ledger = setup.ledger;
    this.ids = setup.counter('nextLeverPositionId');
  }

  /** A pair's mark, through the port the lever area declares (expected.ts). */
  get market(): LeverPriceReads {
    return this.setup.port(LEVER_PRICES);
  }

  /** What another area answers through a port the lever area declares (expected.ts). */
  port<Q>(target: Port<Q>): Q {
    return this.setup.port(target);
  }

  /** The pair's current mark (the latest sample's), or undefined before any. */
  markOf(marketId: number): number | undefined {
    return this.market.markPrice(marketId)?.markTicks ?? undefined;
  }

  isEmpty(): boolean {
    return this.pairs.size === 0 && this.records.size === 0;
  }

  book(userId: number, currencyId: number): LeverBook {
    const key = bookKey(userId, currencyId);
    let book = this.books.get(key);
    if (book === undefined) {
      book = new LeverBook(userId, currencyId);
      this.books.set(key, book);
      let currencies = this.userCurrencies.get(userId);
      if (currencies === undefined) {
        currencies = new Set();
        this.userCurrencies.set(userId, currencies);
      }
      currencies.add(currencyId);
    }
    return book;
  }

  triggersOf(marketId: number): MarketTriggers {
    let triggers = this.triggers.get(marketId);
    if (triggers === undefined) {
      triggers = { below: new TriggerHeap(true), above: new TriggerHeap(false) };
      this.triggers.set(marketId, triggers);
    }
    return triggers;
  }

  /** Adds a trigger to its pair's heap: `below` fires at or below the price, otherwise at or above. */
  addTrigger(
    marketId: number,
    kind: 'entry' | 'stop' | 'liquidation',
    priceTicks: number,
    below: boolean,
    target: LeverRecord | LeverBook,
  ): Trigger<LeverRecord | LeverBook> {
    const trigger = new Trigger(kind, priceTicks, below, target);
    const triggers = this.triggersOf(marketId);
    (below ? triggers.below : triggers.above).push(trigger);
    return trigger;
  }

  killTrigger(marketId: number, trigger: Trigger<LeverRecord | LeverBook> | null): void {
    if (trigger === null) return;
    const triggers = this.triggersOf(marketId);
    (trigger.below ? triggers.below : triggers.above).kill(trigger);
  }

  /** Adds a record to the books and the pair's exposure (its triggers are added by the caller). */
  addRecord(record: LeverRecord): void {
    this.records.set(record.positionId, record);
    const pair = this.pairs.get(record.marketId) as LeverPair;
    if (record.side === 1) pair.longLots += record.lots;
    else pair.shortLots += record.lots;
    const book = this.book(record.userId, record.quoteCurrencyId);
    if (record.status === 0) book.entries.set(record.positionId, record);
    else this.addHolding(book, record);
  }

  addHolding(book: LeverBook, record: LeverRecord): void {
    book.holdings.set(record.positionId, record);
    book.originMargin += record.originMargin;
    book.margin += record.margin;
    if (record.rules.liquidationThresholdBp > book.thresholdBp)
      book.thresholdBp = record.rules.liquidationThresholdBp;
    let market = book.markets.get(record.marketId);
    if (market === undefined) {
      market = {
        marketId: record.marketId,
        quoteMinorPerTickLot: record.quoteMinorPerTickLot,
        netLots: 0,
        signedEntryValue: 0n,
        holdings: 0,
        liquidationTrigger: null,
      };
      book.markets.set(record.marketId, market);
      addTo(this.pairHolders, record.marketId, book);
    }
    if (book.holdings.size === 1) addTo(this.currencyHolders, book.currencyId, book);
    const sign = record.side === 1 ? 1 : -1;
    market.netLots += sign * record.lots;
    market.signedEntryValue +=
      BigInt(sign) * BigInt(record.entryTicks) * BigInt(record.lots) * record.quoteMinorPerTickLot;
    market.holdings += 1;
  }

  /** Takes a record out of the books and the exposure; kills its triggers. */
  removeRecord(record: LeverRecord): void {
    this.records.delete(record.positionId);
    const pair = this.pairs.get(record.marketId) as LeverPair;
    if (record.side === 1) pair.longLots -= record.lots;
    else pair.shortLots -= record.lots;
    const book = this.books.get(bookKey(record.userId, record.quoteCurrencyId)) as LeverBook;
    this.killRecordTriggers(record);
    if (record.status === 0) book.entries.delete(record.positionId);
    else this.removeHolding(book, record);
    if (book.entries.size === 0 && book.holdings.size === 0) {
      this.setCross(book, []);
      this.books.delete(book.key);
      this.dirty.delete(book);
      const currencies = this.userCurrencies.get(book.userId);
      currencies?.delete(book.currencyId);
      if (currencies?.size === 0) this.userCurrencies.delete(book.userId);
    }
  }

  removeHolding(book: LeverBook, record: LeverRecord): void {
    book.holdings.delete(record.positionId);
    book.originMargin -= record.originMargin;
    book.margin -= record.margin;
    book.thresholdBp = 0;
    for (const other of book.holdings.values())
      if (other.rules.liquidationThresholdBp > book.thresholdBp)
        book.thresholdBp = other.rules.liquidationThresholdBp;
    const market = book.markets.get(record.marketId) as BookMarket;
    const sign = record.side === 1 ? 1 : -1;
    market.netLots -= sign * record.lots;
    market.signedEntryValue -=
      BigInt(sign) * BigInt(record.entryTicks) * BigInt(record.lots) * record.quoteMinorPerTickLot;
    market.holdings -= 1;
    if (market.holdings === 0) {
      this.killLiquidationTrigger(market);
      book.markets.delete(record.marketId);
      deleteFrom(this.pairHolders, record.marketId, book);
    }
    if (book.holdings.size === 0) deleteFrom(this.currencyHolders, book.currencyId, book);
  }

  killRecordTriggers(record: LeverRecord): void {
    this.killTrigger(record.marketId, record.entryTrigger);
    this.killTrigger(record.marketId, record.takeProfitTrigger);
    this.killTrigger(record.marketId, record.stopLossTrigger);
    record.entryTrigger = null;
    record.takeProfitTrigger = null;
    record.stopLossTrigger = null;
  }

  killLiquidationTrigger(market: BookMarket): void {
    this.killTrigger(market.marketId, market.liquidationTrigger);
    market.liquidationTrigger = null;
  }

  /** Puts the book in the cross-book sets of exactly `marketIds`. */
  setCross(book: LeverBook, marketIds: number[]): void {
    for (const marketId of book.crossMarkets) this.crossBooks.get(marketId)?.delete(book);
    for (const marketId of marketIds) {
      let set = this.crossBooks.get(marketId);
      if (set === undefined) {
        set = new Set();
        this.crossBooks.set(marketId, set);
      }
      set.add(book);
    }
    book.crossMarkets = marketIds;
  }
}

function addTo(index: Map<number, Set<LeverBook>>, key: number, book: LeverBook): void {
  let set = index.get(key);
  if (set === undefined) {
    set = new Set();
    index.set(key, set);
  }
  set.add(book);
}

function deleteFrom(index: Map<number, Set<LeverBook>>, key: number, book: LeverBook): void {
  const set = index.get(key);
  if (set === undefined) return;
  set.delete(book);
  if (set.size === 0) index.delete(key);
}
