// The replies of the back office's API (/api/backoffice/*) that the console reads, declared once for the
// server that builds them and the web console that shows them. Amounts are decimal strings, times ISO text.
import type { Language } from '../languages.ts';

/** A currency's description per language, as the catalogue stores it. */
export type Descriptions = Partial<Record<Language, string>>;

export interface CurrencyLine {
  id: number;
  code: string;
  name: string;
  scale: number;
  udun_id: number;
  withdraw_min: string;
  withdraw_fee: string;
  display_order: number;
  descriptions: Descriptions;
  logo: string | null;
  is_enabled: boolean;
  chains: string[];
  in_engine: boolean;
}

export interface MarketLine {
  id: number;
  symbol: string;
  base_currency_id: number;
  quote_currency_id: number;
  price_scale: number;
  tick_size: string;
  lot_size: string;
  min_size: string;
  min_notional: string;
  /** Percent, as the catalogue holds it. */
  maker_fee: string;
  taker_fee: string;
  is_display: boolean;
  display_order: number;
  /** What the engine trades at; differs from the catalogue only until the engine has applied a change. */
  engine: {
    maker_fee: string;
    taker_fee: string;
    tick_size: string;
    lot_size: string;
    minimum_lots: number;
  } | null;
  /** The latest journaled index (mark) price and when it was recorded. */
  index_price: string | null;
  index_time: string | null;
}

export interface UserSummary {
  id: number;
  account: string;
  email: string | null;
  phone: string | null;
  review_status: number;
  totp_enabled: boolean;
  created_at: string;
  last_login_at: string | null;
  frozen_trading: boolean;
  frozen_withdrawals: boolean;
}

export interface WithdrawalLine {
  id: number;
  user_id: number;
  account: string;
  currency_id: number;
  currency: string;
  chain: string;
  address: string;
  amount: string;
  fee: string;
  receive: string;
  status: string;
  review_note: string | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
  payout_adapter: string | null;
  payout_error: string | null;
  tx_id: string | null;
  created_at: string;
}

/** A deposit as the back office lists it (funding, and a user's page). */
export interface DepositLine {
  id: number;
  user_id: number;
  account: string;
  currency: string;
  chain: string | null;
  address: string;
  tx_id: string;
  amount: string;
  source: string;
  admin: string | null;
  note: string | null;
  status: string;
  created_at: string;
  credited_at: string | null;
}

/** One session of a user: when it began and ended, and where it came from. */
export interface LoginLine {
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  kind: string;
  active: boolean;
  /** Where it began; null for sessions made before addresses were kept, or not by a log-in. */
  ip: string | null;
  user_agent: string | null;
}
