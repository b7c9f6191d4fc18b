// Token sales (ICO), cloud mining and defi staking (docs/products.md): input schemas and reply shapes of
// /api/iepn, /api/ico/*, /api/miner/*, /api/defi/* and of the back office's /api/backoffice/products/*.
// The spec's field names are kept; the extra fields say what the spec leaves to the screen (the product's
// rules, sold and remaining from the ledger, the house account that pays). Amounts and prices are exact
// decimal text; times are milliseconds since the epoch unless a field says seconds; days are UTC day
// numbers (days since 1970-01-01). Nothing here is jittered: every figure comes from the engine or the
// journal's projections.
import { z } from 'zod';
import { decimalText, id, integer, note, oneOf, optional, page, text } from '../schema/fields.ts';

/** Record lists (earnings, extractions) show the last 20 (spec 02 section 9); the back office pages by 50. */
export const PRODUCTS_RECORD_LIMIT = 20;
export const PRODUCTS_ADMIN_PAGE = 50;

/** The largest quantity of one purchase (units, tokens or whole coins). */
export const MAX_PRODUCT_QUANTITY = 1_000_000_000;

export type ProductKind = 'ico' | 'miner' | 'defi';

/**
 * Where a product is in its life: `draft` (created, not selling), `open` (selling: its house account holds
 * what it can promise), `closed` (no longer selling; holdings keep accruing to their end).
 */
export type ProductStatus = 'draft' | 'open' | 'closed';

/**
 * A miner's daily amount per unit: `fixed` (the same amount every day), or `recorded` (the operator records
 * each day's amount within the disclosed range before that day starts; a day without a recorded amount pays
 * the range's minimum).
 */
export type MinerRateKind = 'fixed' | 'recorded';

/** A defi holding's early exit: `forfeit` (allowed: principal back, earnings accrued so far forfeited), `none`. */
export type EarlyExitPolicy = 'forfeit' | 'none';

/** The house account a product's sale proceeds go to and its yields come from. */
export interface HouseAccountView {
  /** Always 'house': the exchange's own owner. */
  owner: 'house';
  wallet: 'ico' | 'miner' | 'defi';
  currency_id: number;
  currency_name: string;
  /** What the house holds for this product right now: unsold tokens, or yields promised and not yet accrued. */
  reserved: string;
  /** Yields accrued to holders and not yet paid out (miner, defi). */
  accrued_unpaid: string;
}

/** List tabs: -1 all (open or running), 1 mine, 2 ended (spec 02 sections 2.6-2.8). */
export const productStatusTab = () => oneOf([-1, 1, 2] as const);

// ---------------------------------------------------------------------------------------------------------
// ICO and the IEPN page

/** POST /ico/balance: the ico wallet of one currency (absent: the pay currency of the sales). */
export const icoBalanceInput = z.object({ currency: optional(id()) });

/** POST /ico/list: tab -1 all open sales, 1 the sales the user bought in, 2 ended sales. */
export const icoListInput = z.object({ status: optional(productStatusTab()) });

/** POST /ico/buy: whole tokens (at least 1). */
export const icoBuyInput = z.object({ id: id(), number: integer({ min: 1, max: MAX_PRODUCT_QUANTITY }) });

export interface IcoBalanceReply {
  balance: { currency: number; currency_name: string; ico_balance: string; lock_ico_balance: string };
}

export interface IcoItem {
  id: number;
  /** The token's currency code (IEPN). */
  ico_symbol: string;
  ico_logo: string;
  /** The whitepaper link ('' when none). */
  ico_white: string;
  /** Tokens sold: the total less what the house still holds for the sale (a ledger sum). */
  ico_has: string;
  /** The sale's total, in tokens. */
  ico_number: string;
  /** The price of one token in the pay currency. */
  ico_price: string;
  /** Progress: sold / total x 100, two decimals, rounded down. */
  ico_load: string;
  /** Whole days until the sale ends (0 once ended). */
  end_day: number;
  end_time: number;
  /** The user's tokens bought in this sale (0 for a visitor). */
  hold_number: string;
  /** What those tokens are worth at the sale price now. */
  hold_new_amount: string;
  /** What the user paid for them. */
  hold_amount: string;
  /** hold_new_amount - hold_amount (0 while the price never changed). */
  hold_earnings: string;
  /** The pay currency's code (USDT). */
  ico_currency: string;
  // Extra fields
  token_currency_id: number;
  pay_currency_id: number;
  /** Sold and remaining as ledger sums (remaining = what the house holds for the sale). */
  sold: string;
  remaining: string;
  start_time: number;
  /** Most tokens one user may buy in this sale; null when unlimited. */
  per_user_cap: string | null;
  status: ProductStatus;
  /** The spot pair the token trades on ('IEPN/USDT'), null when not listed. */
  market_symbol: string | null;
  house: HouseAccountView;
  /** The product's rules and risk note in the request's language. */
  rule_text: string;
  risk_text: string;
}

export interface IcoListReply {
  data: IcoItem[];
}

export interface IcoBuyReply {
  /** The translated success message. */
  message: string;
  holding_id: number;
  number: string;
  amount: string;
}

/** GET /iepn: the IEPN sale page (the newest IEPN sale). */
export interface IepnInfo {
  id: number;
  symbol: string;
  /** The sale's total, start and end, price. */
  total: string;
  start: number;
  end: number;
  price: string;
  /** Issued (sold) and remaining, ledger sums. */
  yfx: string;
  sy: string;
  pay_currency_name: string;
  /** The spot pair to store before opening /dealCenter ('IEPN/USDT'); null when not listed. */
  market_symbol: string | null;
  status: ProductStatus;
}

// ---------------------------------------------------------------------------------------------------------
// Cloud mining

/** POST /miner/balance: the miner wallet of one currency (absent: the pay currency of the miners). */
export const minerBalanceInput = z.object({ currency: optional(id()) });

/** POST /miner/list (tab -1 all open, 2 ended) or /miner/record (tab 1 the user's running rents, 2 ended). */
export const minerListInput = z.object({ status: optional(productStatusTab()) });

/** POST /miner/buy: whole units (at least 1). */
export const minerBuyInput = z.object({ id: id(), number: integer({ min: 1, max: MAX_PRODUCT_QUANTITY }) });

/** POST /miner/info, /miner/earnings, /miner/extract_record: one of the user's rents (its holding id). */
export const minerHoldingInput = z.object({ id: id() });

/** POST /miner/extract: an amount of the rent's extractable earnings, in the earned currency. */
export const minerExtractInput = z.object({ id: id(), number: decimalText({ positive: true }) });

export interface MinerBalanceReply {
  balance: { currency: number; currency_name: string; miner_balance: string; lock_miner_balance: string };
}

/** A miner on /miner/list, or one of the user's rents on /miner/record (then `id` is the rent's id). */
export interface MinerItem {
  id: number;
  /** The earned currency (BTC). */
  currency_name: string;
  currency_logo: string;
  miner_white: string;
  miner_image: string;
  /** The hashrate text of one unit, as the operator describes it ('100 TH/s'). */
  miner_hashrate: string;
  /** The rent of one unit, in the pay currency. */
  miner_price: string;
  /** The fee in percent of price x quantity. */
  miner_fee: string;
  /** The daily amount of one unit: the fixed amount, or today's recorded one (the minimum when none). */
  miner_earnings: string;
  /** The daily amount in words with its currency ('0.00001 BTC / unit / day'). */
  miner_earnings_show: string;
  /** 'min - max' of the daily amount per unit (min = max for a fixed rate). */
  miner_earnings_range: string;
  miner_day: number;
  /** List: the units on sale in total; record: the rent's units. */
  miner_number: string;
  /** The status in the request's language. */
  miner_status_lang: string;
  /** List: the sale's end; record: the rent's last day's end. */
  end_time: number;
  /** List: sold / total x 100; record: days accrued / miner_day x 100 (two decimals, rounded down). */
  end_load: string;
  /** Record: extractable earnings; list: the user's extractable earnings over all rents of this miner. */
  earnings_total: string;
  /** Already extracted. */
  earnings_extract: string;
  // Extra fields
  product_id: number;
  pay_currency_name: string;
  earn_currency_id: number;
  rate_kind: MinerRateKind;
  earnings_min: string;
  earnings_max: string;
  sold: string;
  remaining: string;
  status: ProductStatus;
  house: HouseAccountView;
  rule_text: string;
  risk_text: string;
}

export interface MinerListReply {
  data: MinerItem[];
}

export interface MinerBuyReply {
  message: string;
  holding_id: number;
  /** price x units, the fee, and their sum, in the pay currency. */
  rent: string;
  fee: string;
  paid: string;
}

/** POST /miner/info: a rent's header (the earnings and extract screens). */
export interface MinerOrderInfo {
  miner_earnings_show: string;
  miner_hashrate: string;
  miner_price: string;
  miner_number: string;
  miner_fee: string;
  miner_earnings: string;
  miner_earnings_range: string;
  /** Extractable now. */
  earnings_total: string;
  /** Already extracted. */
  earnings_extract: string;
  /** Days left to accrue. */
  end_day: number;
  currency_name: string;
  // Extra fields
  id: number;
  product_id: number;
  pay_currency_name: string;
  /** price x units, in the pay currency, and the fee paid. */
  rent: string;
  fee_amount: string;
  /** units x today's daily amount per unit. */
  expected_daily: string;
  /** earnings_total + earnings_extract. */
  total_income: string;
  /** The hashrate text x units, when the hashrate text starts with a number; else the unit's text. */
  total_hashrate: string;
  days_accrued: number;
  /** The first day that accrues and the end of the last one (ms). */
  start_time: number;
  end_time: number;
  create_time: number;
  rate_kind: MinerRateKind;
  rule_text: string;
}

/** POST /miner/earnings: one line per accrued day of the rent, newest first (the last 20). */
export interface MinerEarningsRecord {
  id: number;
  currency_name: string;
  earnings_amount: string;
  create_time_format: string;
  /** The UTC day the line is for, and the amount per unit that day. */
  day: number;
  per_unit: string;
}

export interface MinerEarningsReply {
  data: MinerEarningsRecord[];
}

/** POST /miner/extract_record: the rent's extractions, newest first (the last 20). */
export interface MinerExtractRecord {
  id: number;
  extract_amount: string;
  create_time_format: string;
  currency_name: string;
}

export interface MinerExtractRecordReply {
  data: MinerExtractRecord[];
}

export interface MinerExtractReply {
  message: string;
  amount: string;
}

// ---------------------------------------------------------------------------------------------------------
// Defi staking

/** POST /defi/balance: the defi wallet of a currency (the product's defi_coin). */
export const defiBalanceInput = z.object({ currency: id() });

/** POST /defi/list: tab -1 running products, 2 ended products. */
export const defiListInput = z.object({ status: optional(productStatusTab()) });

/** POST /defi/record: tab 1 the products the user holds, 2 the user's ended stakes. */
export const defiRecordInput = z.object({ status: optional(oneOf([1, 2] as const)) });

/** POST /defi/buy: a whole number of coins (at least 1). */
export const defiBuyInput = z.object({ id: id(), number: integer({ min: 1, max: MAX_PRODUCT_QUANTITY }) });

/** POST /defi/exit: leave one stake early, where its policy allows (extra call, docs/products.md). */
export const defiExitInput = z.object({ id: id() });

/** GET /defi/total: the defi wallet's and the held stakes' values in USDT (null when a price is missing). */
export interface DefiTotalReply {
  balance: string | null;
  total: string | null;
}

export interface DefiBalanceReply {
  balance: { defi_balance: string; lock_defi_balance: string; currency: number; currency_name: string };
}

/** One stake of the user in a product (tabs 1 and 2). */
export interface DefiStake {
  id: number;
  number: string;
  /** Earnings accrued so far (paid at maturity). */
  earnings: string;
  /** The daily amount: floor(principal x APR / 365). */
  daily: string;
  apr_bp: number;
  defi_day: number;
  days_accrued: number;
  /** The first day that accrues starts at start_time; principal and earnings return at end_time. */
  start_time: number;
  end_time: number;
  create_time: number;
  early_exit: EarlyExitPolicy;
  /** 'running', 'matured' or 'exited'. */
  state: 'running' | 'matured' | 'exited';
  /** What a matured or exited stake returned (principal + earnings, or principal only). */
  returned: string | null;
}

export interface DefiItem {
  id: number;
  currency_name: string;
  currency_logo: string;
  defi_white: string;
  /** The contract period in days. */
  defi_day: number;
  /** The yield: APR in percent (365-day count), decimal text. */
  defi_earnings: string;
  /** When the product was created, seconds since the epoch. */
  create_time: number;
  /** Held by the user (whole coins, decimal text), 0 for a visitor. */
  defi_number: string;
  /** The user's earnings accrued so far over the stakes listed. */
  earnings_total: string;
  /** The staked currency's id. */
  defi_coin: number;
  // Extra fields
  /** The product's type text ('Fixed term'). */
  type: string;
  status: ProductStatus;
  /** The countdown's end: the sale's end (tab -1 and 2), or the user's next maturity (tab 1). */
  end_time: number;
  apr_bp: number;
  /** Accrual starts at the start of the UTC day after the stake ('next_day'). */
  accrual_start: 'next_day';
  early_exit: EarlyExitPolicy;
  /** Capacity in whole coins, staked so far (a sum of the stakes), and what remains. */
  capacity: string;
  sold: string;
  remaining: string;
  /** Most whole coins one user may stake in this product; null when unlimited. */
  per_user_cap: string | null;
  /** defi_number + earnings_total. */
  total: string;
  stakes: DefiStake[];
  house: HouseAccountView;
  rule_text: string;
  risk_text: string;
}

export interface DefiListReply {
  data: DefiItem[];
}

export interface DefiBuyReply {
  message: string;
  holding_id: number;
  number: string;
  /** When the stake and its earnings return. */
  end_time: number;
  daily: string;
}

export interface DefiExitReply {
  message: string;
  returned: string;
  forfeited: string;
}

// ---------------------------------------------------------------------------------------------------------
// The back office (/api/backoffice/products/*). Rates in basis points (1 % = 100), amounts decimal text.

/** Display texts of a product, journaled with its terms. */
const productDetails = {
  title: text({ max: 80 }),
  logo: optional(text({ max: 300 })),
  white: optional(text({ max: 300 })),
  image: optional(text({ max: 300 })),
  /** Miner: the hashrate text of one unit. Defi: the type text. */
  label: optional(text({ max: 80 })),
  /** The operator's own description (the rule and risk texts are the server's). */
  description: optional(note({ max: 2000 })),
};

/** Sale window: when purchases are accepted (ms). */
const saleWindow = {
  start_time: integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  end_time: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
};

export const adminIcoTermsInput = z.object({
  kind: oneOf(['ico'] as const),
  ...productDetails,
  ...saleWindow,
  token_currency_id: id(),
  pay_currency_id: id(),
  /** Tokens for sale (whole tokens) and the price of one. */
  total: integer({ min: 1, max: MAX_PRODUCT_QUANTITY }),
  price: decimalText({ positive: true }),
  /** Whole tokens; absent: unlimited. */
  per_user_cap: optional(integer({ min: 1, max: MAX_PRODUCT_QUANTITY })),
});

export const adminMinerTermsInput = z.object({
  kind: oneOf(['miner'] as const),
  ...productDetails,
  ...saleWindow,
  earn_currency_id: id(),
  pay_currency_id: id(),
  /** Units for sale, the rent of one, the fee in basis points of price x units. */
  total: integer({ min: 1, max: MAX_PRODUCT_QUANTITY }),
  price: decimalText({ positive: true }),
  fee_bp: integer({ min: 0, max: 10_000 }),
  days: integer({ min: 1, max: 3650 }),
  rate_kind: oneOf(['fixed', 'recorded'] as const),
  /** Per unit per day, in the earned currency; fixed: min = max = the rate. */
  earnings_min: decimalText(),
  earnings_max: decimalText(),
  per_user_cap: optional(integer({ min: 1, max: MAX_PRODUCT_QUANTITY })),
});

export const adminDefiTermsInput = z.object({
  kind: oneOf(['defi'] as const),
  ...productDetails,
  ...saleWindow,
  currency_id: id(),
  /** Capacity in whole coins; the period in days; APR in basis points (365-day count). */
  total: integer({ min: 1, max: MAX_PRODUCT_QUANTITY }),
  days: integer({ min: 1, max: 3650 }),
  apr_bp: integer({ min: 0, max: 100_000 }),
  early_exit: oneOf(['forfeit', 'none'] as const),
  per_user_cap: optional(integer({ min: 1, max: MAX_PRODUCT_QUANTITY })),
});

type Terms<S extends z.ZodType> = z.output<S>;

/**
 * One of three schemas chosen by the `kind` field; its issues (message keys of the catalogue, field paths)
 * are reported as the chosen schema's.
 */
function byKind<I extends z.ZodType, M extends z.ZodType, D extends z.ZodType>(schemas: {
  ico: I;
  miner: M;
  defi: D;
}) {
  return z
    .looseObject({ kind: oneOf(['ico', 'miner', 'defi'] as const) })
    .transform((value, context): Terms<I> | Terms<M> | Terms<D> => {
      const parsed = schemas[value.kind].safeParse(value);
      if (parsed.success) return parsed.data as Terms<I> | Terms<M> | Terms<D>;
      for (const issue of parsed.error.issues) context.issues.push({ ...issue, input: value } as never);
      return z.NEVER;
    });
}

/** POST /backoffice/products/create: a draft product. */
export const adminProductCreateInput = byKind({
  ico: adminIcoTermsInput,
  miner: adminMinerTermsInput,
  defi: adminDefiTermsInput,
});

/**
 * POST /backoffice/products/edit: new terms for future purchases only (holdings keep the terms they were
 * bought on). The kind and currencies cannot change; a miner's rate kind and range cannot change once it
 * has running holdings; the total never drops below what is sold.
 */
export const adminProductEditInput = byKind({
  ico: adminIcoTermsInput.extend({ id: id() }),
  miner: adminMinerTermsInput.extend({ id: id() }),
  defi: adminDefiTermsInput.extend({ id: id() }),
});

/** POST /backoffice/products/open and /close. */
export const adminProductIdInput = z.object({ id: id() });

/** POST /backoffice/products/miner_rate: a day's amount per unit, recorded before that day starts. */
export const adminMinerRateInput = z.object({
  id: id(),
  /** The UTC day number (days since 1970-01-01). */
  day: integer({ min: 0, max: 1_000_000 }),
  amount: decimalText(),
});

/**
 * POST /backoffice/products/fund: moves `amount` from the house's change wallet to the house account that
 * funds the product (its ico, miner or defi wallet, in the product's token, earned or staked currency).
 */
export const adminProductFundInput = z.object({
  id: id(),
  amount: decimalText({ positive: true }),
  note: optional(note({ max: 200 })),
});

/** GET /backoffice/products/rates, /holdings, /accruals: one product's records, paged. */
export const adminProductPageInput = z.object({ id: id(), page: page() });

/** POST /backoffice/products/accrue: run the accrual job now (it also runs on its own, once a minute). */
export const adminAccrueInput = z.object({});

export interface AdminProductLine {
  id: number;
  kind: ProductKind;
  status: ProductStatus;
  title: string;
  logo: string;
  white: string;
  image: string;
  label: string;
  description: string;
  start_time: number;
  end_time: number;
  created_time: number;
  /** ico: token; miner: earned; defi: staked. */
  currency_id: number;
  currency_name: string;
  /** ico and miner: the pay currency. */
  pay_currency_id: number | null;
  pay_currency_name: string | null;
  total: string;
  sold: string;
  remaining: string;
  price: string | null;
  fee_bp: number | null;
  days: number | null;
  rate_kind: MinerRateKind | null;
  earnings_min: string | null;
  earnings_max: string | null;
  apr_bp: number | null;
  early_exit: EarlyExitPolicy | null;
  per_user_cap: string | null;
  /** The last UTC day accrued (null before the first). */
  accrued_through: number | null;
  holdings: number;
  house: HouseAccountView;
  /** What opening (or keeping open) needs held on the house account, and what it has free there. */
  reserve_required: string;
  house_available: string;
}

export interface AdminProductsReply {
  products: AdminProductLine[];
  currencies: { id: number; code: string; scale: number }[];
}

export interface AdminMinerRateLine {
  day: number;
  /** The day's amount per unit; `recorded` false: the minimum applied for want of a recording. */
  amount: string;
  recorded: boolean;
  recorded_time: number | null;
  /** Whether the day has been accrued. */
  accrued: boolean;
}

export interface AdminHoldingLine {
  id: number;
  user_id: number;
  number: string;
  paid: string;
  fee: string;
  accrued: string;
  paid_out: string;
  days: number;
  days_accrued: number;
  start_day: number;
  state: 'running' | 'ended' | 'matured' | 'exited';
  created_time: number;
}

export interface AdminAccrualLine {
  day: number;
  /** Holdings credited and the amount credited that day; the per-unit amount for a miner. */
  holdings: number;
  amount: string;
  per_unit: string | null;
  /** Promised for the day and released back to the house (recorded rate below the maximum). */
  released: string;
  time: number;
  seq: number;
}

export interface AdminPage<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}
