import { fail, invariant } from '../invariant.ts';
import { isSelfTradeBetween } from '../ledger/accounts.ts';
import { affordableLots } from './order-book.ts';
import type { MatchHandler, OrderBook } from './order-book.ts';
import { PriceLevel } from './price-level.ts';
import type { Depth, DepthLevel, Order, Side } from './types.ts';

/**
 * One side of the fast book. Levels sit in an array sorted so that the BEST level is LAST: matching pops
 * from the end, and new levels, which mostly arrive near the top of the book, are spliced in near the end
 * where moving elements is cheap. A map finds an existing level by price in constant time.
 */
class BookSide {
  readonly isBid: boolean;
  readonly levels: PriceLevel[] = [];
  readonly byPrice = new Map<number, PriceLevel>();

  constructor(isBid: boolean) {
    this.isBid = isBid;
  }

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** True when price a is worse than price b on this side (lower bid, higher ask). */
  private worse(a: number, b: number): boolean {
    return this.isBid ? a < b : a > b;
  }

  /** Index of the first level that is not worse than `priceTicks` (binary search). */
  private insertionIndex(priceTicks: number): number {
    let low = 0;
    let high = this.levels.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.worse((this.levels[middle] as PriceLevel).priceTicks, priceTicks)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  levelFor(priceTicks: number): PriceLevel {
    let level = this.byPrice.get(priceTicks);
    if (level !== undefined) return level;
    level = new PriceLevel(priceTicks);
    this.byPrice.set(priceTicks, level);
    const index = this.insertionIndex(priceTicks);
    if (index === this.levels.length) this.levels.push(level);
    else this.levels.splice(index, 0, level);
    return level;
  }

  removeLevel(level: PriceLevel): void {
    this.byPrice.delete(level.priceTicks);
    const last = this.levels.length - 1;
    if (this.levels[last] === level) {
      this.levels.pop();
      return;
    }
    const index = this.insertionIndex(level.priceTicks);
    if (this.levels[index] !== level) fail(`price level ${level.priceTicks} missing from its side`);
    this.levels.splice(index, 1);
  }
}

export class FastOrderBook implements OrderBook {
  readonly implementation = 'fast' as const;
  private readonly bids = new BookSide(true);
  private readonly asks = new BookSide(false);
  private readonly quoteMinorPerTickLot: bigint;
  orderCount = 0;

  constructor(quoteMinorPerTickLot: bigint) {
    this.quoteMinorPerTickLot = quoteMinorPerTickLot;
  }

  match(taker: Order, handler: MatchHandler): void {
    const isBuy = taker.side === 'buy';
    const isMarket = taker.kind === 'market';
    const budgeted = isMarket && isBuy;
    // A market order's limit is its protection band (0: none).
    const limitTicks = isMarket ? taker.bandTicks : taker.priceTicks;
    const side = isBuy ? this.asks : this.bids;
    const levels = side.levels;
    while (taker.remainingLots > 0) {
      const level = levels[levels.length - 1];
      if (level === undefined) return;
      const priceTicks = level.priceTicks;
      if (limitTicks > 0 && (isBuy ? priceTicks > limitTicks : priceTicks < limitTicks)) return;
      const maker = level.head as Order;
      if (isSelfTradeBetween(maker.ownerKey, taker.ownerKey)) {
        this.unlink(side, level, maker);
        handler.selfTrade(maker);
        continue;
      }
      let lots = maker.remainingLots < taker.remainingLots ? maker.remainingLots : taker.remainingLots;
      if (budgeted) {
        const affordable = affordableLots(taker.lockedAmount, priceTicks, this.quoteMinorPerTickLot);
        if (affordable < lots) lots = affordable;
        if (lots === 0) return;
      }
      maker.remainingLots -= lots;
      level.totalLots -= lots;
      if (maker.remainingLots === 0) this.unlink(side, level, maker);
      handler.fill(maker, lots, taker);
    }
  }

  fillableLots(side: Side, priceTicks: number, ownerKey: number, upTo: number): number {
    const isBuy = side === 'buy';
    const levels = (isBuy ? this.asks : this.bids).levels;
    let lots = 0;
    for (let index = levels.length - 1; index >= 0 && lots < upTo; index -= 1) {
      const level = levels[index] as PriceLevel;
      if (isBuy ? level.priceTicks > priceTicks : level.priceTicks < priceTicks) break;
      for (let maker = level.head; maker !== null && lots < upTo; maker = maker.next) {
        if (!isSelfTradeBetween(maker.ownerKey, ownerKey)) lots += maker.remainingLots;
      }
    }
    return lots < upTo ? lots : upTo;
  }

  rest(order: Order): void {
    if (order.kind !== 'limit' || order.remainingLots <= 0) fail(`order ${order.orderId} cannot rest`);
    const level = (order.side === 'buy' ? this.bids : this.asks).levelFor(order.priceTicks);
    order.level = level;
    order.next = null;
    order.previous = level.tail;
    if (level.tail === null) level.head = order;
    else level.tail.next = order;
    level.tail = order;
    level.orderCount += 1;
    level.totalLots += order.remainingLots;
    this.orderCount += 1;
  }

  remove(order: Order): void {
    const level = order.level;
    if (level === null) fail(`order ${order.orderId} is not in the book`);
    this.unlink(order.side === 'buy' ? this.bids : this.asks, level, order);
  }

  private unlink(side: BookSide, level: PriceLevel, order: Order): void {
    const previous = order.previous;
    const next = order.next;
    if (previous === null) level.head = next;
    else previous.next = next;
    if (next === null) level.tail = previous;
    else next.previous = previous;
    order.previous = null;
    order.next = null;
    order.level = null;
    level.orderCount -= 1;
    level.totalLots -= order.remainingLots;
    this.orderCount -= 1;
    if (level.orderCount === 0) side.removeLevel(level);
  }

  lotsAtPrice(side: Side, priceTicks: number): number {
    return (side === 'buy' ? this.bids : this.asks).byPrice.get(priceTicks)?.totalLots ?? 0;
  }

  bestBidTicks(): number {
    return this.bids.best()?.priceTicks ?? 0;
  }

  bestAskTicks(): number {
    return this.asks.best()?.priceTicks ?? 0;
  }

  depth(levels: number): Depth {
    return { bids: this.sideDepth(this.bids, levels), asks: this.sideDepth(this.asks, levels) };
  }

  private sideDepth(side: BookSide, count: number): DepthLevel[] {
    const result: DepthLevel[] = [];
    for (let index = side.levels.length - 1; index >= 0 && result.length < count; index -= 1) {
      const level = side.levels[index] as PriceLevel;
      result.push([level.priceTicks, level.totalLots]);
    }
    return result;
  }

  forEachOrder(side: Side, visit: (order: Order) => void): void {
    const levels = (side === 'buy' ? this.bids : this.asks).levels;
    for (let index = levels.length - 1; index >= 0; index -= 1) {
      for (let order = (levels[index] as PriceLevel).head; order !== null; order = order.next) visit(order);
    }
  }

  checkIntegrity(): void {
    let count = 0;
    for (const side of [this.bids, this.asks]) {
      invariant(side.levels.length === side.byPrice.size, 'level array and price map differ in size');
      for (let index = 0; index < side.levels.length; index += 1) {
        const level = side.levels[index] as PriceLevel;
        invariant(side.byPrice.get(level.priceTicks) === level, `level ${level.priceTicks} not in price map`);
        const next = side.levels[index + 1];
        if (next !== undefined) {
          const ordered = side.isBid
            ? level.priceTicks < next.priceTicks
            : level.priceTicks > next.priceTicks;
          invariant(ordered, `levels out of order at ${level.priceTicks}`);
        }
        count += this.checkLevel(side, level);
      }
    }
    invariant(count === this.orderCount, `book counts ${this.orderCount} orders but links ${count}`);
  }

  private checkLevel(side: BookSide, level: PriceLevel): number {
    let count = 0;
    let lots = 0;
    let previous: Order | null = null;
    for (let order = level.head; order !== null; order = order.next) {
      invariant(order.level === level && order.previous === previous, `order ${order.orderId} badly linked`);
      invariant(order.priceTicks === level.priceTicks, `order ${order.orderId} at the wrong level`);
      invariant((order.side === 'buy') === side.isBid, `order ${order.orderId} on the wrong side`);
      invariant(order.remainingLots > 0, `order ${order.orderId} rests with nothing left`);
      count += 1;
      lots += order.remainingLots;
      previous = order;
    }
    invariant(level.tail === previous, `level ${level.priceTicks} tail is wrong`);
    invariant(count > 0 && count === level.orderCount, `level ${level.priceTicks} count is wrong`);
    invariant(lots === level.totalLots, `level ${level.priceTicks} total is wrong`);
    return count;
  }
}
