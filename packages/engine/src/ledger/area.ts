// The ledger area: currencies and accounts. The Ledger itself (postings, holds) belongs to the kernel and
// is handed to every area; this area owns the currency command, the balance queries and the snapshot rows
// of currencies and accounts.
import { defineArea, command } from '../kernel/area.ts';
import { NOT_FROZEN } from '../kernel/freezes.ts';
import { invariant } from '../invariant.ts';
import { MAX_CURRENCY_ID } from '../limits.ts';
import { isCount } from '../validate.ts';
import { WALLETS, ownerKeyOf, walletIndexOf } from './accounts.ts';
import type { Account, AccountOwner, Wallet } from './accounts.ts';
import type { AddCurrencyCommand } from './commands.ts';
import { addCurrency } from './currencies.ts';
import type { Currency, Ledger } from './ledger.ts';
import { LedgerReasonCode } from './reason-codes.ts';

export type Balance = { available: bigint; locked: bigint };

export type AccountView = {
  owner: AccountOwner;
  wallet: Wallet;
  currencyId: number;
  available: bigint;
  locked: bigint;
};

/** A hold as the gateway sees it. */
export type HoldView = {
  area: string;
  ref: number;
  owner: AccountOwner;
  wallet: Wallet;
  currencyId: number;
  amount: bigint;
  reason: number;
  expiresAtMs?: number;
};

export type LedgerQueries = {
  balance(owner: AccountOwner, wallet: Wallet, currencyId: number): Balance;
  /** All six wallets of an owner in one currency. */
  wallets(owner: AccountOwner, currencyId: number): Record<Wallet, Balance>;
  /** Every account with a non-zero balance, in key order (for audits, tests and the admin console). */
  accounts(): AccountView[];
  /** The open holds on an owner's accounts, by area and reference. */
  holds(owner: AccountOwner): HoldView[];
  currency(currencyId: number): Currency | undefined;
  currencies(): Currency[];
};

type AccountRow = [
  owner: AccountOwner,
  wallet: Wallet,
  currencyId: number,
  available: string,
  locked: string,
];

export const ledgerArea = defineArea({
  name: 'ledger',
  commands: {
    addCurrency: command<Ledger, AddCurrencyCommand>(addCurrency),
  },
  freezes: { addCurrency: NOT_FROZEN },
  createState: (setup) => setup.ledger,
  queries: (ledger) => ledgerQueries(ledger),
  writeSnapshot: (ledger) => ({
    currencies: [...ledger.currencies.values()]
      .sort((a, b) => a.currencyId - b.currencyId)
      .map((currency) => [currency.currencyId, currency.code, currency.scale]),
    accounts: [...ledger.accounts.values()]
      .filter((account) => account.available !== 0n || account.locked !== 0n)
      .sort((a, b) => a.key - b.key)
      .map((account): AccountRow => [
        account.owner,
        account.wallet,
        account.currencyId,
        account.available.toString(),
        account.locked.toString(),
      ]),
  }),
  sections: ['currencies', 'accounts'],
  readSnapshot: (ledger, document) => {
    for (const [currencyId, code, scale] of document.currencies as [number, string, number][])
      ledger.currencies.set(currencyId, { currencyId, code, scale });
    for (const [owner, wallet, currencyId, available, locked] of document.accounts as AccountRow[]) {
      const ownerKey = ownerKeyOf(owner);
      invariant(ownerKey !== 0, `snapshot names an invalid owner ${String(owner)}`);
      const account = ledger.account(ownerKey, walletIndexOf(wallet), currencyId);
      account.available = BigInt(available);
      account.locked = BigInt(locked);
    }
  },
  bigintFields: [
    'availableBefore',
    'availableAfter',
    'lockedBefore',
    'lockedAfter',
    'available',
    'locked',
    'amount',
  ],
  reasonCodes: LedgerReasonCode,
  stats: (ledger) => ({ accounts: ledger.accounts.size }),
});

function ledgerQueries(ledger: Ledger): LedgerQueries {
  /** A read never creates an account, and a malformed key finds nothing rather than another account. */
  const findAccount = (owner: AccountOwner, wallet: Wallet, currencyId: number): Account | undefined => {
    const ownerKey = ownerKeyOf(owner);
    const walletIndex = walletIndexOf(wallet);
    if (ownerKey === 0 || walletIndex < 0 || !isCount(currencyId, MAX_CURRENCY_ID)) return undefined;
    return ledger.findAccount(ownerKey, walletIndex, currencyId);
  };
  const balance = (owner: AccountOwner, wallet: Wallet, currencyId: number): Balance => {
    const account = findAccount(owner, wallet, currencyId);
    return account === undefined
      ? { available: 0n, locked: 0n }
      : { available: account.available, locked: account.locked };
  };
  return {
    balance,
    wallets(owner, currencyId) {
      const result = {} as Record<Wallet, Balance>;
      for (const wallet of WALLETS) result[wallet] = balance(owner, wallet, currencyId);
      return result;
    },
    accounts() {
      const result: AccountView[] = [];
      const accounts = [...ledger.accounts.values()].sort((a, b) => a.key - b.key);
      for (const account of accounts) {
        if (account.available === 0n && account.locked === 0n) continue;
        const { owner, wallet, currencyId, available, locked } = account;
        result.push({ owner, wallet, currencyId, available, locked });
      }
      return result;
    },
    holds(owner) {
      const ownerKey = ownerKeyOf(owner);
      const result: HoldView[] = [];
      if (ownerKey === 0) return result;
      for (const hold of ledger.holds) {
        const { account } = hold;
        if (account.ownerKey !== ownerKey) continue;
        result.push({
          area: hold.area,
          ref: hold.ref,
          owner: account.owner,
          wallet: account.wallet,
          currencyId: account.currencyId,
          amount: hold.amount,
          reason: hold.reason,
          ...(hold.expiresAtMs === undefined ? {} : { expiresAtMs: hold.expiresAtMs }),
        });
      }
      return result.sort((a, b) => (a.area === b.area ? a.ref - b.ref : a.area < b.area ? -1 : 1));
    },
    currency: (currencyId) => ledger.currencies.get(currencyId),
    currencies: () => [...ledger.currencies.values()].sort((a, b) => a.currencyId - b.currencyId),
  };
}
