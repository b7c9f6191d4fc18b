// The assets overview: every wallet of the user, each currency's available and frozen balance and its value
// in the legal currency (USDT, shown as the USD equivalent), and totals in USDT and BTC. Values come from
// the index prices the engine journals; a currency without a price yet is shown with its balance and no
// value, and the totals say they leave it out (`priced: false`), rather than guess.
import type { Engine, Wallet } from '@fairex/engine';
import { WALLETS } from '@fairex/engine';
import { formatDecimal } from '@fairex/shared';
import type { WalletCatalog, WalletCurrency } from './catalog.ts';
import type { PriceBook } from './prices.ts';
import { VALUE_SCALE, valueAt, valueIn } from './prices.ts';

/** Totals are shown with 8 decimals (rounded down). */
export const TOTAL_DECIMALS = 8;

export interface WalletLine {
  currency: number;
  currency_name: string;
  udun_id: number;
  scale: number;
  /** {wallet}_balance and lock_{wallet}_balance, as the template's client reads them. */
  [field: string]: string | number | boolean | null;
}

export interface WalletGroup {
  usdt_total: string | null;
  btc_total: string | null;
  priced: boolean;
  balance: WalletLine[];
}

export type WalletOverview = {
  usdt_total: string | null;
  btc_total: string | null;
  priced: boolean;
  legal: string;
} & Record<`${Wallet}_wallet`, WalletGroup>;

export async function walletOverview(input: {
  engine: Pick<Engine, 'balance'>;
  catalog: WalletCatalog;
  prices: PriceBook;
  userId: number;
}): Promise<WalletOverview> {
  const { engine, catalog, prices, userId } = input;
  const currencies = (await catalog.currencies()).filter((currency) => currency.isEnabled);
  const legal = await catalog.currencyByCode('USDT');
  const btc = await catalog.currencyByCode('BTC');
  const btcPrice = legal && btc ? prices.priceOf(btc.id, legal.id) : undefined;
  let grandValue = 0n;
  let grandPriced = legal !== undefined;
  const overview: Record<string, unknown> = {};
  for (const wallet of WALLETS) {
    let total = 0n;
    let priced = legal !== undefined;
    const balance: WalletLine[] = [];
    for (const currency of currencies) {
      const { available, locked } = engine.balance(userId, wallet, currency.id);
      const price = legal ? prices.priceOf(currency.id, legal.id) : undefined;
      let value: bigint | null = null;
      if (price) value = valueAt(available + locked, currency.scale, price);
      else if (available + locked > 0n) priced = false;
      if (value !== null) total += value;
      balance.push(line(wallet, currency, available, locked, value, price !== undefined));
    }
    grandValue += total;
    grandPriced &&= priced;
    overview[`${wallet}_wallet`] = {
      usdt_total: legal ? formatValue(total) : null,
      btc_total: btcPrice ? formatDecimal(valueIn(total, btcPrice, TOTAL_DECIMALS), TOTAL_DECIMALS) : null,
      priced,
      balance,
    } satisfies WalletGroup;
  }
  return {
    ...(overview as Record<`${Wallet}_wallet`, WalletGroup>),
    usdt_total: legal ? formatValue(grandValue) : null,
    btc_total: btcPrice ? formatDecimal(valueIn(grandValue, btcPrice, TOTAL_DECIMALS), TOTAL_DECIMALS) : null,
    priced: grandPriced,
    legal: legal?.code ?? '',
  };
}

function formatValue(value: bigint): string {
  return formatDecimal(value / 10n ** BigInt(VALUE_SCALE - TOTAL_DECIMALS), TOTAL_DECIMALS);
}

function line(
  wallet: Wallet,
  currency: WalletCurrency,
  available: bigint,
  locked: bigint,
  value: bigint | null,
  hasPrice: boolean,
): WalletLine {
  return {
    currency: currency.id,
    currency_name: currency.code,
    udun_id: currency.chains.length > 0 ? currency.udunId : -1,
    scale: currency.scale,
    [`${wallet}_balance`]: formatDecimal(available, currency.scale),
    [`lock_${wallet}_balance`]: formatDecimal(locked, currency.scale),
    usdt_total: value === null ? null : formatValue(value),
    priced: hasPrice,
  };
}
