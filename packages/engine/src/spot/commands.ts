import type { AccountOwner } from '../ledger/accounts.ts';
import type { PairCommand } from '../pairs/commands.ts';
import type { OrderKind, Side, TimeInForce } from './types.ts';

/**
 * Places a spot order for a user or a trading system owner (house, marketMaker), paid from and received
 * into the change wallet. A limit order needs `priceTicks`; a market order has none. A market buy holds
 * `quoteAmountMax` (default: the whole available quote balance) and stops when that is spent, when the book
 * runs out, or at the market's price-protection band, whichever comes first. `timeInForce` (limit orders
 * only, default gtc) makes it immediate-or-cancel, fill-or-kill or post-only.
 */
export type PlaceOrderCommand = {
  type: 'placeOrder';
  owner: AccountOwner;
  marketId: number;
  side: Side;
  kind: OrderKind;
  priceTicks?: number;
  quantityLots: number;
  quoteAmountMax?: bigint;
  clientOrderId?: string;
  timeInForce?: TimeInForce;
  /**
   * Makes a gtc limit order a stop-limit order: it holds its funds at once but enters the book only when a
   * trade of its market is at or above `stopTicks` (a buy) or at or below it (a sell), the last trade
   * price reaching the stop after the order was placed.
   */
  stopTicks?: number;
};

/** Cancels a resting order; only its owner may. */
export type CancelOrderCommand = { type: 'cancelOrder'; owner: AccountOwner; orderId: number };

/** Cancels every resting order of the owner, in one market or (without `marketId`) in all of them. */
export type CancelAllOrdersCommand = { type: 'cancelAllOrders'; owner: AccountOwner; marketId?: number };

export type SpotCommand = PairCommand | PlaceOrderCommand | CancelOrderCommand | CancelAllOrdersCommand;
