import { invariant } from '../invariant.ts';
import type { MatchHandler, OrderBook } from './order-book.ts';
import type { Depth, DepthLevel, Order, Side } from './types.ts';

/**
 * The oracle: each side is one array of orders kept sorted best-first by a stable sort on price alone, so
 * orders at one price keep their arrival order. Everything is linear and obviously right; it exists to be
 * compared with the fast book, never to be fast.
 */
export class ReferenceOrderBook implements OrderBook {
  readonly implementation = 'reference' as const;
  private readonly bids: Order[] = [];
  private readonly asks: Order[] = [];
  private readonly quoteMinorPerTickLot: bigint;

  constructor(quoteMinorPerTickLot: bigint) {
    this.quoteMinorPerTickLot = quoteMinorPerTickLot;
  }

  get orderCount(): number {
    return this.bids.length + this.asks.length;
  }

  match(taker: Order, handler: MatchHandler): void {
    const opposite = taker.side === 'buy' ? this.asks : this.bids;
    while (taker.remainingLots > 0 && opposite.length > 0) {
      const maker = opposite[0] as Order;
      // A limit order crosses up to its price, a market order up to its protection band (0: any price).
      const limitTicks = taker.kind === 'limit' ? taker.priceTicks : taker.bandTicks;
      if (limitTicks > 0) {
        const crosses =
          taker.side === 'buy' ? maker.priceTicks <= limitTicks : maker.priceTicks >= limitTicks;
        if (!crosses) break;
      }
      // One owner on both sides, or two of the exchange's own (named) owners: no trade.
      const bothSystem = typeof maker.owner === 'string' && typeof taker.owner === 'string';
      if (maker.owner === taker.owner || bothSystem) {
        opposite.shift();
        handler.selfTrade(maker);
        continue;
      }
      let lots = Math.min(maker.remainingLots, taker.remainingLots);
      if (taker.kind === 'market' && taker.side === 'buy') {
        // Whole lots the remaining hold still pays for at this price.
        const lotCost = BigInt(maker.priceTicks) * this.quoteMinorPerTickLot;
        const affordable = taker.lockedAmount / lotCost;
        if (affordable < BigInt(lots)) lots = Number(affordable);
        if (lots === 0) break;
      }
      maker.remainingLots -= lots;
      if (maker.remainingLots === 0) opposite.shift();
      handler.fill(maker, lots, taker);
    }
  }

  fillableLots(side: Side, priceTicks: number, ownerKey: number, upTo: number): number {
    let lots = 0;
    for (const maker of side === 'buy' ? this.asks : this.bids) {
      const crosses = side === 'buy' ? maker.priceTicks <= priceTicks : maker.priceTicks >= priceTicks;
      if (!crosses) break;
      // The same rule as matching: one owner on both sides, or two system owners, never trade.
      const bothSystem = maker.ownerKey < 0 && ownerKey < 0;
      if (maker.ownerKey !== ownerKey && !bothSystem) lots += maker.remainingLots;
      if (lots >= upTo) break;
    }
    return Math.min(lots, upTo);
  }

  rest(order: Order): void {
    invariant(order.kind === 'limit' && order.remainingLots > 0, `order ${order.orderId} cannot rest`);
    const side = order.side === 'buy' ? this.bids : this.asks;
    side.push(order);
    side.sort(
      order.side === 'buy' ? (a, b) => b.priceTicks - a.priceTicks : (a, b) => a.priceTicks - b.priceTicks,
    );
  }

  remove(order: Order): void {
    const side = order.side === 'buy' ? this.bids : this.asks;
    const index = side.indexOf(order);
    invariant(index >= 0, `order ${order.orderId} is not in the book`);
    side.splice(index, 1);
  }

  lotsAtPrice(side: Side, priceTicks: number): number {
    let lots = 0;
    for (const order of side === 'buy' ? this.bids : this.asks) {
      if (order.priceTicks === priceTicks) lots += order.remainingLots;
    }
    return lots;
  }

  bestBidTicks(): number {
    return this.bids[0]?.priceTicks ?? 0;
  }

  bestAskTicks(): number {
    return this.asks[0]?.priceTicks ?? 0;
  }

  depth(levels: number): Depth {
    return { bids: aggregate(this.bids, levels), asks: aggregate(this.asks, levels) };
  }

  forEachOrder(side: Side, visit: (order: Order) => void): void {
    for (const order of side === 'buy' ? this.bids : this.asks) visit(order);
  }

  checkIntegrity(): void {
    for (let index = 1; index < this.bids.length; index += 1) {
      invariant(
        (this.bids[index - 1] as Order).priceTicks >= (this.bids[index] as Order).priceTicks,
        'bids unsorted',
      );
    }
    for (let index = 1; index < this.asks.length; index += 1) {
      invariant(
        (this.asks[index - 1] as Order).priceTicks <= (this.asks[index] as Order).priceTicks,
        'asks unsorted',
      );
    }
    for (const order of [...this.bids, ...this.asks]) {
      invariant(order.remainingLots > 0, `order ${order.orderId} rests with nothing left`);
    }
  }
}

function aggregate(orders: Order[], levels: number): DepthLevel[] {
  const result: DepthLevel[] = [];
  for (const order of orders) {
    const last = result[result.length - 1];
    if (last !== undefined && last[0] === order.priceTicks) last[1] += order.remainingLots;
    else if (result.length === levels) break;
    else result.push([order.priceTicks, order.remainingLots]);
  }
  return result;
}
