// A spot market: a trading pair (pairs/pair.ts) with its order book, its waiting stop-limit orders and the
// fees accounts its trades pay into.
import { invariant } from '../invariant.ts';
import type { Account } from '../ledger/accounts.ts';
import { CHANGE_WALLET_INDEX, FEES_OWNER_KEY } from '../ledger/accounts.ts';
import { Pair } from '../pairs/pair.ts';
import type { PairConfig } from '../pairs/pair.ts';
import { FastOrderBook } from './fast-book.ts';
import type { OrderBook } from './order-book.ts';
import { ReferenceOrderBook } from './reference-book.ts';
import type { SpotState } from './state.ts';
import type { Order } from './types.ts';

export class Market extends Pair {
  /** Stop-limit orders waiting for their trigger, oldest first. */
  readonly stops: Order[] = [];
  readonly book: OrderBook;
  readonly feesBaseAccount: Account;
  readonly feesQuoteAccount: Account;

  constructor(fields: PairConfig & { book: OrderBook; feesBaseAccount: Account; feesQuoteAccount: Account }) {
    super(fields);
    this.book = fields.book;
    this.feesBaseAccount = fields.feesBaseAccount;
    this.feesQuoteAccount = fields.feesQuoteAccount;
  }
}

/** Builds and registers a market with an empty book (a new pair, and on restore). */
export function createMarket(state: SpotState, config: PairConfig): Market {
  invariant(!state.markets.has(config.marketId), `market ${config.marketId} exists`);
  const book: OrderBook =
    state.bookImplementation === 'fast'
      ? new FastOrderBook(config.quoteMinorPerTickLot)
      : new ReferenceOrderBook(config.quoteMinorPerTickLot);
  const market = new Market({
    ...config,
    book,
    feesBaseAccount: state.ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, config.baseCurrencyId),
    feesQuoteAccount: state.ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, config.quoteCurrencyId),
  });
  state.markets.set(config.marketId, market);
  return market;
}
