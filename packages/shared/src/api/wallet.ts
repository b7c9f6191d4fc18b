// The replies of the wallet overview (`wallet/list`) and the user's currency list
// (`currency/user_currency_list`), declared once for the server that builds them and the clients that read
// them, with the input schemas of the wallet calls. Amounts, prices and values are exact decimal text; a value
// that cannot be known is null.
import { z } from 'zod';
import { id, integer, note, oneOf, optional, page, text } from '../schema/fields.ts';

/** Amount text of at most this length is considered at all (parsed at the currency's scale by the server). */
export const MAX_AMOUNT_TEXT = 64;

/** A network of a currency (0-15); absent is the currency's first. */
const chainType = () => optional(integer({ min: 0, max: 15 }));

/** A code of the account's second factor: the authenticator's, or one sent by e-mail or SMS. */
const secondFactorCode = () => optional(text({ max: 6, min: 6 }));

/** POST /wallet/detail: one wallet (by the template's name) and currency. */
export const walletDetailInput = z.object({ type: text({ max: 16 }), currency: id() });

/** POST /wallet/change: a transfer between two wallets, named, or by the older clients' type 1 or 2. */
export const walletTransferInput = z.object({
  from_field: optional(text({ max: 16 })),
  to_field: optional(text({ max: 16 })),
  type: optional(oneOf([1, 2])),
  currency_id: id(),
  number: text({ max: MAX_AMOUNT_TEXT }),
});

/** An optional currency: /wallet/change_list. */
export const walletCurrencyFilterInput = z.object({ currency: optional(id()) });

/** A page of records, optionally of one currency: /wallet/hzhistory, in_list, out_list. */
export const walletRecordsInput = z.object({ page: page(), currency: optional(id()) });

/** POST /wallet/legal_log: one wallet's log in one currency (type 1580: the deposits). */
export const walletLogInput = z.object({ currency: id(), type: text({ max: 16 }), page: page() });

/** A page: /wallet/myFlashAgainstList. */
export const walletPageInput = z.object({ page: page() });

/** POST /wallet/flashAgainst. */
export const flashExchangeInput = z.object({
  type: oneOf([0, 1]),
  coin: id(),
  number: text({ max: MAX_AMOUNT_TEXT }),
});

/** One currency: /wallet/get_info, /wallet/get_address. */
export const walletCurrencyInput = z.object({ currency: id() });

/** POST /wallet/get_in_address: the currency and, optionally, the network. */
export const depositAddressInput = z.object({ currency: id(), type: chainType() });

/** POST /wallet/out: to a typed address or a saved one, with the account's second factor. */
export const withdrawInput = z.object({
  currency: id(),
  number: text({ max: MAX_AMOUNT_TEXT }),
  address: optional(text({ max: 128 })),
  address_id: optional(id()),
  type: chainType(),
  totp_code: secondFactorCode(),
  // Without an authenticator: the code POST /wallet/security_code sent by e-mail or SMS.
  code: secondFactorCode(),
});

/** POST /wallet/addaddress: a saved withdrawal address, with the account's second factor. */
export const addAddressInput = z.object({
  currency_id: id(),
  address: text({ max: 128 }),
  notes: optional(text({ max: 64 })),
  type: chainType(),
  totp_code: secondFactorCode(),
  code: secondFactorCode(),
});

/** /account/list: a page of the user's balance changes, up to 100 a page. */
export const accountLogInput = z.object({ limit: optional(integer({ min: 1, max: 100 })), page: page() });

/** POST /wallet/deladdress. */
export const deleteAddressInput = z.object({ address_id: id() });

/** The states an administrator filters withdrawals by. */
export const ADMIN_WITHDRAWAL_STATUSES = ['pending', 'approved', 'completed', 'rejected', 'failed'] as const;

/** /admin/wallet/withdrawals: a page, optionally of one state. */
export const adminWithdrawalsInput = z.object({
  status: optional(oneOf(ADMIN_WITHDRAWAL_STATUSES)),
  page: page(),
});

/** /admin/wallet/withdrawal/approve and /resend: one withdrawal. */
export const adminWithdrawalInput = z.object({ id: id() });

/** /admin/wallet/withdrawal/reject: with the reason the user is shown. */
export const adminWithdrawalRejectInput = z.object({ id: id(), reason: note({ max: 200 }) });

/** /admin/wallet/withdrawal/confirm: the payout's transaction id, sent by hand. */
export const adminWithdrawalConfirmInput = z.object({ id: id(), tx_id: text({ max: 128 }) });

/** /admin/wallet/deposit: a manual credit to a user (sandbox payouts only). */
export const adminDepositInput = z.object({
  user_id: id(),
  currency: id(),
  amount: text({ max: MAX_AMOUNT_TEXT }),
  note: note({ max: 200 }),
});

/** /admin/wallet/house_fund: funds the house's inventory in one currency. */
export const adminHouseFundInput = z.object({
  currency: id(),
  amount: text({ max: MAX_AMOUNT_TEXT }),
  note: note({ max: 200 }),
});

/** The six wallets every user has per currency. */
export type WalletName = 'change' | 'lever' | 'micro' | 'ico' | 'miner' | 'defi';

export type Flag = 0 | 1;

/**
 * What a currency is used for, with the template's names: `is_match` it is traded on a spot market;
 * `is_lever` it is the margin (quote) currency of a pair open to leverage; `is_micro` it pays for seconds
 * contracts open on a pair; `is_legal` always 0 (the template's fiat wallet, which Fairex does not have).
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

/** The template's fiat wallet. Fairex has no fiat wallet: every currency at zero, worth nothing. */
export interface LegalWallet {
  balance: WalletLine[];
  usdt_total: string;
  usdt_totle: string;
  btc_total: string;
  priced: true;
}

export type WalletOverview = Record<`${WalletName}_wallet`, WalletGroup> & {
  legal_wallet: LegalWallet;
  /** 1 when deposits and withdrawals are open (a currency has a chain to receive on), as the template names it. */
  is_open_CTbi: 0 | 1;
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
  /** The order, trade or withdrawal the change belongs to (0: none), and its name translated ("Order 123"). */
  reference_id: number;
  reference: string;
  /** Change of the available balance, signed. */
  value: string;
  /** Change of the frozen balance, signed. */
  lock_value: string;
  /**
   * What the entry moved, signed: the change of the whole balance (available plus frozen), or for a hold or
   * its release (which only move money between the two) the change of the available part.
   */
  amount: string;
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

/** One network of a currency: its chain type and code ("TRC20"). */
export interface ChainChoice {
  type: number;
  code: string;
}

/** `wallet/get_in_address`: the user's deposit address on one network of a currency. */
export interface DepositAddress {
  currency: { id: number; name: string };
  address: string;
  type: number;
  chain: string;
  network: string;
  confirmations: number;
  /** The currency's offered networks, for the picker. */
  chains: ChainChoice[];
  /** True while addresses come from the development key source (no real funds). */
  development: boolean;
}

/** Where a deposit came from: the custody service (a chain), or an operator's manual credit. */
export type DepositSource = 'custody' | 'manual';

/** One deposit of the user (`wallet/in_list`, `wallet/legal_log` type 1580). */
export interface DepositRecord {
  id: number;
  created_time: string;
  currency: number;
  currency_name: string;
  value: string;
  info: DepositSource;
  chain: string;
  address: string;
  /** Empty for a manual credit. */
  tx_id: string;
  status: 'pending' | 'credited';
}

/** What protects withdrawals and new addresses: the authenticator, or codes sent by e-mail or SMS. */
export type SecondFactorMethod = 'totp' | 'email' | 'sms';

/** `wallet/protection`: the method and where codes go, masked; null destination for the authenticator. */
export interface WalletProtection {
  method: SecondFactorMethod;
  destination: string | null;
}

/** `wallet/get_info`: what the withdrawal page shows for one currency. */
export interface WithdrawInfo {
  currency: number;
  name: string;
  scale: number;
  change_balance: string;
  lock_change_balance: string;
  /** The fee, in the currency. */
  rate: string;
  min_number: string;
  chains: (ChainChoice & { network: string })[];
  totp_required: boolean;
  second_factor: WalletProtection;
  /**
   * Whether this user must first pass real-name verification to withdraw (`/wallet/out` answers 998 until
   * then): the page asks for it before the form is filled.
   */
  real_name_required: boolean;
}

/** A withdrawal's state; `requested` (waiting for its second factor) is never listed to the user. */
export type WithdrawalStatus = 'requested' | 'pending' | 'approved' | 'completed' | 'rejected' | 'failed';

/** One withdrawal of the user (`wallet/out_list`). */
export interface WithdrawalRecord {
  id: number;
  create_time: string;
  currency: number;
  currency_name: string;
  number: string;
  fee: string;
  receive: string;
  address: string;
  chain: string;
  status: WithdrawalStatus;
  tx_id: string;
  /** The payout's transaction on a public explorer; null before the payout or for a sandbox payout. */
  explorer_url: string | null;
  note: string;
}
