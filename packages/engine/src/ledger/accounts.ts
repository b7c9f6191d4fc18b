import { MAX_CURRENCY_ID, MAX_USER_ID } from '../limits.ts';

/** The six wallets every owner has per currency (spec 03 §2). */
export const WALLETS = ['change', 'lever', 'micro', 'ico', 'miner', 'defi'] as const;
export type Wallet = (typeof WALLETS)[number];

/**
 * System owners hold the exchange's own accounts. `outside` is the rest of the world: deposits come from it
 * and withdrawals go to it, so it is the one account whose balance goes below zero.
 */
export const SYSTEM_OWNERS = ['house', 'fees', 'insurance', 'marketMaker', 'outside'] as const;
export type SystemOwner = (typeof SYSTEM_OWNERS)[number];

/** A user is a positive integer id; a system owner is one of the names above. */
export type AccountOwner = number | SystemOwner;

/** System owners that may place orders like a user. */
export const TRADING_SYSTEM_OWNERS: readonly SystemOwner[] = ['house', 'marketMaker'];

const systemOwnerKeys: Record<SystemOwner, number> = {
  house: -1,
  fees: -2,
  insurance: -3,
  marketMaker: -4,
  outside: -5,
};
export const OUTSIDE_OWNER_KEY = systemOwnerKeys.outside;
export const FEES_OWNER_KEY = systemOwnerKeys.fees;
export const HOUSE_OWNER_KEY = systemOwnerKeys.house;

const walletIndexes: Record<Wallet, number> = { change: 0, lever: 1, micro: 2, ico: 3, miner: 4, defi: 5 };
export const CHANGE_WALLET_INDEX = 0;

/**
 * The owner as one integer: a user id, or a negative number for a system owner. Returns 0 when the value is
 * no valid owner, so callers can validate and convert in one step.
 */
export function ownerKeyOf(owner: unknown): number {
  if (typeof owner === 'number') {
    return Number.isSafeInteger(owner) && owner >= 1 && owner <= MAX_USER_ID ? owner : 0;
  }
  if (typeof owner === 'string' && Object.hasOwn(systemOwnerKeys, owner)) {
    return systemOwnerKeys[owner as SystemOwner];
  }
  return 0;
}

export function ownerFromKey(ownerKey: number): AccountOwner {
  if (ownerKey > 0) return ownerKey;
  const name = SYSTEM_OWNERS[-ownerKey - 1];
  if (name === undefined) throw new RangeError(`no owner has key ${ownerKey}`);
  return name;
}

/**
 * True when two owners must never trade with each other (self-trade prevention): one owner on both sides,
 * or two of the exchange's own owners (house, market maker, ...), whose trades would be wash trades.
 */
export function isSelfTradeBetween(ownerKeyA: number, ownerKeyB: number): boolean {
  return ownerKeyA === ownerKeyB || (ownerKeyA < 0 && ownerKeyB < 0);
}

export function isUserOwnerKey(ownerKey: number): boolean {
  return ownerKey > 0;
}

/** Returns the wallet's index 0..5, or -1 when the value is no wallet. */
export function walletIndexOf(wallet: unknown): number {
  return typeof wallet === 'string' && Object.hasOwn(walletIndexes, wallet)
    ? walletIndexes[wallet as Wallet]
    : -1;
}

/**
 * Owner, wallet and currency packed into one safe integer: (owner + 8) * 2^19 + wallet * 2^16 + currency.
 * With user ids below 2^31 the key stays below 2^51, and keys sort system owners first.
 */
export function accountKey(ownerKey: number, walletIndex: number, currencyId: number): number {
  return ((ownerKey + 8) * 8 + walletIndex) * (MAX_CURRENCY_ID + 1) + currencyId;
}

/** One ledger account. `locked` is the sum of the pending holds (open orders, pending withdrawals) on it. */
export class Account {
  readonly key: number;
  readonly ownerKey: number;
  readonly owner: AccountOwner;
  readonly walletIndex: number;
  readonly wallet: Wallet;
  readonly currencyId: number;
  available = 0n;
  locked = 0n;

  constructor(ownerKey: number, walletIndex: number, currencyId: number) {
    this.key = accountKey(ownerKey, walletIndex, currencyId);
    this.ownerKey = ownerKey;
    this.owner = ownerFromKey(ownerKey);
    this.walletIndex = walletIndex;
    this.wallet = WALLETS[walletIndex] as Wallet;
    this.currencyId = currencyId;
  }
}
