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
