import type { Depth, Order, Side } from './types.ts';

/**
 * What the engine asks of a book while a taker matches. The book has already taken the lots off the maker
 * (and unlinked it when nothing remains) before it calls `fill`; the handler settles the money and updates
 * the taker. For `selfTrade` the book has unlinked the maker, which the handler then cancels: when the taker
 * meets a resting order of its own owner, or both are system owners (`isSelfTradeBetween`), the resting
 * order is cancelled and matching goes on (Binance's EXPIRE_MAKER).
 */
export interface MatchHandler {
  /**
   * The taker comes as an argument (the one `match` was given), so that the handler need not keep it on
   * itself: storing each new taker into the long-lived handler would run the write barrier's slow path.
   */
  fill(maker: Order, lots: number, taker: Order): void;
  selfTrade(maker: Order): void;
}

/**
 * One market's book. Two implementations exist: a fast one (sorted price levels with intrusive order lists)
 * and a reference one (plain sorted arrays) that serves as the oracle; one test suite runs against both, and
 * a differential test checks they produce the same events and state.
 */
export interface OrderBook {
  readonly implementation: 'fast' | 'reference';
  /**
   * Walks the opposite side in price-time priority while the taker crosses and has lots left. A market
   * order crosses up to its protection limit `bandTicks` (any price when 0); a market buy (kind 'market',
   * side 'buy') is also bounded by its remaining hold, `taker.lockedAmount`.
   */
  match(taker: Order, handler: MatchHandler): void;
  /**
   * The lots a limit taker of `ownerKey` on `side` at `priceTicks` would fill at once, counting up to
   * `upTo`: the opposite side's lots at prices that cross, less the orders self-trade prevention would
   * cancel instead of filling. Changes nothing (the fill-or-kill check).
   */
  fillableLots(side: Side, priceTicks: number, ownerKey: number, upTo: number): number;
  /** Adds a limit order behind all orders at its price. */
  rest(order: Order): void;
  /** Removes a resting order (cancel). */
  remove(order: Order): void;
  /** Total lots resting on a side at one price (0 when none). */
  lotsAtPrice(side: Side, priceTicks: number): number;
  /** Best bid price, or 0 when there are no bids. */
  bestBidTicks(): number;
  /** Best ask price, or 0 when there are no asks. */
  bestAskTicks(): number;
  depth(levels: number): Depth;
  /** Resting orders of one side, best first, oldest first within a price. */
  forEachOrder(side: Side, visit: (order: Order) => void): void;
  readonly orderCount: number;
  /** Throws when the book's own structure is inconsistent. */
  checkIntegrity(): void;
}

/** How many lots a market buy can still afford at a price, from what it still holds. */
export function affordableLots(heldAmount: bigint, priceTicks: number, quoteMinorPerTickLot: bigint): number {
  const lotCost = BigInt(priceTicks) * quoteMinorPerTickLot;
  const lots = heldAmount / lotCost;
  return lots > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(lots);
}
