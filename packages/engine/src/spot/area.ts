// The spot area: markets, order books, limit and market orders, matching and settlement. Order funds are
// ledger holds (area 'spot', ref: the order id), re-created from the orders' locked amounts on restore.
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN, frozenBy } from '../kernel/freezes.ts';
import { ownerKeyOf } from '../ledger/accounts.ts';
import type { AccountOwner } from '../ledger/accounts.ts';
import { MAX_DEPTH_LEVELS } from '../limits.ts';
import { cancelAllOrders, cancelOrder } from './cancel-order.ts';
import { addPair } from '../pairs/add-pair.ts';
import type { AddMarketCommand, SetMarketBandCommand, SetMarketFeesCommand } from '../pairs/commands.ts';
import type { PairView } from '../pairs/pair.ts';
import type { PairQueries } from '../pairs/queries.ts';
import { pairQueries } from '../pairs/queries.ts';
import { setPairBand } from '../pairs/set-band.ts';
import { setPairFees } from '../pairs/set-fees.ts';
import type { CancelAllOrdersCommand, CancelOrderCommand, PlaceOrderCommand } from './commands.ts';
import { checkSpotInvariants } from './invariants.ts';
import { openOrderViews, orderView } from './owner-orders.ts';
import { bandLimitTicks, placeOrder } from './place-order.ts';
import { SpotReasonCode } from './reason-codes.ts';
import { SpotResultCode } from './result-codes.ts';
import { readSpotSnapshot, writeSpotSnapshot } from './snapshot.ts';
import { SpotState } from './state.ts';
import type { Depth, OrderView, Side } from './types.ts';

/** A pair's specification as `engine.spot.market(id)` answers it (pairs/pair.ts). */
export type MarketView = PairView;

export type SpotQueries = {
  openOrders(owner: AccountOwner, marketId?: number): OrderView[];
  order(orderId: number): OrderView | undefined;
  /** Aggregated depth, best prices first: [priceTicks, quantityLots] per level, at most 1,000 levels. */
  depth(marketId: number, levels: number): Depth;
  bestPrices(marketId: number): { bidTicks: number; askTicks: number } | undefined;
  /**
   * The price-protection limit a market order on `side` would get if it arrived now: the worst price it
   * may fill at (0: no band, or no reference price). For the order form's estimate.
   */
  marketBandLimit(marketId: number, side: Side): number;
} & PairQueries;

export const spotArea = defineArea({
  name: 'spot',
  commands: {
    addMarket: command<SpotState, AddMarketCommand>(addPair),
    setMarketFees: command<SpotState, SetMarketFeesCommand>(setPairFees),
    setMarketBand: command<SpotState, SetMarketBandCommand>(setPairBand),
    placeOrder: command<SpotState, PlaceOrderCommand>(placeOrder, (c) => c.owner),
    cancelOrder: command<SpotState, CancelOrderCommand>(cancelOrder, (c) => c.owner),
    cancelAllOrders: command<SpotState, CancelAllOrdersCommand>(cancelAllOrders, (c) => c.owner),
  },
  freezes: {
    addMarket: NOT_FROZEN,
    setMarketFees: NOT_FROZEN,
    setMarketBand: NOT_FROZEN,
    placeOrder: frozenBy<SpotState, PlaceOrderCommand>(['trading'], (c) => c.owner),
    cancelOrder: NOT_FROZEN,
    cancelAllOrders: NOT_FROZEN,
  },
  createState: (setup) => new SpotState(setup),
  queries: (state) => spotQueries(state),
  writeSnapshot: writeSpotSnapshot,
  readSnapshot: readSpotSnapshot,
  sections: ['markets'],
  rebuildsHolds: true,
  // Its orders are its holds (Order.listedByArea): every open one between two commands rests or waits for
  // its stop, and so is in the order index.
  forEachHold: (state, visit) => {
    for (const order of state.orders.values()) visit(order);
  },
  checkInvariants: checkSpotInvariants,
  bigintFields: [
    'quoteAmountMax',
    'quoteMinorPerTickLot',
    'lotBaseMinor',
    'holdAmount',
    'lockedAmount',
    'releasedAmount',
    'baseAmount',
    'quoteAmount',
    'makerFee',
    'takerFee',
    'quoteFilled',
    'feePaid',
  ],
  // Orders and cancels are most of a busy exchange's journal: compact lines (kernel/journal-form.ts).
  journalForms: [
    {
      type: 'placeOrder',
      tag: 'p',
      fields: [
        { name: 'owner', kind: 'owner' },
        { name: 'marketId', kind: 'int' },
        { name: 'side', kind: 'enum', values: ['buy', 'sell'] },
        { name: 'kind', kind: 'enum', values: ['limit', 'market'] },
        { name: 'priceTicks', kind: 'int', optional: true },
        { name: 'quantityLots', kind: 'int' },
        { name: 'quoteAmountMax', kind: 'bigint', optional: true },
        { name: 'clientOrderId', kind: 'token', optional: true },
        { name: 'timeInForce', kind: 'enum', values: ['gtc', 'ioc', 'fok', 'postOnly'], optional: true },
        { name: 'stopTicks', kind: 'int', optional: true },
      ],
    },
    {
      type: 'cancelOrder',
      tag: 'c',
      fields: [
        { name: 'owner', kind: 'owner' },
        { name: 'orderId', kind: 'int' },
      ],
    },
    {
      type: 'cancelAllOrders',
      tag: 'a',
      fields: [
        { name: 'owner', kind: 'owner' },
        { name: 'marketId', kind: 'int', optional: true },
      ],
    },
  ],
  resultCodes: SpotResultCode,
  reasonCodes: SpotReasonCode,
  stats: (state) => ({ openOrders: state.orders.size }),
});

function spotQueries(state: SpotState): SpotQueries {
  return {
    openOrders(owner, marketId) {
      const ownerKey = ownerKeyOf(owner);
      return ownerKey === 0 ? [] : openOrderViews(state, ownerKey, marketId);
    },
    order(orderId) {
      const order = state.orders.get(orderId);
      return order === undefined ? undefined : orderView(order);
    },
    depth(marketId, levels) {
      const market = state.markets.get(marketId);
      const count = Math.max(0, Math.min(Math.floor(levels), MAX_DEPTH_LEVELS));
      return market === undefined || !(count > 0) ? { bids: [], asks: [] } : market.book.depth(count);
    },
    bestPrices(marketId) {
      const market = state.markets.get(marketId);
      return market === undefined
        ? undefined
        : { bidTicks: market.book.bestBidTicks(), askTicks: market.book.bestAskTicks() };
    },
    marketBandLimit(marketId, side) {
      const market = state.markets.get(marketId);
      if (market === undefined) return 0;
      return bandLimitTicks(state.markTicks(marketId), market, side);
    },
    ...pairQueries(state.markets),
  };
}
