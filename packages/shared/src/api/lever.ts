// Leveraged contracts against the house (spec 01 sections 2-5, 7, 9; spec 02 section 2.14; spec 03 section 4;
// docs/lever.md and docs/lever-calls.md): input schemas and reply shapes of /api/lever/* and of the lever back
// office. Amounts are decimal text in the quote ("legal") currency, prices decimal text at the market's tick,
// percents decimal text ("12.5" is 12.5 %), times milliseconds since the epoch. The `lever_trade` push is
// declared in socket-events.ts (LeverTradePayload) with the rows below as its JSON text.
import { z } from 'zod';
import { decimalText, id, integer, oneOf, optional, page, text } from '../schema/fields.ts';
import type { MarkIndexFields, ShownPriceKind } from './price.ts';

/** Spec 01 section 9 and spec 02 section 9: lever lists are paged 10 rows a page. */
export const LEVER_PAGE_SIZE = 10;

/** Spec 01 section 9: the multiple chosen when the page opens, when the pair offers it. */
export const LEVER_DEFAULT_MULTIPLE = 10;

/** The risk bar warns when the risk rate is within this many percent points above the threshold. */
export const LEVER_RISK_WARNING_MARGIN = 50;

/** A position's status (spec 01 section 4): 0 pending limit entry, 1 holding, 3 closed, 4 revoked. */
export const LEVER_STATUSES = [0, 1, 3, 4] as const;
export type LeverStatus = (typeof LEVER_STATUSES)[number];

/** 1 long (buy), 2 short (sell). */
export type LeverSide = 1 | 2;

/** Why a position closed: the owner (one or a batch), a stop, or a liquidation. */
export type LeverCloseReason = 'user' | 'batch' | 'stop_loss' | 'take_profit' | 'liquidation';

// ---------------------------------------------------------------------------------------------------------
// Inputs of the user's calls.

/** /lever/deal: one pair. */
export const leverPairInput = z.object({ legal_id: id(), currency_id: id() });

/** /lever/dealall: every open position and pending entry in one quote currency (all quote currencies if absent). */
export const leverDealAllInput = z.object({ legal_id: optional(id()) });

/**
 * /lever/submit: `share` lots of the pair at `multiple`, type 1 long or 2 short, status 1 market (opens at
 * the mark plus the spread) or 0 limit (held until the mark crosses `target_price`).
 */
export const leverSubmitInput = z.object({
  legal_id: id(),
  currency_id: id(),
  multiple: integer({ min: 1, max: 1000 }),
  share: integer({ min: 1, max: 1_000_000 }),
  type: oneOf([1, 2] as const),
  status: oneOf([0, 1] as const),
  // Decimal text parsed at the market's tick once the market is known; required when status is 0.
  target_price: optional(text({ max: 64 })),
});

/** /lever/my_trade: one status, optionally one pair, a page of 10. */
export const leverMyTradeInput = z.object({
  status: oneOf(LEVER_STATUSES),
  legal_id: optional(id()),
  currency_id: optional(id()),
  page: page(),
});

/** /lever/close and /lever/cancel: one position or entry of the caller. */
export const leverIdInput = z.object({ id: id() });

/** /lever/setstop: prices as decimal text; "0" or empty removes that stop. */
export const leverSetStopInput = z.object({
  id: id(),
  target_profit_price: optional(text({ max: 64 })),
  stop_loss_price: optional(text({ max: 64 })),
});

/** /lever/batch_close: 0 all, 1 longs, 2 shorts (every pair). */
export const leverBatchCloseInput = z.object({ type: oneOf([0, 1, 2] as const) });

/** /lever/loss_share: the share of lever accounts that lost money over the last `days` (default 90). */
export const leverLossShareInput = z.object({ days: optional(integer({ min: 1, max: 365 })) });

// ---------------------------------------------------------------------------------------------------------
// Replies.

/** One position or limit entry, as lists, the push and the back office show it (spec 02 section 3). */
export interface LeverTradeRow {
  id: number;
  /** 1 long, 2 short. */
  type: LeverSide;
  status: LeverStatus;
  symbol: string;
  legal_id: number;
  currency_id: number;
  /** Quote and base currency names. */
  legal: string;
  currency: string;
  /** Decimals of the pair's prices and of the quote currency's amounts. */
  price_scale: number;
  legal_scale: number;
  share: number;
  multiple: number;
  /** share x lever_share_num (base currency). */
  number: string;
  /** The mark the entry was priced on (for a limit entry: its target). */
  origin_price: string;
  /** The entry price: origin_price plus the spread for a long, minus it for a short. */
  price: string;
  /** The mark now (holding), or the mark it closed at (closed). */
  update_price: string;
  /** Limit entries only: the mark that opens it. */
  target_price: string | null;
  target_profit_price: string | null;
  stop_loss_price: string | null;
  /** Margin taken at open (entry price x number / multiple). */
  origin_caution_money: string;
  /** Margin left after overnight charges. */
  caution_money: string;
  trade_fee: string;
  overnight_money: string;
  /** Holding: at the current mark; closed: at the close mark (before fees, see paid_back); otherwise "0". */
  profits: string;
  /** The mark at which the account would be liquidated, other marks held fixed (holding only). */
  liquidation_price: string | null;
  /** The rule values copied onto the position at open. */
  spread: string;
  lever_trade_fee: string;
  overnight: string;
  /** Submitted, opened (transaction_time), closed or revoked (complete_time; handle_time the same). */
  create_time: number;
  transaction_time: number | null;
  complete_time: number | null;
  handle_time: number | null;
  close_reason: LeverCloseReason | null;
  /** Closed: what was paid back to the lever wallet; the insurance fund's share of it. */
  paid_back: string | null;
  insurance_paid: string | null;
}

/** One multiple offered by a pair (the template's `multiple.muit`). */
export interface LeverMultipleOption {
  value: number;
}

/** One lot preset (the template's `multiple.share`). */
export interface LeverSharePreset {
  value: number;
}

/** A pair's rule values, as they apply to new positions. */
export interface LeverPairRules {
  enabled: boolean;
  lever_share_num: string;
  /** Percent of price added for a long, taken for a short. */
  spread: string;
  /** Percent of the contract value. */
  lever_trade_fee: string;
  /** Percent of the contract value per day. */
  overnight: string;
  /** Risk rate (percent) at or below which an account is liquidated. */
  liquidation_threshold: string;
  /** Percent of the liquidated contract value paid to the insurance fund (disclosed; "0" when none). */
  liquidation_fee: string;
  /** The house's net exposure limit (base currency, absolute); "0" when none. */
  exposure_limit: string;
  /** The house's net exposure now: longs minus shorts (base currency). */
  exposure: string;
}

/** The risk of one quote currency's account. */
export interface LeverRisk {
  legal_id: number;
  legal_name: string;
  /** Risk rate in percent, "0" without positions. */
  hazard_rate: string;
  liquidation_threshold: string;
  /** The rate at which the bar warns (threshold + LEVER_RISK_WARNING_MARGIN). */
  warning_rate: string;
  profits_all: string;
  caution_money_all: string;
  origin_caution_money_all: string;
  lever_balance: string;
}

/**
 * What the order panel needs to run the shared formulas (`@fairex/engine/calc`: leverEntryTicks,
 * leverOrderQuote, leverLiquidationTicks) exactly as the engine will: the market's units, the pair's rules in
 * the engine's units (ppm, bp), and the caller's cross-margin account in the quote currency as integer minor
 * units (null for a visitor). `rest_equity_minor` is the account's equity with this pair's mark term taken
 * out (balance + margins + other pairs' profits - the signed entry values of this pair's holdings).
 */
export interface LeverCalcTerms {
  /** Price per tick, decimal text at the market's price scale. */
  tick_size: string;
  price_scale: number;
  legal_scale: number;
  quote_minor_per_tick_lot: string;
  lots_per_share: number;
  spread_ppm: number;
  fee_ppm: number;
  threshold_bp: number;
  account: {
    balance_minor: string;
    origin_margin_minor: string;
    rest_equity_minor: string;
    /** Longs minus shorts of this pair's holdings, in lots. */
    net_lots: number;
    /** The threshold in force on the account (the highest copied onto its holdings; 0 without). */
    threshold_bp: number;
  } | null;
}

/** /lever/deal: the leverage page's read of one pair. */
export interface LeverDealReply extends MarkIndexFields {
  lever_available: boolean;
  symbol: string;
  legal_id: number;
  currency_id: number;
  legal_name: string;
  currency_name: string;
  /** The last trade with a user, else the recorded mark (`price_kind` says which); null with neither. */
  last_price: string | null;
  price_kind?: ShownPriceKind;
  /** The book as [price, amount] pairs (spec 01 section 3). */
  lever_transaction: { in: [string, string][]; out: [string, string][] };
  multiple: { muit: LeverMultipleOption[]; share: LeverSharePreset[] };
  lever_share_limit: { min: number; max: number };
  rules: LeverPairRules | null;
  calc: LeverCalcTerms | null;
  /** The caller's lever wallet in the quote currency (available), null for a visitor. */
  user_lever: string | null;
  /** Available plus locked (margins and held fees). */
  all_levers: string | null;
  /** The caller's open positions in this pair. */
  my_transaction: LeverTradeRow[];
  risk: LeverRisk | null;
  ExRAte: null;
}

/** /lever/dealall: the caller's positions and entries, with the risk of each quote currency. */
export interface LeverDealAllReply {
  risks: LeverRisk[];
  trades_all: LeverTradeRow[];
  trades_entrust: LeverTradeRow[];
}

/** /lever/submit: the new position (status 1) or entry (status 0). */
export interface LeverSubmitReply {
  trade: LeverTradeRow;
}

/** /lever/close, /lever/cancel, /lever/setstop: the row after the change. */
export interface LeverChangeReply {
  trade: LeverTradeRow;
}

/** /lever/batch_close: how many positions closed. */
export interface LeverBatchCloseReply {
  closed: number;
  trades: LeverTradeRow[];
}

/**
 * /lever/loss_share: recorded closed positions grouped by account over `days` (demo accounts left out).
 * With more than zero and fewer than `minimum_accounts` accounts (PUBLIC_MINIMUM_ACCOUNTS) the counts and the
 * share are null and `below_minimum` is true: the screens say "fewer than 20 accounts".
 */
export interface LeverLossShareReply {
  days: number;
  /** Accounts with at least one position closed in the window; null below the minimum. */
  accounts: number | null;
  /** Of those, accounts whose closed positions' profits net of fees and overnight charges are below zero. */
  losing_accounts: number | null;
  /** losing_accounts / accounts in percent, one decimal; null without accounts or below the minimum. */
  losing_share: string | null;
  minimum_accounts: number;
  below_minimum: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// The back office (/api/backoffice/lever/*). Percents as decimal text, amounts in the quote currency.

export const LEVER_ADMIN_PER_PAGE = 50;

export const leverAdminPairInput = z.object({
  market_id: id(),
  enabled: oneOf([0, 1] as const),
  /** Offered multiples, e.g. [5, 10, 20]. */
  multiples: z
    .array(integer({ min: 1, max: 1000 }))
    .min(1)
    .max(16),
  /** Lot presets shown as buttons. */
  share_presets: optional(z.array(integer({ min: 1, max: 1_000_000 })).max(16)),
  min_share: integer({ min: 1, max: 1_000_000 }),
  /** 0: no maximum. */
  max_share: integer({ min: 0, max: 1_000_000 }),
  lever_share_num: decimalText({ positive: true }),
  spread: decimalText(),
  fee: decimalText(),
  overnight: decimalText(),
  liquidation_threshold: decimalText(),
  /** The disclosed liquidation fee to the insurance fund, percent of the liquidated contract value. */
  liquidation_fee: decimalText(),
  /** The house's net exposure limit in base currency; "0" closes the pair to positions adding exposure. */
  exposure_limit: decimalText(),
});

export const leverAdminListInput = z.object({
  page: page(),
  market_id: optional(id()),
  user_id: optional(id()),
});

export const leverAdminFundInput = z.object({
  currency_id: id(),
  amount: decimalText({ positive: true }),
  note: optional(text({ max: 200 })),
});

/** One pair's settings as the back office shows them. */
export interface LeverAdminPair extends LeverPairRules {
  market_id: number;
  symbol: string;
  multiples: number[];
  share_presets: number[];
  min_share: number;
  max_share: number;
  /** The house's open exposure now: longs and shorts, entries included (base currency). */
  longs: string;
  shorts: string;
}

/** The insurance fund of one quote currency. */
export interface LeverInsuranceFund {
  currency_id: number;
  currency_name: string;
  balance: string;
}

/** One movement of the insurance fund (a funding, a shortfall paid, a liquidation fee received). */
export interface LeverInsuranceMovement {
  seq: number;
  time: number;
  currency_name: string;
  /** Signed: positive into the fund. */
  amount: string;
  kind: 'funding' | 'shortfall' | 'liquidation_fee';
  position_id: number | null;
  user_id: number | null;
}

/** Back office /lever/pairs: every lever pair's rules. */
export interface LeverAdminPairsReply {
  list: LeverAdminPair[];
}

/** Back office /lever/insurance: each insurance fund and its movements. */
export interface LeverInsuranceReply {
  funds: LeverInsuranceFund[];
  movements: LeverInsuranceMovement[];
}

/** One liquidation: the account, the mark that crossed, the risk rate and the threshold it crossed. */
export interface LeverLiquidationRow {
  seq: number;
  time: number;
  user_id: number;
  legal_name: string;
  symbol: string;
  mark: string;
  hazard_rate: string;
  threshold: string;
  positions: number;
  paid_back: string;
  shortfall: string;
}
