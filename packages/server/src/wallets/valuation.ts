// The assets overview: every wallet of the user, each currency's available and frozen balance and its value
// in the legal currency (USDT, shown as the USD equivalent), and totals in USDT and BTC. Values come from
// the index prices the engine journals; a currency without a price yet is shown with its balance and no
// value, and the totals say they leave it out (`priced: false`), rather than guess.
import type { Engine, Wallet } from '@fairex/engine';
import { WALLETS } from '@fairex/engine';
import type { CurrencyFlags, LegalWallet, WalletGroup, WalletLine, WalletOverview } from '@fairex/shared';
import { formatDecimal } from '@fairex/shared';
import type { WalletCatalog, WalletCurrency } from './catalog.ts';
import type { CoinPrice, PriceBook } from './prices.ts';
import { VALUE_SCALE, priceText, valueAt, valueIn } from './prices.ts';
import { productFlags } from '../market/template-fields.ts';

export type { WalletGroup, WalletLine, WalletOverview };

/** Totals are shown with 8 decimals (rounded down). */
export const TOTAL_DECIMALS = 8;

/**
 * What the engine makes of each currency, under the template's names: `is_match` it is traded on a spot
 * market; `is_lever` it is the margin (quote) currency of a pair open to leverage; `is_micro` it pays for
 * seconds contracts open on a pair; `is_legal` 0, because the template's flag offers its fiat (C2C) wallet,
 * which Fairex does not have (a transfer naming it is refused), so that no transfer page offers it.
 */
export function currencyFlags(
  engine: Pick<Engine, 'spot' | 'micro' | 'ledger'>,
): (currencyId: number) => CurrencyFlags {
  const traded = new Set<number>();
  for (const market of engine.spot.markets()) {
    traded.add(market.baseCurrencyId).add(market.quoteCurrencyId);
  }
  const products = productFlags(engine);
  return (currencyId) => ({
    is_match: traded.has(currencyId) ? 1 : 0,
    ...products.currency(currencyId),
    is_legal: 0,
  });
}

export async function walletOverview(input: {
  engine: Pick<Engine, 'ledger' | 'spot' | 'micro'>;
  catalog: WalletCatalog;
  prices: PriceBook;
  userId: number;
}): Promise<WalletOverview> {
  const { engine, catalog, prices, userId } = input;
  const currencies = (await catalog.currencies()).filter((currency) => currency.isEnabled);
  const legal = await catalog.currencyByCode('USDT');
  const btc = await catalog.currencyByCode('BTC');
  const btcPrice = legal && btc ? prices.priceOf(btc.id, legal.id) : undefined;
  const flagsOf = currencyFlags(engine);
  let grandValue = 0n;
  let grandPriced = legal !== undefined;
  const overview: Record<string, unknown> = {};
  const legalLines: WalletLine[] = [];
  for (const wallet of WALLETS) {
    let total = 0n;
    let priced = legal !== undefined;
    const balance: WalletLine[] = [];
    for (const currency of currencies) {
      const { available, locked } = engine.ledger.balance(userId, wallet, currency.id);
      const price = legal ? prices.priceOf(currency.id, legal.id) : undefined;
      let value: bigint | null = null;
      if (price) value = valueAt(available + locked, currency.scale, price);
      else if (available + locked > 0n) priced = false;
      if (value !== null) total += value;
      balance.push(line(wallet, currency, { available, locked }, value, price, flagsOf(currency.id)));
      if (wallet === 'change') {
        const zero = { available: 0n, locked: 0n };
        legalLines.push(line('legal', currency, zero, price ? 0n : null, price, flagsOf(currency.id)));
      }
    }
    grandValue += total;
    grandPriced &&= priced;
    const usdtTotal = legal ? formatValue(total) : null;
    overview[`${wallet}_wallet`] = {
      usdt_total: usdtTotal,
      usdt_totle: usdtTotal,
      btc_total: btcPrice ? formatDecimal(valueIn(total, btcPrice, TOTAL_DECIMALS), TOTAL_DECIMALS) : null,
      priced,
      balance,
    } satisfies WalletGroup;
  }
  const usdtTotal = legal ? formatValue(grandValue) : null;
  return {
    ...(overview as Record<`${Wallet}_wallet`, WalletGroup>),
    legal_wallet: { ...EMPTY_LEGAL_WALLET, balance: legalLines },
    // Deposits and withdrawals are open when a currency has a chain to receive on (docs/template-clients.md).
    is_open_CTbi: currencies.some((currency) => currency.chains.length > 0) ? 1 : 0,
    usdt_total: usdtTotal,
    usdt_totle: usdtTotal,
    btc_total: btcPrice ? formatDecimal(valueIn(grandValue, btcPrice, TOTAL_DECIMALS), TOTAL_DECIMALS) : null,
    priced: grandPriced,
    legal: legal?.code ?? '',
  };
}

/**
 * The template's fiat (C2C) wallet. Fairex has no fiat wallet, so nobody holds anything there: every
 * currency is listed with a zero balance (the template's transfer page takes its list of coins from these
 * lines), and it is worth exactly zero, for clients that add its total to the others.
 */
const EMPTY_LEGAL_WALLET: LegalWallet = {
  balance: [],
  usdt_total: formatDecimal(0n, TOTAL_DECIMALS),
  usdt_totle: formatDecimal(0n, TOTAL_DECIMALS),
  btc_total: formatDecimal(0n, TOTAL_DECIMALS),
  priced: true,
};

function formatValue(value: bigint): string {
  return formatDecimal(value / 10n ** BigInt(VALUE_SCALE - TOTAL_DECIMALS), TOTAL_DECIMALS);
}

function line(
  wallet: Wallet | 'legal',
  currency: WalletCurrency,
  { available, locked }: { available: bigint; locked: bigint },
  value: bigint | null,
  price: CoinPrice | undefined,
  flags: CurrencyFlags,
): WalletLine {
  return {
    ...flags,
    currency: currency.id,
    currency_name: currency.code,
    udun_id: currency.chains.length > 0 ? currency.udunId : -1,
    scale: currency.scale,
    [`${wallet}_balance`]: formatDecimal(available, currency.scale),
    [`lock_${wallet}_balance`]: formatDecimal(locked, currency.scale),
    usdt_price: price === undefined ? null : priceText(price),
    usdt_total: value === null ? null : formatValue(value),
    priced: price !== undefined,
  };
}
