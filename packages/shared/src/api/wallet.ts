// The replies of the wallet overview (`wallet/list`) and the user's currency list
// (`currency/user_currency_list`), declared once for the server that builds them and the clients that read
// them. Amounts, prices and values are exact decimal text; a value that cannot be known is null.

/** The six wallets every user has per currency. */
export type WalletName = 'change' | 'lever' | 'micro' | 'ico' | 'miner' | 'defi';

export type Flag = 0 | 1;

/**
 * What a currency is used for, with the template's names: `is_match` it is traded on a spot market;
 * `is_legal` it is the quote ("legal") currency of a market; `is_lever` and `is_micro` it can be traded with
 * leverage or in seconds contracts (neither exists yet, so 0).
 */
export interface CurrencyFlags {
  is_match: Flag;
  is_lever: Flag;
  is_micro: Flag;
  is_legal: Flag;
}

/** One currency of one wallet. `{wallet}_balance` and `lock_{wallet}_balance` are named as the template does. */
export interface WalletLine extends CurrencyFlags {
  currency: number;
  currency_name: string;
  udun_id: number;
  scale: number;
  /** The price the value is computed with (USDT per coin), or null while the currency has none. */
  usdt_price: string | null;
  usdt_total: string | null;
  priced: boolean;
  [field: string]: string | number | boolean | null;
}

export interface WalletGroup {
  usdt_total: string | null;
  /** The same as usdt_total, under the template's spelling. */
  usdt_totle: string | null;
  btc_total: string | null;
  priced: boolean;
  balance: WalletLine[];
}

/** The template's fiat wallet. Fairex has no fiat wallet: it is always empty and worth nothing. */
export interface LegalWallet {
  balance: [];
  usdt_total: string;
  usdt_totle: string;
  btc_total: string;
  priced: true;
}

export type WalletOverview = Record<`${WalletName}_wallet`, WalletGroup> & {
  legal_wallet: LegalWallet;
  usdt_total: string | null;
  usdt_totle: string | null;
  btc_total: string | null;
  priced: boolean;
  /** The code of the currency values are in (USDT). */
  legal: string;
};

/** `wallet/list` answers the overview and the spot wallet's lines again as `list`. */
export type WalletListReply = WalletOverview & { list: WalletLine[] };

/** One row of `currency/user_currency_list`: a currency, its flags, and the caller's balances in it. */
export interface UserCurrency extends CurrencyFlags {
  id: number;
  name: string;
  scale: number;
  /** `currency`, then `{wallet}_balance` and `lock_{wallet}_balance` of the six wallets. */
  wallet: { currency: number } & Record<string, string | number>;
}

/** One currency a transfer can move (`wallet/currencylist`). */
export interface TransferCurrency {
  id: number;
  name: string;
  scale: number;
}

/**
 * One wallet's balance in one currency (`wallet/detail`): `balance` is the available amount, repeated as
 * `{wallet}_balance` with `lock_{wallet}_balance` beside it, as the template names them.
 */
export interface WalletDetail {
  currency: number;
  currency_name: string;
  scale: number;
  type: WalletName;
  balance: string;
  [field: string]: string | number;
}

/** One transfer between two of the user's wallets (`wallet/change_list`, `wallet/hzhistory`). */
export interface TransferRecord {
  id: string;
  create_time: string;
  currency: number;
  currency_name: string;
  from_account: WalletName;
  to_account: WalletName;
  /** The two wallets' names, translated. */
  from_name: string;
  to_name: string;
  number: string;
}

/** One change of a balance, from the engine's own log (`account/list`, `wallet/legal_log`). */
export interface LedgerEntry {
  id: string;
  created_time: string;
  wallet: WalletName;
  currency: number;
  currency_name: string;
  /** The wallet and currency, translated ("Spot wallet · USDT"). */
  account: string;
  reason: string;
  /** What happened, translated. */
  info: string;
  /** Change of the available balance, signed. */
  value: string;
  /** Change of the frozen balance, signed. */
  lock_value: string;
  balance: string;
}

/** 0 the legal currency into the coin, 1 the coin into the legal currency. */
export type FlashDirection = 0 | 1;

/** One coin of the flash exchange, with its price in the legal currency (null while there is none). */
export interface FlashCoin {
  id: number;
  name: string;
  scale: number;
  price: string | null;
}

/** `wallet/flashAgainstList`: the legal currency, the coins, the fee percent and the least amount. */
export interface FlashList {
  legal: { id: number; name: string; scale: number } | null;
  list: FlashCoin[];
  /** Percent, e.g. "0.2". */
  fee: string;
  min: string;
}

/** One flash exchange of the user (`wallet/flashAgainst`, `wallet/myFlashAgainstList`). */
export interface FlashRecord {
  id: number;
  create_time: string;
  type: FlashDirection;
  l_currency: string;
  r_currency: string;
  num: string;
  price: string;
  absolute_quantity: string;
  fee: string;
  status: string;
}

/** One saved withdrawal address (`wallet/get_address`, `wallet/addaddress`). */
export interface AddressBookEntry {
  id: number;
  currency: number;
  currency_name: string;
  chain_type: number;
  chain: string;
  address: string;
  notes: string;
}
