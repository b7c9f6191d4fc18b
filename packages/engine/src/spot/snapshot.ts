import { invariant } from '../invariant.ts';
import { ownerKeyOf } from '../ledger/accounts.ts';
import type { AccountOwner } from '../ledger/accounts.ts';
import type { SnapshotSections } from '../kernel/area.ts';
import { DEFAULT_MARKET_BAND_PPM, MAX_MARKET_BAND_PPM } from '../limits.ts';
import { createMarket } from './market.ts';
import type { Market } from './market.ts';
import { registerOrder, traderOf } from './owner-orders.ts';
import type { SpotState } from './state.ts';
import { Order } from './types.ts';
import type { Side } from './types.ts';

type OrderRow = [
  orderId: number,
  owner: AccountOwner,
  priceTicks: number,
  quantityLots: number,
  remainingLots: number,
  lockedAmount: string,
  acceptedTimeMs: number,
  clientOrderId: string | null,
  /** Written only when the order has filled, so snapshots of unfilled books read as before. */
  quoteFilled?: string,
  feePaid?: string,
  updatedTimeMs?: number,
];

type MarketRow = {
  marketId: number;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  tickSize: string;
  lotSize: string;
  lotBaseMinor: string;
  quoteMinorPerTickLot: string;
  minimumLots: number;
  makerFeePpm: number;
  takerFeePpm: number;
  /** Written only when it differs from DEFAULT_MARKET_BAND_PPM, so older snapshots read the same. */
  bandPpm?: number;
  bids: OrderRow[];
  asks: OrderRow[];
  /** Stop-limit orders waiting for their trigger, oldest first; written only when there are any. */
  stops?: [side: Side, stopTicks: number, ...order: OrderRow][];
};

/**
 * The `markets` section: every market with its resting orders per side in priority order, its band when
 * not the default, and its waiting stop-limit orders when it has any.
 */
export function writeSpotSnapshot(state: SpotState): SnapshotSections {
  return { markets: [...state.markets.values()].sort((a, b) => a.marketId - b.marketId).map(marketRow) };
}

function marketRow(market: Market): MarketRow {
  const bids: OrderRow[] = [];
  const asks: OrderRow[] = [];
  const row = (order: Order): OrderRow => {
    const fields: OrderRow = [
      order.orderId,
      order.owner,
      order.priceTicks,
      order.quantityLots,
      order.remainingLots,
      order.lockedAmount.toString(),
      order.acceptedTimeMs,
      order.clientOrderId ?? null,
    ];
    // The fill totals and time (for the order's one history row, written when it closes) only once it has filled, so
    // a book without partly filled orders writes the same text, and hash, as before orders kept them.
    if (order.quoteFilled !== 0n || order.feePaid !== 0n) {
      fields.push(order.quoteFilled.toString(), order.feePaid.toString(), order.updatedTimeMs);
    }
    return fields;
  };
  market.book.forEachOrder('buy', (order) => bids.push(row(order)));
  market.book.forEachOrder('sell', (order) => asks.push(row(order)));
  const stops = market.stops.map((order): [Side, number, ...OrderRow] => [
    order.side,
    order.stopTicks,
    ...row(order),
  ]);
  return {
    marketId: market.marketId,
    baseCurrencyId: market.baseCurrencyId,
    quoteCurrencyId: market.quoteCurrencyId,
    tickSize: market.tickSize,
    lotSize: market.lotSize,
    lotBaseMinor: market.lotBaseMinor.toString(),
    quoteMinorPerTickLot: market.quoteMinorPerTickLot.toString(),
    minimumLots: market.minimumLots,
    makerFeePpm: market.makerFeePpm,
    takerFeePpm: market.takerFeePpm,
    ...(market.bandPpm === DEFAULT_MARKET_BAND_PPM ? {} : { bandPpm: market.bandPpm }),
    bids,
    asks,
    ...(stops.length === 0 ? {} : { stops }),
  };
}

/** Restores markets and resting orders, and re-creates each order's hold (its locked amount is the hold). */
export function readSpotSnapshot(state: SpotState, document: Readonly<SnapshotSections>): void {
  const orders: Order[] = [];
  for (const row of document.markets as MarketRow[]) restoreMarket(state, row, orders);
  // Owner lists hold orders oldest first, which is ascending id; the book order was restored per side.
  orders.sort((a, b) => a.orderId - b.orderId);
  for (const order of orders) {
    registerOrder(state, order);
    state.ledger.restoreHold(order.hold);
  }
}

function restoreMarket(state: SpotState, row: MarketRow, orders: Order[]): void {
  const market = createMarket(state, {
    marketId: row.marketId,
    baseCurrencyId: row.baseCurrencyId,
    quoteCurrencyId: row.quoteCurrencyId,
    tickSize: row.tickSize,
    lotSize: row.lotSize,
    lotBaseMinor: BigInt(row.lotBaseMinor),
    quoteMinorPerTickLot: BigInt(row.quoteMinorPerTickLot),
    minimumLots: row.minimumLots,
    makerFeePpm: row.makerFeePpm,
    takerFeePpm: row.takerFeePpm,
  });
  if (row.bandPpm !== undefined) {
    invariant(
      Number.isSafeInteger(row.bandPpm) && row.bandPpm >= 0 && row.bandPpm <= MAX_MARKET_BAND_PPM,
      `snapshot market ${row.marketId} band ${row.bandPpm}`,
    );
    market.bandPpm = row.bandPpm;
  }
  const restoreSide = (side: Side, rows: OrderRow[], stopTicks = 0): void => {
    for (const [
      orderId,
      owner,
      priceTicks,
      quantityLots,
      remainingLots,
      lockedAmount,
      acceptedTimeMs,
      clientOrderId,
      quoteFilled,
      feePaid,
      updatedTimeMs,
    ] of rows) {
      const ownerKey = ownerKeyOf(owner);
      invariant(ownerKey !== 0, `snapshot names an invalid owner ${String(owner)}`);
      const trader = traderOf(state, ownerKey);
      const isBuy = side === 'buy';
      const ledger = state.ledger;
      const order = new Order(
        orderId,
        trader,
        market.marketId,
        side,
        'limit',
        priceTicks,
        quantityLots,
        BigInt(lockedAmount),
        clientOrderId ?? undefined,
        acceptedTimeMs,
        trader.changeAccount(ledger, isBuy ? market.quoteCurrencyId : market.baseCurrencyId),
        trader.changeAccount(ledger, isBuy ? market.baseCurrencyId : market.quoteCurrencyId),
      );
      order.remainingLots = remainingLots;
      // Snapshots written before orders kept these start them at zero (their history row then counts only
      // the fills after the snapshot).
      if (quoteFilled !== undefined) order.quoteFilled = BigInt(quoteFilled);
      if (feePaid !== undefined) order.feePaid = BigInt(feePaid);
      if (updatedTimeMs !== undefined) order.updatedTimeMs = updatedTimeMs;
      if (stopTicks === 0) {
        market.book.rest(order);
      } else {
        order.stopTicks = stopTicks;
        market.stops.push(order);
      }
      orders.push(order);
    }
  };
  restoreSide('buy', row.bids);
  restoreSide('sell', row.asks);
  // Each waiting stop order restored in turn, so the stops keep their order.
  for (const [side, stopTicks, ...order] of row.stops ?? []) {
    invariant(stopTicks > 0, `snapshot stop order ${order[0]} has no stop price`);
    restoreSide(side, [order], stopTicks);
  }
}
