import type { AreaSetup } from '../kernel/area.ts';
import type { Counter } from '../kernel/counters.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { BookImplementation } from '../state.ts';
import { SpotMatcher } from './matcher.ts';
import type { Trader } from './trader.ts';
import type { PairConfig } from '../pairs/pair.ts';
import type { PairRegistry } from '../pairs/registry.ts';
import { SPOT_MARKS } from '../ports/book-and-mark.ts';
import { createMarket } from './market.ts';
import type { Market } from './market.ts';
import type { Order } from './types.ts';

/** The spot area's state slice: markets with their books, resting orders, traders and id counters. */
export class SpotState implements PairRegistry {
  readonly ledger: Ledger;
  readonly markets = new Map<number, Market>();
  /** Resting orders by id. */
  readonly orders = new Map<number, Order>();
  /** Spot traders by owner key: open-order lists and cached change accounts. */
  readonly traders = new Map<number, Trader>();
  readonly orderIds: Counter;
  readonly tradeIds: Counter;
  readonly bookImplementation: BookImplementation;
  readonly maxOpenOrdersPerOwner: number;
  /** Reused for every placement: settles the fills the book reports. */
  readonly matcher: SpotMatcher;
  readonly #setup: AreaSetup;

  constructor(setup: AreaSetup) {
    this.ledger = setup.ledger;
    this.orderIds = setup.counter('nextOrderId');
    this.tradeIds = setup.counter('nextTradeId');
    this.bookImplementation = setup.bookImplementation;
    this.maxOpenOrdersPerOwner = setup.options.maxOpenOrdersPerOwner;
    this.matcher = new SpotMatcher(this);
    this.#setup = setup;
  }

  /** A new pair is a market with an empty book. */
  createPair(config: PairConfig): Market {
    return createMarket(this, config);
  }

  /**
   * The market's latest mark from the market data area (null before the first, or without that area): the
   * reference of market orders' price-protection band.
   */
  markTicks(marketId: number): number | null {
    return this.#setup.port(SPOT_MARKS)?.markPrice(marketId)?.markTicks ?? null;
  }
}
