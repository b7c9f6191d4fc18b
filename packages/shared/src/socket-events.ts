// Typed socket.io event maps (spec 03 section 9). The event name equals the payload's `type`. Amounts and
// prices are decimal strings, as at the HTTP edge. Public events go to channel rooms a socket subscribed
// to; private events go only to the room of the user whose token the socket proved.

import type { P2pOrderPayload, SellerPayload } from './api/p2p.ts';
import type { ShownPriceKind } from './api/price.ts';

/** [price, amount] as decimal strings. */
export type DepthLevel = [price: string, amount: string];

export interface DaymarketPayload {
  type: 'daymarket';
  symbol: string;
  legal_id: number;
  currency_id: number;
  now_price: string;
  /** Percent change over 24 hours, e.g. "-1.25". */
  change: string;
  high: string;
  low: string;
  /** Base currency volume over 24 hours. */
  volume: string;
  /** Quote currency turnover over 24 hours. */
  amount: string;
  /** The price now again (= now_price), the name the template's clients read. */
  close: string;
  /** The latest price sample's mark and index (docs/price-record.md); null before the first. */
  mark_price: string | null;
  index_price: string | null;
  /** The pair's price by one rule (= now_price): the last trade with a user, else the mark; `price_kind` says which. */
  price: string;
  price_kind: ShownPriceKind;
}

/** A market's price chain head, published once per head interval (docs/price-record.md). */
export interface PriceHeadPayload {
  type: 'price_head';
  symbol: string;
  seq: number;
  time: number;
  hash: string;
}

export interface KlinePayload {
  type: 'kline';
  symbol: string;
  /** Bar period, e.g. "1min", "5min", "1day". */
  period: string;
  /** Bar open time in milliseconds since the epoch (UTC). */
  time: number;
  open: string;
  close: string;
  high: string;
  low: string;
  /** Base currency traded in the bar. */
  volume: string;
  /** The symbol's 24-hour change in percent, as in `daymarket` (not the bar's own change). */
  change: string;
}

export interface MarketDepthPayload {
  type: 'market_depth';
  symbol: string;
  legal_id: number;
  currency_id: number;
  /** Increases by one per message of this symbol, so a client can detect a gap and refetch. */
  seq: number;
  bids: DepthLevel[];
  asks: DepthLevel[];
}

export interface TradeItem {
  id: number;
  /** "YYYY-MM-DD HH:mm:ss" in the chart's time zone, Asia/Shanghai (what the template's clients show). */
  time: string;
  /** Milliseconds since the epoch. */
  time_ms: number;
  price: string;
  amount: string;
  /** The taker's side. */
  direction: 'buy' | 'sell';
}

export interface MarketDetailPayload {
  type: 'market_detail';
  symbol: string;
  legal_id: number;
  currency_id: number;
  seq: number;
  /** The latest trades, newest first. */
  data: TradeItem[];
}

export interface BookEntry {
  price: string;
  number: string;
}

/** The spot book as the trading page shows it: bids (`in`) and asks (`out`) with the last price. */
export interface TransactionPayload {
  type: 'transaction';
  symbol: string;
  legal_id: number;
  currency_id: number;
  seq: number;
  last_price: string;
  in: BookEntry[];
  out: BookEntry[];
}

export const WALLET_TYPES = ['change', 'lever', 'micro', 'ico', 'miner', 'defi'] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

export interface UpdateBalancePayload {
  type: 'update_balance';
  currency_id: number;
  currency_name: string;
  wallet: WalletType;
  balance: string;
  lock_balance: string;
}

export interface LeverTradePayload {
  type: 'lever_trade';
  legal_id: number;
  /** Risk rate in percent; "0" without positions. */
  hazard_rate: string;
  /** Open profit of every holding in the quote currency at the current marks. */
  profits_all: string;
  /** Profit realised by the positions the batch behind this push closed ("0" when none). */
  profits: string;
  caution_money_all: string;
  /** Open positions as JSON text (the template client parses it). */
  trades_all: string;
  /** Pending limit orders as JSON text. */
  trades_entrust: string;
}

export interface MicroOrderView {
  id: number;
  symbol_name: string;
  seconds: number;
  number: string;
  currency_name: string;
  open_price: string;
  end_price: string;
  /** 1 up, 2 down. */
  type: 1 | 2;
  /** 1 running, 3 closed. */
  status: 1 | 3;
  profit_ratio: string;
  remain_milli_seconds: number;
  fact_profits: string;
  fee: string;
}

/**
 * A seconds contract that has just settled, with the recorded prices it was settled on. When several of the
 * user's orders settle in one committed batch, one message carries them all in `orders` (settlement order),
 * and `order` is the last of them.
 */
export interface ClosedMicroOrderPayload {
  type: 'closed_microorder';
  order: MicroOrderView;
  orders?: MicroOrderView[];
}

/**
 * One fill of the user's own spot order, on any pair, to the owner's room only (whatever pair the user has
 * on screen). Amounts are decimal text at the market's precision; the fee in the currency it was taken in.
 */
export interface MyFillPayload {
  type: 'my_fill';
  symbol: string;
  legal_id: number;
  currency_id: number;
  order_id: number;
  trade_id: number;
  side: 'buy' | 'sell';
  /** Whether the order rested in the book (maker) or met it (taker). */
  role: 'maker' | 'taker';
  price: string;
  /** Base currency filled. */
  number: string;
  /** Quote currency paid or received. */
  total: string;
  fee: string;
  fee_currency: string;
  /** Command time of the fill, milliseconds. */
  time: number;
}

export interface PublicEvents {
  daymarket: (payload: DaymarketPayload) => void;
  kline: (payload: KlinePayload) => void;
  market_depth: (payload: MarketDepthPayload) => void;
  market_detail: (payload: MarketDetailPayload) => void;
  transaction: (payload: TransactionPayload) => void;
  price_head: (payload: PriceHeadPayload) => void;
}

export interface PrivateEvents {
  update_balance: (payload: UpdateBalancePayload) => void;
  lever_trade: (payload: LeverTradePayload) => void;
  closed_microorder: (payload: ClosedMicroOrderPayload) => void;
  seller: (payload: SellerPayload) => void;
  p2p_order: (payload: P2pOrderPayload) => void;
  my_fill: (payload: MyFillPayload) => void;
}

export type ServerToClientEvents = PublicEvents & PrivateEvents;
export type PublicEventName = keyof PublicEvents;
export type PrivateEventName = keyof PrivateEvents;
export type EventPayload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

/** The answer to a client request; `message` is translated text on failure. */
export type SocketAck = { type: 'ok'; message: string } | { type: 'error' | '999'; message: string };

export interface ClientToServerEvents {
  /**
   * Prove a session token; the socket then receives that user's private events. Template-era clients send
   * the token (or a user id, which proves nothing) bare; such a socket is also joined to the public channels.
   */
  login: (payload: { token: string } | string, ack?: (reply: SocketAck) => void) => void;
  logout: (ack?: (reply: SocketAck) => void) => void;
  subscribe: (payload: { channel: string }, ack?: (reply: SocketAck) => void) => void;
  unsubscribe: (payload: { channel: string }, ack?: (reply: SocketAck) => void) => void;
}

// ---------------------------------------------------------------- channels

const SYMBOL = '[A-Z0-9]{1,16}/[A-Z0-9]{1,16}';
const PERIOD = '[a-z0-9]{1,8}';
/**
 * Public channels a client may subscribe to:
 * - `daymarket`: 24-hour tickers of every market;
 * - `market:<BASE/QUOTE>`: that market's book, depth and trades (transaction, market_depth, market_detail);
 * - `kline:<BASE/QUOTE>:<period>`: that market's bars of one period.
 * User rooms are not channels: a socket joins its user's room only by proving a token.
 */
export const PUBLIC_CHANNEL = new RegExp(`^(?:daymarket|market:${SYMBOL}|kline:${SYMBOL}:${PERIOD})$`);
export const MAX_CHANNELS_PER_SOCKET = 32;

export function isPublicChannel(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && PUBLIC_CHANNEL.test(value);
}

export const DAYMARKET_CHANNEL = 'daymarket';

export function marketChannel(symbol: string): string {
  return `market:${symbol}`;
}

export function klineChannel(symbol: string, period: string): string {
  return `kline:${symbol}:${period}`;
}
