// The market calls' replies (spec 01 section 7, spec 02 section 7): the quotation lists and the coin list,
// declared once for the server that builds them and the clients that read them. Prices and amounts are
// decimal text; an unknown price is "". Also the chart's bar calls: their inputs and the bar they answer with.
import { z } from 'zod';
import { id, integer, optional, text } from '../schema/fields.ts';
import type { PriceKind, ShownPriceKind } from './price.ts';

/** One pair of a quotation group. Prices and amounts are decimal text; an unknown price is "". */
export interface Quotation {
  id: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  legal_name: string;
  currency_name: string;
  logo: string;
  /** The last trade with a user, else the recorded mark (`price_kind` says which); "" with neither. */
  now_price: string;
  /** 24-hour change in percent, two decimals. */
  change: string;
  high: string;
  low: string;
  /** 24-hour volume in the base currency. */
  volume: string;
  /** 24-hour turnover in the quote currency. */
  amount: string;
  /** 1 shown on the board and in market lists, 0 hidden. */
  is_display: 0 | 1;
  price_scale: number;
  number_scale: number;
  /** Base currency per leveraged lot. */
  lever_share_num: string;
  /** Leverage entry spread, percent of the price. */
  spread: string;
  /** Leverage opening fee, percent of the contract value. */
  lever_trade_fee: string;
  /** Whether spot orders are matched on this pair (the template's two names for it). */
  open_transaction: 0 | 1;
  open_coin_trade: 0 | 1;
  /** Whether leveraged positions open on this pair (its lever settings are enabled). */
  open_lever: 0 | 1;
  /** Whether seconds contracts open on this pair (a seconds option and a payable currency's cap on it). */
  open_microtrade: 0 | 1;
  /** The latest price sample's mark and index; null before the first. */
  mark_price: string | null;
  index_price: string | null;
  /** The pair's price by one rule: the last trade with a user, else the mark (PriceKindFields). */
  price: string;
  price_kind: PriceKind;
}

export interface QuotationGroup {
  /** The quote currency's id and code ("USDT"). */
  id: number;
  name: string;
  quotation: Quotation[];
}

/** One entry of `coin_list` (spec 01 section 3, "market entry"). */
export interface CoinListEntry {
  id: number;
  /** Base currency code. */
  name: string;
  symbol: string;
  legal_id: number;
  currency_id: number;
  /** The last trade with a user, else the recorded mark (`price_kind` says which); "" with neither. */
  last_price: string;
  price_kind?: ShownPriceKind;
  /** 24-hour change in percent, two decimals. */
  proportion: string;
  /** Direction of the 24-hour change: 'up', 'down' or 'flat'. */
  type: 'up' | 'down' | 'flat';
  high: string;
  low: string;
  volume: string;
  amount: string;
}

/** The largest time a bar call accepts (milliseconds in the year 2286, or seconds). */
export const BAR_TIME_MAX = 9_999_999_999_999;

/** GET /currency/new_timeshar: a symbol's bars of one period, optionally from and to a time. */
export const timesharInput = z.object({
  symbol: text({ max: 40 }),
  period: text({ max: 16 }),
  from: optional(integer({ max: BAR_TIME_MAX })),
  to: optional(integer({ max: BAR_TIME_MAX })),
});

/** /currency/new_tradehistory: a pair's latest trades. */
export const tradeHistoryInput = z.object({
  legal_id: id(),
  currency_id: id(),
  limit: optional(integer({ min: 1, max: 100 })),
});

/** GET /currency/detail: one currency. */
export const currencyDetailInput = z.object({ id: id() });

/** `currency/detail`: a currency's introduction, the description in the request language (else English). */
export interface CurrencyDetail {
  id: number;
  code: string;
  name: string;
  desc: string;
}

/** One bar of `currency/new_timeshar`, inside its `{code, msg, data}` reply. */
export interface ChartBar {
  /** Open time in seconds since the epoch (the Huobi-style `id` the template's client keys bars on). */
  id: number;
  /** Open time in milliseconds since the epoch. */
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Base currency traded in the bar. */
  volume: string;
  /** Quote currency traded in the bar. */
  amount: string;
  /** 'trades' for bars of this exchange's trades; otherwise where backfilled history came from. */
  source: string;
}
