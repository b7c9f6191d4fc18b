// Seconds (micro) contracts (docs/micro.md): input schemas and reply shapes of /api/microtrade/*. Amounts
// are decimal text in the payable currency; prices decimal text at the market's tick; times milliseconds
// since the epoch. The order view itself (MicroOrderView) and the `closed_microorder` push live in
// socket-events.ts.
import { z } from 'zod';
import type { PriceHead, PriceSample } from './price.ts';
import type { MicroOrderView } from '../socket-events.ts';
import { decimalText, id, integer, oneOf, optional, page, text } from '../schema/fields.ts';

export const MICRO_LIST_LIMIT = 20;

export const microSubmitInput = z.object({
  match_id: id(),
  currency_id: id(),
  type: oneOf([1, 2] as const),
  seconds: integer({ min: 1, max: 86_400 }),
  number: decimalText({ positive: true }),
});

export const microListsInput = z.object({
  page: page(),
  /** 1 running, 3 closed; absent: both. */
  status: optional(oneOf([1, 3] as const)),
  match_id: optional(id()),
  limit: optional(integer({ min: 1, max: MICRO_LIST_LIMIT })),
});

export const microProofInput = z.object({ id: id() });

export const microStatsInput = z.object({ days: optional(integer({ min: 1, max: 90 })) });

export const microSymbolInput = z.object({ symbol: optional(text({ max: 40 })) });

/**
 * One order of /api/microtrade/lists: the pushed view, and what the lists show beside it - when it was
 * accepted and expires (ms), its result, and the part of its fee returned (all of it on a void order).
 */
export type MicroOrderListItem = MicroOrderView & {
  match_id: number;
  outcome: 'win' | 'loss' | 'draw' | 'void' | null;
  void_reason: 'noOpenSample' | 'staleOpen' | 'staleEnd' | null;
  created_time: number;
  expiry_time: number;
  /** Decimal text; zero while running and on any result but void. */
  fee_refund: string;
};

/** A seconds option: duration and the profit ratio in percent (decimal text, e.g. "85" or "12.5"). */
export interface MicroSecondsOption {
  seconds: number;
  profit_ratio: string;
}

export interface MicroSecondsReply {
  seconds: MicroSecondsOption[];
  /** The preset stakes of the default payable currency. */
  numbers: { number: string }[];
}

export interface MicroPayableCurrency {
  id: number;
  name: string;
  /** Preset stakes. */
  micro_numbers: { number: string }[];
  /** The fee in percent of the stake, decimal text. */
  micro_trade_fee: string;
  micro_min: string;
  micro_max: string;
  max_open_orders: number;
  /** The user's micro wallet (null for a visitor). */
  user_wallet: { micro_balance: string; lock_micro_balance: string } | null;
}

/** The recorded sample an order opened or ended on, as the price record serves it. */
export interface MicroProofSample {
  seq: number;
  time: number;
  price: string | null;
  stale: boolean;
  hash: string;
}

export interface MicroProof {
  id: number;
  symbol: string;
  /** fairex-micro-v2: settles on the samples' index; fairex-micro-v1 (older orders): on their mark. */
  rule_version: string;
  rule: string;
  /** Which recorded price `open.price` and `end.price` are, and the outcome compares. */
  settles_on: 'index' | 'mark';
  /** True when the samples' sources include the simulator: the prices are simulated (a demo). */
  simulated_prices: boolean;
  /** 1 up, 2 down. */
  type: 1 | 2;
  seconds: number;
  profit_ratio: string;
  number: string;
  fee: string;
  currency_name: string;
  accepted_time: number;
  expiry_time: number;
  max_sample_age_ms: number;
  outcome: 'win' | 'loss' | 'draw' | 'void';
  void_reason: 'noOpenSample' | 'staleOpen' | 'staleEnd' | null;
  payout: string;
  fee_refund: string;
  open: MicroProofSample | null;
  end: MicroProofSample | null;
  /** The chain from the open sample up to the first published head covering the end sample (null while none). */
  proof: { head: PriceHead; samples: PriceSample[] } | null;
}

/**
 * One day of the public seconds-contract figures. A day whose orders came from more than zero and fewer
 * than PUBLIC_MINIMUM_ACCOUNTS accounts (demo accounts left out) publishes no count and no house result:
 * they are null and `below_minimum` is true (docs/limits.md, "Public figures").
 */
export interface MicroStatsDay {
  /** The day, Asia/Shanghai, as YYYY-MM-DD. */
  day: string;
  currency_name: string;
  orders: number | null;
  wins: number | null;
  losses: number | null;
  draws: number | null;
  voids: number | null;
  /** The house's result: stakes lost to it minus profits paid by it (decimal text, may be negative). */
  house_pnl: string | null;
  minimum_accounts: number;
  below_minimum: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// The back office of seconds contracts (/api/backoffice/micro/*; docs/micro.md, "Back office"). Ratios and
// fees in basis points (1 % = 100), as the engine holds them; amounts decimal text in the payable currency.

export const MICRO_ADMIN_ORDERS_PER_PAGE = 50;

export const microAdminSecondsInput = z.object({
  options: z
    .array(
      z.object({
        seconds: integer({ min: 1, max: 86_400 }),
        profit_ratio_bp: integer({ min: 0, max: 100_000 }),
      }),
    )
    .min(1)
    .max(32),
});

export const microAdminCurrencyInput = z.object({
  currency_id: id(),
  fee_bp: integer({ min: 0, max: 10_000 }),
  min: decimalText({ positive: true }),
  max: decimalText({ positive: true }),
  presets: z.array(decimalText({ positive: true })).max(16),
  /** 0 closes the currency to new orders; running ones still settle. */
  max_open_orders: integer({ min: 0, max: 10_000 }),
});

export const microAdminCapInput = z.object({
  market_id: id(),
  currency_id: id(),
  /** The house's worst case per expiry second; 0 closes the pair. */
  exposure_cap: decimalText(),
});

export const microAdminStalenessInput = z.object({
  max_sample_age_ms: integer({ min: 1, max: 600_000 }),
});

export const microAdminFundInput = z.object({
  currency_id: id(),
  amount: decimalText({ positive: true }),
  note: optional(text({ max: 200 })),
});

export const microAdminOrdersInput = z.object({
  page: page(),
  user_id: optional(id()),
  market_id: optional(id()),
  outcome: optional(oneOf(['win', 'loss', 'draw', 'void'] as const)),
  /** Settled at or after / before, milliseconds since the epoch. */
  from: optional(integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
  to: optional(integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
});

export const microAdminProofInput = z.object({ id: id() });

export interface MicroAdminConfig {
  seconds: { seconds: number; profit_ratio_bp: number }[];
  currencies: {
    currency_id: number;
    code: string;
    fee_bp: number;
    min: string;
    max: string;
    presets: string[];
    max_open_orders: number;
  }[];
  caps: { market_id: number; symbol: string; currency_id: number; code: string; exposure_cap: string }[];
  max_sample_age_ms: number;
  /** What the forms offer: the engine's pairs and currencies. */
  markets: { id: number; symbol: string; quote_currency_id: number }[];
  all_currencies: { id: number; code: string; scale: number }[];
}

export interface MicroReserveLine {
  currency_id: number;
  code: string;
  /** The house's micro wallet: free, and held for running orders' possible profits. */
  available: string;
  held: string;
  /** The house's change wallet, where funding comes from. */
  change_available: string;
}

/** A movement of the reserve that is not an order's: money put in (or taken out) by the house. */
export interface MicroReserveFunding {
  transfer_id: number;
  currency_id: number;
  code: string;
  /** Positive into the reserve. */
  amount: string;
  memo: string | null;
  /** Command time, milliseconds. */
  time: number;
}

/** GET /backoffice/micro/reserve */
export interface MicroReserveReply {
  list: MicroReserveLine[];
  /** The latest fundings, newest first (at most MICRO_RESERVE_FUNDINGS_SHOWN). */
  fundings: MicroReserveFunding[];
}

export const MICRO_RESERVE_FUNDINGS_SHOWN = 20;

export interface MicroAdminOrder {
  id: number;
  user_id: number;
  match_id: number;
  symbol_name: string;
  currency_name: string;
  type: 1 | 2;
  seconds: number;
  number: string;
  fee: string;
  profit_ratio_bp: number;
  outcome: 'win' | 'loss' | 'draw' | 'void';
  void_reason: 'noOpenSample' | 'staleOpen' | 'staleEnd' | null;
  payout: string;
  open_price: string;
  end_price: string;
  created_time: number;
  expiry_time: number;
  settled_time: number;
  /** The back office's copy of the proof (any user's order) and the user's own public call. */
  proof_url: string;
  public_proof_url: string;
}

// ---------------------------------------------------------------------------------------------------------
// The user's own orders as CSV, with each settled order's proof fields (GET /api/microtrade/export).

/** The most orders one export holds, newest first; `truncated` says when older ones were left out. */
export const MICRO_EXPORT_LIMIT = 5_000;

export const microExportInput = z.object({
  /** One pair only; absent: every pair. */
  match_id: optional(id()),
});

export interface MicroExportReply {
  /** A file name for the download, e.g. "fairex-seconds-orders-2026-12-07.csv". */
  filename: string;
  /** RFC 4180 text: a header row, then one row per order, amounts and prices as decimal text. */
  csv: string;
  rows: number;
  truncated: boolean;
}
