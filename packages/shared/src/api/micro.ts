// Seconds (micro) contracts (docs/micro.md): input schemas and reply shapes of /api/microtrade/*. Amounts
// are decimal text in the payable currency; prices decimal text at the market's tick; times milliseconds
// since the epoch. The order view itself (MicroOrderView) and the `closed_microorder` push live in
// socket-events.ts.
import { z } from 'zod';
import type { PriceHead, PriceSample } from './price.ts';
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
  rule_version: string;
  rule: string;
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

export interface MicroStatsDay {
  /** The day, Asia/Shanghai, as YYYY-MM-DD. */
  day: string;
  currency_name: string;
  orders: number;
  wins: number;
  losses: number;
  draws: number;
  voids: number;
  /** The house's result: stakes lost to it minus profits paid by it (decimal text, may be negative). */
  house_pnl: string;
}
