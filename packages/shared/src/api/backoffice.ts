// The back office's API (/api/backoffice/*): the input schemas the server validates with and the replies the
// console reads, declared once for the server that builds them and the web console that shows them. Amounts
// are decimal strings, times ISO text. The seconds contracts' calls are in micro.ts, the run-time settings'
// values are checked by each setting's own schema (server admin/settings.ts).
import { z } from 'zod';
import type { Paged } from '../envelope.ts';
import type { Language } from '../languages.ts';
import type { WalletType } from '../socket-events.ts';
import { decimalText, id, integer, note, oneOf, optional, page, text } from '../schema/fields.ts';
import { authenticatorCode, flag, httpsUrl, perLanguage, translations } from './backoffice-fields.ts';
import { ADMIN_WITHDRAWAL_STATUSES } from './wallet.ts';

// ---------------------------------------------------------------------------------------------------------
// Inputs

/** The SQL catalogue keeps scales up to 12 (9.2 million whole coins fit a signed 64-bit amount). */
export const MAX_CATALOG_SCALE = 12;
/** A currency's description per language, at most this many characters. */
export const CURRENCY_DESCRIPTION_MAX = 5_000;
/** The roles an administrator may be created with (the server's permission model gives each its rights). */
export const BACKOFFICE_ADMIN_ROLES = ['admin', 'reviewer'] as const;
export type BackofficeAdminRole = (typeof BACKOFFICE_ADMIN_ROLES)[number];
/** What the custody callback log records a callback as. */
export const CALLBACK_OUTCOMES = [
  'credited',
  'duplicate',
  'noted',
  'withdrawal_completed',
  'withdrawal_failed',
  'refused',
] as const;

const currencyCode = () =>
  text({ max: 16 }).pipe(z.string().regex(/^[A-Z0-9]{1,16}$/, { message: 'backoffice.currency_code' }));
/** Fees in percent, decimal text (the server checks their range). */
const percent = () => decimalText();
/** A display or sort position. */
const order = () => integer({ min: -1_000_000, max: 1_000_000 });

/** One record by id (withdrawal decisions, a user, a news item, an administrator, a real-name submission). */
export const backofficeIdInput = z.object({ id: id() });
/** One record by id, with the reason the user or the audit log is given. */
export const backofficeReasonInput = z.object({ id: id(), reason: note({ max: 500 }) });
/** A call without fields (second-factor enrolment, log-out). */
export const backofficeEmptyInput = z.object({});

/** /currencies/create */
export const currencyCreateInput = z.object({
  id: integer({ min: 1, max: 65_535 }),
  code: currencyCode(),
  name: text({ max: 100 }),
  scale: integer({ min: 0, max: MAX_CATALOG_SCALE }),
  udun_id: integer({ min: -1 }),
  withdraw_min: decimalText(),
  withdraw_fee: decimalText(),
  display_order: optional(order()),
  descriptions: optional(perLanguage(CURRENCY_DESCRIPTION_MAX)),
});

/** /currencies/update: the id and the fields to change. */
export const currencyUpdateInput = z.object({
  id: id(),
  name: optional(text({ max: 100 })),
  udun_id: optional(integer({ min: -1 })),
  withdraw_min: optional(decimalText()),
  withdraw_fee: optional(decimalText()),
  display_order: optional(order()),
  is_enabled: optional(flag()),
  descriptions: optional(perLanguage(CURRENCY_DESCRIPTION_MAX)),
});

/** /markets/create */
export const marketCreateInput = z.object({
  id: integer({ min: 1, max: 65_535 }),
  base_currency_id: id(),
  quote_currency_id: id(),
  price_scale: integer({ min: 0, max: MAX_CATALOG_SCALE }),
  tick_size: decimalText({ positive: true }),
  lot_size: decimalText({ positive: true }),
  min_size: decimalText({ positive: true }),
  min_notional: optional(decimalText()),
  maker_fee: percent(),
  taker_fee: percent(),
  is_display: optional(flag()),
  display_order: optional(order()),
});

/** /markets/update: the id and the fields to change (fees reach the engine by command). */
export const marketUpdateInput = z.object({
  id: id(),
  maker_fee: optional(percent()),
  taker_fee: optional(percent()),
  is_display: optional(flag()),
  display_order: optional(order()),
  min_notional: optional(decimalText()),
});

/** /settings/apply: a setting's key, the row it applies to, and its values (checked by the setting's schema). */
export const settingApplyInput = z.object({
  key: text({ max: 64 }),
  target_id: id(),
  values: z.record(z.string(), z.unknown()),
});

/** /news/categories/update */
export const newsCategoryUpdateInput = z.object({
  id: id(),
  names: optional(perLanguage(100)),
  sort_order: optional(order()),
  is_visible: optional(flag()),
});

/** /news/items: a page, optionally of one category or matching a text. */
export const newsItemListInput = z.object({
  category_id: optional(id()),
  q: optional(text({ max: 100 })),
  page: page(),
});

const newsItemFields = {
  category_id: id(),
  link_url: optional(httpsUrl()),
  sort_order: optional(order()),
  is_published: optional(flag()),
  translations: translations(),
};

/** /news/items/create */
export const newsItemCreateInput = z.object(newsItemFields);
/** /news/items/update */
export const newsItemUpdateInput = z.object({ id: id(), ...newsItemFields });
/** /news/items/publish */
export const newsItemPublishInput = z.object({ id: id(), published: flag() });

/** /withdrawals: a page, optionally of one state or one user. */
export const withdrawalListInput = z.object({
  status: optional(oneOf(ADMIN_WITHDRAWAL_STATUSES)),
  user_id: optional(id()),
  page: page(),
});
/** /withdrawals/reject: the reason the user is shown. */
export const withdrawalRejectInput = z.object({ id: id(), reason: note({ max: 200 }) });
/** /withdrawals/confirm: the sandbox payout's transaction id. */
export const withdrawalConfirmInput = z.object({ id: id(), tx_id: text({ max: 128 }) });
/** /deposits: a page, optionally of one user. */
export const depositListInput = z.object({ user_id: optional(id()), page: page() });
/** /deposits/manual: a credit by hand (sandbox only). */
export const manualDepositInput = z.object({
  user_id: id(),
  currency_id: id(),
  amount: decimalText({ positive: true }),
  note: note({ max: 200 }),
});
/** /callbacks: a page, optionally of one outcome. */
export const callbackListInput = z.object({ outcome: optional(oneOf(CALLBACK_OUTCOMES)), page: page() });
/** /chains/update: what an operator may change on a chain row. */
export const chainUpdateInput = z.object({
  currency_id: id(),
  chain_type: integer({ min: 0, max: 15 }),
  confirmations: optional(integer({ min: 0, max: 1000 })),
  is_enabled: optional(flag()),
});

/** /outbox: a page, optionally to one recipient. */
export const outboxListInput = z.object({ recipient: optional(text({ max: 254 })), page: page() });
/** /audit: a page, filtered by action, administrator or target. */
export const auditListInput = z.object({
  action: optional(text({ max: 64 })),
  admin: optional(text({ max: 32 })),
  target_type: optional(text({ max: 64 })),
  target_id: optional(text({ max: 64 })),
  per_page: optional(integer({ min: 1, max: 100 })),
  page: page(),
});
/** /admins/create */
export const adminCreateInput = z.object({
  username: text({ max: 64 }),
  password: text({ max: 128, trim: false }),
  role: oneOf(BACKOFFICE_ADMIN_ROLES),
});
/** /admins/disable */
export const adminDisableInput = z.object({ id: id(), disabled: flag() });

/** /real_name: a page, optionally of one state (pending by default). */
export const realNameListInput = z.object({
  status: optional(oneOf(['pending', 'approved', 'rejected'] as const)),
  page: page(),
});
/** /real_name/photo: the upload's address or id. */
export const realNamePhotoInput = z.object({ id: text({ max: 200 }) });

/** /second_factor/confirm and /verify: a six-digit authenticator code. */
export const secondFactorCodeInput = z.object({ code: authenticatorCode() });

/** /users: a page, optionally matching a text or only the frozen. */
export const userListInput = z.object({
  q: optional(text({ max: 100 })),
  frozen: optional(flag()),
  page: page(),
});
/** /users/orders and /users/logins: a user's page. */
export const userPageInput = z.object({ id: id(), page: page() });
/** /users/ledger: a user's page, optionally of one currency. */
export const userLedgerInput = z.object({ id: id(), currency_id: optional(id()), page: page() });
/**
 * /users/freeze: what the user may no longer do, and why. `full` (optional, default false) also stops moves
 * between the user's own wallets; it stops everything the two others stop.
 */
export const userFreezeInput = z.object({
  id: id(),
  trading: flag(),
  withdrawals: flag(),
  full: optional(flag()),
  reason: note({ max: 500 }),
});

// ---------------------------------------------------------------------------------------------------------
// Replies

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

/** /currencies: the catalogue's currencies. */
export interface CurrenciesReply {
  list: CurrencyLine[];
}

/** The market maker's settings as the server runs them (ppm are parts per million, notionals decimal text). */
export interface MarketMakerSettings {
  /** Price levels per side. */
  levels: number;
  /** Distance of the best quote from the index, parts per million. */
  halfSpreadPpm: number;
  /** Distance between levels, parts per million. */
  levelStepPpm: number;
  /** Quote value of the first level (decimal text in quote units); level i is (2 + i) / 2 times as large. */
  levelNotional: string;
  /** Quote value of base and of quote the market maker holds per market, funded at genesis. */
  inventoryNotional: string;
  maxCommandsPerCycle: number;
  intervalMs: number;
}

/** /markets: the pairs, where index prices come from, and the market maker's settings when it runs. */
export interface MarketsReply {
  list: MarketLine[];
  price_source: string;
  price_source_live: boolean;
  market_maker: MarketMakerSettings | null;
}

// ---------------------------------------------------------------------------------------------------------
// Run-time settings (/settings): each setting's definition lives on the server (admin/settings.ts); the
// console draws its form from the fields listed here.

/** How the console draws and the server reads one field. Decimals travel as text, never as numbers. */
export type SettingField =
  | { name: string; type: 'percent'; max: string }
  | {
      name: string;
      type: 'decimal';
      /** Decimals allowed; per row when the scale depends on the target. */ scale?: number;
    }
  | { name: string; type: 'integer'; min: number; max: number }
  | { name: string; type: 'boolean' }
  /** An https address, or empty for not set. */
  | { name: string; type: 'url' };

export type SettingValue = string | number | boolean;

/** What a setting's row is: one market, one currency, or the whole site (one row, target_id 1). */
export type SettingScope = 'market' | 'currency' | 'site';

export interface SettingRow {
  target_id: number;
  target: string;
  values: Record<string, SettingValue>;
  /** Decimal places per decimal field of this row (the currency's scale). */
  scales?: Record<string, number>;
}

/** One setting as the console lists it. */
export interface SettingLine {
  key: string;
  scope: SettingScope;
  /** Applied through an engine command: money depends on it. */
  engine: boolean;
  fields: readonly SettingField[];
  rows: SettingRow[];
}

/** The words a start-up setting's value can be, which the console translates (the server holds their English). */
export type EnvironmentWord =
  | 'on'
  | 'off'
  | 'yes'
  | 'no'
  | 'set'
  | 'not_set'
  | 'not_used'
  | 'sandbox'
  | 'custody_provider'
  | 'configured'
  | 'development_seed'
  | 'dev_outbox'
  | 'smtp'
  | 'sms_gateway'
  | 'embedded'
  | 'postgresql';

/** A setting read once at start, with the variable that sets it. */
export interface EnvironmentSetting {
  name: string;
  variable: string;
  /** As an operator reads it, in English (a name, a number, or one of the words of `value_code`). */
  value: string;
  /** For a value that is one of a few words ("on", "not set", "dev outbox"...): its code, which the back
   * office translates. Absent for names and numbers, which are shown as they are. */
  value_code?: EnvironmentWord;
}

/** /settings: every run-time setting and the start-up environment. */
export interface SettingsReply {
  settings: SettingLine[];
  environment: EnvironmentSetting[];
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
  /** A demo account (DEMO=on): seeded, labelled, counted in no public figure. */
  demo: boolean;
}

/** GET /backoffice/flash_desk: the flash desk (the house's change wallet, which pays flash exchanges). */
export interface FlashDeskReply {
  /** Each flash currency and what the desk holds free of it now. */
  list: { currency_id: number; code: string; available: string }[];
  /**
   * The latest movements of house capital through the desk, newest first: fundings from outside, moves to
   * the house's other wallets and labelled transfers to users (signed; flash exchanges are not listed).
   */
  fundings: {
    transfer_id: number;
    currency_id: number;
    code: string;
    amount: string;
    memo: string | null;
    /** Command time, milliseconds. */
    time: number;
  }[];
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

/** A user's freeze: what they may not do, why, and who decided it. */
export interface FreezeState {
  trading: boolean;
  withdrawals: boolean;
  /** A full freeze: everything the two others stop, and moves between the user's own wallets. */
  full: boolean;
  reason: string;
  updated_by: string | null;
  updated_at: string;
}

/** What a user holds in one currency, all six wallets. */
export interface BalanceLine {
  currency_id: number;
  code: string;
  wallets: Record<WalletType, { available: string; locked: string }>;
}

/** /users/detail */
export interface UserDetail extends UserSummary {
  extension_code: string;
  parent: { id: number; account: string } | null;
  invited_count: number;
  last_login_ip: string | null;
  is_seller: boolean;
  freeze: FreezeState | null;
  /** Currencies in which the user holds anything, all six wallets each. */
  balances: BalanceLine[];
  open_orders: number;
  pending_withdrawals: number;
}

/** /users/orders: one spot order of the user, every state. */
export interface UserOrderLine {
  order_id: string;
  symbol: string;
  side: string;
  kind: string;
  /** Empty for a market order. */
  price: string;
  quantity: string;
  filled: string;
  status: string;
  cancel_reason: string | null;
  fee_paid: string;
  fee_currency: string;
  created_at: string;
  updated_at: string;
}

/** /users/ledger: one balance change of the user, as the account log recorded it. */
export interface LedgerLine {
  seq: string;
  time: string;
  wallet: string;
  currency: string;
  change: string;
  available_after: string;
  locked_change: string;
  locked_after: string;
  reason: string;
  reference_id: string;
  memo: string | null;
}

/** /callbacks: one custody callback as received, and what was made of it. */
export interface CallbackLine {
  id: string;
  received_at: string;
  ip: string | null;
  sign_ok: boolean;
  outcome: string;
  detail: string | null;
  trade_type: number | null;
  tx_id: string | null;
  body: string | null;
}

/** /chains: one chain a currency is offered on. */
export interface ChainLine {
  currency_id: number;
  currency: string;
  udun_id: number;
  chain_type: number;
  code: string;
  network: string;
  main_coin_type: number;
  coin_type: string;
  chain_decimals: number;
  confirmations: number;
  is_enabled: boolean;
}

/** Whether payouts go to the sandbox adapter (decisions are then confirmed by hand). */
export type Sandboxed<T> = T & { sandbox: boolean };

/** What a reviewer sees beside a withdrawal: the user's balance, totals and recent history in that currency. */
export interface WithdrawalContext {
  balance: { available: string; locked: string };
  deposited_total: string;
  withdrawn_total: string;
  withdrawal_count: number;
  deposit_count: number;
  withdrawals: WithdrawalLine[];
  deposits: DepositLine[];
}

/** /withdrawals/detail */
export interface WithdrawalDetail {
  withdrawal: WithdrawalLine;
  user: WithdrawalContext & { freeze: FreezeState | null };
  sandbox: boolean;
}

/** /withdrawals and /deposits */
export type WithdrawalPage = Sandboxed<Paged<WithdrawalLine>>;
/** /chains: every chain's deposit and withdrawal switches, and whether custody is the sandbox. */
export type ChainsReply = Sandboxed<{ list: ChainLine[] }>;
export type DepositPage = Sandboxed<Paged<DepositLine>>;

/** The exchange's own accounts the solvency table shows, and the outside world. */
export const SOLVENCY_SYSTEM_COLUMNS = ['house', 'fees', 'insurance', 'marketMaker', 'outside'] as const;
export type SolvencySystemColumn = (typeof SOLVENCY_SYSTEM_COLUMNS)[number];

/** One currency of the solvency table: every kind of account, which must sum to zero. */
export interface SolvencyRow {
  currency_id: number;
  code: string;
  /** Users' holdings (available + locked) per wallet. */
  users: Record<WalletType, string>;
  /** Of which locked (open orders, pending withdrawals), over all user wallets. */
  users_locked: string;
  system: Record<SolvencySystemColumn, string>;
  /** What the exchange should hold in custody: minus the outside world's balance. */
  custody: string;
  /** Every account of the currency added up; must be "0". */
  sum: string;
  /** Accounts below zero other than the outside world (must be none). */
  negative_accounts: number;
  balanced: boolean;
}

export interface SolvencyReport {
  rows: SolvencyRow[];
  balanced: boolean;
}

/** One market's trading of the last 24 hours. */
export interface MarketVolume {
  market_id: number;
  symbol: string;
  trades: number;
  /** Base currency traded, all trades. */
  base_volume: string;
  /** Quote currency traded, all trades. */
  quote_volume: string;
  /** Of which trades where at least one side was a user: the only ones public figures count. */
  user_trades: number;
  user_quote_volume: string;
  /** Trades with the market maker on one side. */
  maker_fills: number;
}

export interface PendingWithdrawalTotal {
  currency_id: number;
  code: string;
  count: number;
  amount: string;
}

/** /dashboard */
export interface Dashboard {
  users: { total: number; last_24h: number; verified: number; frozen: number };
  volume: MarketVolume[];
  waiting: {
    real_name: number;
    withdrawals: number;
    withdrawals_by_currency: PendingWithdrawalTotal[];
    /** Deposits recorded but not yet credited (a crash between the two; finished at the next start). */
    deposits_uncredited: number;
    /** Approved withdrawals whose payout is not confirmed yet. */
    payouts_unconfirmed: number;
    callbacks_refused_24h: number;
  };
  solvency: SolvencyReport;
  /**
   * The journal and the projector behind it (absent where the process runs no engine): history, records and
   * the volume above are read from projections, which are this many commands (and milliseconds) behind.
   */
  engine?: {
    committed_seq: number;
    projected_seq: number;
    projector_lag_commands: number;
    projector_lag_ms: number;
  };
  generated_at: string;
}

/** /admins: an administrator, their role and whether they may still sign in. */
export interface AdminLine {
  id: number;
  username: string;
  role: BackofficeAdminRole;
  second_factor: boolean;
  disabled: boolean;
  created_at: string;
  last_session_at: string | null;
}

/** /audit: one entry of the audit log. */
export interface AuditLine {
  id: number;
  admin: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
  created_at: string;
}

/** /outbox: a mail or text message the exchange sent, or in development kept. */
export interface OutboxLine {
  id: number;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  /** Kept only for messages no transport took (the dev outbox). */
  body: string | null;
  purpose: string;
  status: 'outbox' | 'sent' | 'failed';
  error: string | null;
  created_at: string;
}

export type RealNameStatus = 'pending' | 'approved' | 'rejected';

/** /real_name: a real-name submission in the queue. */
export interface RealNameSubmission {
  id: number;
  user_id: number;
  account: string;
  name: string;
  status: RealNameStatus;
  created_at: string;
  reviewed_at: string | null;
}

/** /real_name/detail: the submission with its photos' addresses for an administrator's token. */
export interface RealNameSubmissionDetail extends RealNameSubmission {
  card_id: string;
  reject_reason: string | null;
  reviewed_by: string | null;
  front_pic: string;
  reverse_pic: string;
  hand_pic: string;
}

/** What a news category holds: notices, news, footer pages, FAQ, commitments or partner links. */
export type NewsCategoryKind = 'notice' | 'news' | 'footer' | 'faq' | 'commitment' | 'partner';

/** /news/categories: a category with its names per language and how many items it has. */
export interface NewsCategoryLine {
  id: number;
  kind: NewsCategoryKind;
  names: Partial<Record<string, string>>;
  sort_order: number;
  is_visible: boolean;
  items: number;
  published: number;
}

/** /news/items: one item, titled in the reader's language when it has it, else in English. */
/** /news/categories: every category. */
export interface NewsCategoriesReply {
  list: NewsCategoryLine[];
}

/** /news/items/create: the new item's id and the confirmation to show. */
export interface NewsItemCreatedReply {
  id: number;
  message: string;
}

export interface NewsItemLine {
  id: number;
  category_id: number;
  title: string;
  languages: Language[];
  link_url: string | null;
  sort_order: number;
  is_published: boolean;
  seeded: boolean;
  updated_at: string;
}

/** An item's words in one language. */
export interface NewsItemTranslation {
  title: string;
  abstract: string;
  content: string;
}

/** /news/items/detail: the item with its words in every language it has. */
export interface NewsItemDetail {
  id: number;
  category_id: number;
  link_url: string | null;
  sort_order: number;
  is_published: boolean;
  translations: Partial<Record<Language, NewsItemTranslation>>;
}

/** What an administrator may do: each back-office call needs one (the server's roles grant them). */
export const BACKOFFICE_PERMISSIONS = [
  'dashboard',
  'users.read',
  'users.manage',
  'real_name',
  'funding.read',
  'funding.manage',
  'catalog.read',
  'catalog.manage',
  'content',
  'outbox',
  'audit',
  'admins',
] as const;
export type BackofficePermission = (typeof BACKOFFICE_PERMISSIONS)[number];

/** Whether this session passed the second factor, must pass it, or must first enrol an authenticator. */
export type AdminSecondFactorState = 'verified' | 'required' | 'enrol';

export interface AdminIdentity {
  id: number;
  username: string;
  role: BackofficeAdminRole;
}

/** /admins: every administrator. */
export interface AdminsReply {
  list: AdminLine[];
}

/** /session: who is signed in, what they may do, and where their second factor stands. */
export interface BackofficeSessionReply {
  admin: AdminIdentity;
  permissions: readonly BackofficePermission[];
  second_factor: AdminSecondFactorState;
}
