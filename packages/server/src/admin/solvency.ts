// The solvency table: per currency, what every kind of account holds according to the engine, which must sum
// to exactly zero (double entry: every credit has its debit). Users are shown per wallet; the exchange's own
// accounts (house, fees, insurance fund, market maker) and the outside world (deposits come from it,
// withdrawals go to it) each as one figure. The outside world's balance is minus what the exchange should
// hold in custody for everybody. A sum other than zero, or a negative user or system balance other than the
// outside world's, is an alarm: the ledger is broken and money must not move until it is understood.
import type { AccountView, Currency } from '@fairex/engine';
import { WALLETS } from '@fairex/engine';
import type { Wallet } from '@fairex/engine';
import type { SolvencyReport, SolvencyRow, SolvencySystemColumn } from '@fairex/shared';
import { formatDecimal, SOLVENCY_SYSTEM_COLUMNS } from '@fairex/shared';

export const SYSTEM_COLUMNS = SOLVENCY_SYSTEM_COLUMNS;
export type SystemColumn = SolvencySystemColumn;
export type { SolvencyReport, SolvencyRow } from '@fairex/shared';

interface Totals {
  users: Record<Wallet, bigint>;
  usersLocked: bigint;
  system: Record<SystemColumn, bigint>;
  sum: bigint;
  negative: number;
}

function emptyTotals(): Totals {
  return {
    users: Object.fromEntries(WALLETS.map((wallet) => [wallet, 0n])) as Record<Wallet, bigint>,
    usersLocked: 0n,
    system: Object.fromEntries(SYSTEM_COLUMNS.map((owner) => [owner, 0n])) as Record<SystemColumn, bigint>,
    sum: 0n,
    negative: 0,
  };
}

export function solvencyReport(
  accounts: readonly AccountView[],
  currencies: readonly Currency[],
): SolvencyReport {
  const totals = new Map<number, Totals>(currencies.map((currency) => [currency.currencyId, emptyTotals()]));
  for (const account of accounts) {
    let entry = totals.get(account.currencyId);
    if (entry === undefined) {
      entry = emptyTotals();
      totals.set(account.currencyId, entry);
    }
    const held = account.available + account.locked;
    entry.sum += held;
    if (typeof account.owner === 'number') {
      entry.users[account.wallet] += held;
      entry.usersLocked += account.locked;
      if (account.available < 0n || account.locked < 0n) entry.negative += 1;
    } else {
      entry.system[account.owner] += held;
      if (account.owner !== 'outside' && (account.available < 0n || account.locked < 0n)) entry.negative += 1;
    }
  }
  const scales = new Map(currencies.map((currency) => [currency.currencyId, currency]));
  const rows = [...totals.entries()]
    .sort(([a], [b]) => a - b)
    .map(([currencyId, entry]): SolvencyRow => {
      const currency = scales.get(currencyId);
      const scale = currency?.scale ?? 0;
      const text = (value: bigint) => formatDecimal(value, scale);
      return {
        currency_id: currencyId,
        code: currency?.code ?? String(currencyId),
        users: Object.fromEntries(WALLETS.map((wallet) => [wallet, text(entry.users[wallet])])) as Record<
          Wallet,
          string
        >,
        users_locked: text(entry.usersLocked),
        system: Object.fromEntries(
          SYSTEM_COLUMNS.map((owner) => [owner, text(entry.system[owner])]),
        ) as Record<SystemColumn, string>,
        custody: text(-entry.system.outside),
        sum: text(entry.sum),
        negative_accounts: entry.negative,
        balanced: entry.sum === 0n && entry.negative === 0,
      };
    });
  return { rows, balanced: rows.every((row) => row.balanced) };
}
