// A small exchange with one product of each kind (and a fixed-rate miner), for the products area's tests.
import { DAY_MS } from '../src/calc/products.ts';
import type { Command, ProductDetails, ProductTerms } from '../src/index.ts';
import { TestExchange } from './test-exchange.ts';

export const BTC = 1;
export const USDT = 2;
export const IEPN = 3;
export const USERS = [1, 2, 3, 4] as const;
/** Midnight UTC of day 20,000, plus an hour. */
export const DAY0 = 20_000;
export const T0 = DAY0 * DAY_MS + 3_600_000;

export const ICO = 1;
export const MINER_RECORDED = 2;
export const MINER_FIXED = 3;
export const DEFI = 4;

export const details = (title: string): ProductDetails => ({
  title,
  logo: '',
  white: '',
  image: '',
  label: '',
  description: '',
});

export function terms(overrides: Partial<ProductTerms>): ProductTerms {
  return {
    startMs: 0,
    endMs: T0 + 400 * DAY_MS,
    currencyId: USDT,
    payCurrencyId: USDT,
    totalUnits: 100n,
    unitPrice: 0n,
    feeBp: 0,
    days: 0,
    rateKind: null,
    rateMin: 0n,
    rateMax: 0n,
    aprBp: 0,
    earlyExit: null,
    perUserCap: null,
    ...overrides,
  };
}

export const PRODUCTS: Command[] = [
  {
    type: 'createProduct',
    kind: 'ico',
    terms: terms({
      currencyId: IEPN,
      payCurrencyId: USDT,
      totalUnits: 500n,
      unitPrice: 1_500_000n,
      perUserCap: 200n,
    }),
    details: details('IEPN'),
  },
  {
    type: 'createProduct',
    kind: 'miner',
    terms: terms({
      currencyId: BTC,
      payCurrencyId: USDT,
      totalUnits: 40n,
      unitPrice: 100_000_000n,
      feeBp: 250,
      days: 5,
      rateKind: 'recorded',
      rateMin: 1_000n,
      rateMax: 3_000n,
    }),
    details: details('M-recorded'),
  },
  {
    type: 'createProduct',
    kind: 'miner',
    terms: terms({
      currencyId: BTC,
      payCurrencyId: USDT,
      totalUnits: 30n,
      unitPrice: 50_000_000n,
      feeBp: 0,
      days: 3,
      rateKind: 'fixed',
      rateMin: 777n,
      rateMax: 777n,
      perUserCap: 12n,
    }),
    details: details('M-fixed'),
  },
  {
    type: 'createProduct',
    kind: 'defi',
    terms: terms({
      currencyId: USDT,
      payCurrencyId: USDT,
      totalUnits: 1_000n,
      days: 4,
      aprBp: 1_234,
      earlyExit: 'forfeit',
    }),
    details: details('D-4'),
  },
];

/** Currencies, users' funds in their ico, miner and defi wallets, house funding, the four products open. */
export function productsExchange(): TestExchange {
  const exchange = new TestExchange();
  exchange.timeMs = T0;
  exchange.ok({ type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 });
  exchange.ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 });
  exchange.ok({ type: 'addCurrency', currencyId: IEPN, code: 'IEPN', scale: 4 });
  for (const userId of USERS) {
    exchange.ok({ type: 'deposit', userId, currencyId: USDT, amount: 3_000_000_000n });
    for (const wallet of ['ico', 'miner', 'defi'] as const)
      exchange.ok({
        type: 'transfer',
        userId,
        currencyId: USDT,
        fromWallet: 'change',
        toWallet: wallet,
        amount: 1_000_000_000n,
      });
  }
  exchange.ok({ type: 'systemFund', owner: 'house', currencyId: IEPN, amount: 10_000_000n, wallet: 'ico' });
  exchange.ok({ type: 'systemFund', owner: 'house', currencyId: BTC, amount: 2_000_000n, wallet: 'miner' });
  exchange.ok({ type: 'systemFund', owner: 'house', currencyId: USDT, amount: 20_000_000n, wallet: 'defi' });
  for (const command of PRODUCTS) exchange.ok(command);
  for (const productId of [ICO, MINER_RECORDED, MINER_FIXED, DEFI])
    exchange.ok({ type: 'openProduct', productId });
  return exchange;
}
