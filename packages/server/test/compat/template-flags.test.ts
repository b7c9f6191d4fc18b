// The flags and prices a template-era client reads to decide what it shows, asserted on the routes it reads
// them from: every "is this open" flag says what the engine then does with an order (quotation rows, the
// currency flags of wallet/list and currency/user_currency_list, is_open_CTbi), and every price it shows and
// takes its order forms' default from is the last trade with a user, or the recorded mark where none traded
// yet, labelled by `price_kind`. The fiat wallet lists every currency at zero for the transfer page.
import type { FastifyInstance } from 'fastify';
import type { Command, PriceSourceQuote } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';
import { templateCall } from './template-client.ts';

const BTC_USDT = 1;
const BTC = 1;
const USDT = 3;
const UNIT = 1_000_000n;
let store: Store;
let app: FastifyInstance;
let userId: number;
let token: string;

type Row = Record<string, unknown> & { legal_id: number; currency_id: number; symbol: string };

async function submit(command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
  await projected(app);
}

/** A recorded mark of BTC/USDT, in cents. */
async function mark(priceTicks: number): Promise<void> {
  const quote: PriceSourceQuote = ['simulated', priceTicks, Date.now()];
  await submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[BTC_USDT, [quote]]],
  });
}

async function ok<T>(path: string, fields: Record<string, string | number> = {}, method?: 'GET') {
  const reply = await templateCall(app, path, fields, { token, ...(method ? { method } : {}) });
  expect(reply.type, JSON.stringify(reply)).toBe('ok');
  return reply.message as T;
}

async function btcRow(): Promise<Row> {
  const groups = await ok<{ quotation: Row[] }[]>('/currency/quotation_new', {}, 'GET');
  const row = groups.flatMap((group) => group.quotation).find((item) => item.symbol === 'BTC/USDT');
  if (row === undefined) throw new Error('no BTC/USDT row');
  return row;
}

async function coinEntry(): Promise<Record<string, unknown>> {
  const { coin_list } = await ok<{ coin_list: Row[] }>('/quotation');
  const entry = coin_list.find((item) => item.symbol === 'BTC/USDT');
  if (entry === undefined) throw new Error('no BTC/USDT entry');
  return entry;
}

async function usdtFlags(): Promise<Record<string, unknown>> {
  const list = await ok<(Record<string, unknown> & { id: number })[]>('/currency/user_currency_list');
  const usdt = list.find((item) => item.id === USDT);
  const overview = await ok<{ change_wallet: { balance: Record<string, unknown>[] } }>('/wallet/list');
  const line = overview.change_wallet.balance.find((item) => item.currency === USDT);
  const pick = (from: Record<string, unknown> | undefined) => ({
    is_match: from?.is_match,
    is_lever: from?.is_lever,
    is_micro: from?.is_micro,
    is_legal: from?.is_legal,
  });
  // The wallet list and the transfer page's list say the same.
  expect(pick(line)).toEqual(pick(usdt));
  return pick(usdt);
}

const microOrder = { match_id: BTC_USDT, currency_id: USDT, type: 1, seconds: 30, number: '10' };

beforeAll(async () => {
  store = await openTestStore();
  // A production exchange's start: the seconds reserve is empty until an operator funds it.
  app = await buildTestApp(store, { env: { MICRO_RESERVE: '0' } });
  await app.ready();
  userId = await createUser(store);
  token = await loginAs(store, userId);
  await submit({ type: 'deposit', userId, currencyId: USDT, amount: 10_000n * UNIT });
  await submit({
    type: 'transfer',
    userId,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'micro',
    amount: 100n * UNIT,
  });
  await submit({
    type: 'transfer',
    userId,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'lever',
    amount: 1_000n * UNIT,
  });
  await submit({
    type: 'systemFund',
    owner: 'house',
    wallet: 'lever',
    currencyId: USDT,
    amount: 1_000_000n * UNIT,
  });
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('prices on a fresh exchange', () => {
  it('are empty with neither a trade nor a mark, and say so', async () => {
    expect(await btcRow()).toMatchObject({ now_price: '', price_kind: 'none', mark_price: null });
    expect(await coinEntry()).toMatchObject({ last_price: '', price_kind: 'none' });
  });

  it('are the recorded mark where no user has traded, on every field the template shows a price from', async () => {
    await mark(6_700_000);
    expect(await btcRow()).toMatchObject({
      now_price: '67000.00',
      price_kind: 'mark',
      mark_price: '67000.00',
    });
    expect(await coinEntry()).toMatchObject({ last_price: '67000.00', price_kind: 'mark' });
    const pair = { legal_id: USDT, currency_id: BTC };
    expect(await ok('/transaction/deal', pair)).toMatchObject({ last_price: '67000.00', price_kind: 'mark' });
    expect(await ok('/lever/deal', pair)).toMatchObject({ last_price: '67000.00', price_kind: 'mark' });
    const market = app.marketData.catalog.cachedById(BTC_USDT);
    if (market === undefined) throw new Error('BTC/USDT is not loaded');
    const day = app.marketData.daymarketPayload(market, app.marketData.ticker(BTC_USDT));
    expect(day).toMatchObject({ now_price: '67000.00', close: '67000.00', price_kind: 'mark' });
    // The mark moves: so does the price shown.
    await mark(6_710_000);
    expect(await btcRow()).toMatchObject({ now_price: '67100.00', price_kind: 'mark' });
  });

  it('are the last trade once a user has traded, whatever the mark', async () => {
    const seller = await createUser(store);
    await submit({ type: 'deposit', userId: seller, currencyId: BTC, amount: 100_000_000n });
    const order = {
      type: 'placeOrder',
      marketId: BTC_USDT,
      kind: 'limit',
      priceTicks: 6_690_000,
      quantityLots: 10,
    };
    await submit({ ...order, owner: seller, side: 'sell' } as Command);
    await submit({ ...order, owner: userId, side: 'buy' } as Command);
    await mark(6_720_000);
    expect(await btcRow()).toMatchObject({
      now_price: '66900.00',
      price_kind: 'trade',
      mark_price: '67200.00',
    });
    expect(await coinEntry()).toMatchObject({ last_price: '66900.00', price_kind: 'trade' });
    const pair = { legal_id: USDT, currency_id: BTC };
    expect(await ok('/transaction/deal', pair)).toMatchObject({
      last_price: '66900.00',
      price_kind: 'trade',
    });
    expect(await ok('/lever/deal', pair)).toMatchObject({ last_price: '66900.00', price_kind: 'trade' });
  });
});

describe('seconds contracts', () => {
  it('are closed on every flag while the reserve is empty, as the engine refuses every order', async () => {
    expect(await btcRow()).toMatchObject({ open_microtrade: 0 });
    expect(await usdtFlags()).toMatchObject({ is_micro: 0 });
    const refused = await templateCall(app, '/microtrade/submit', microOrder, { token });
    expect(refused.type).toBe('error');
  });

  it('are open on every flag once the reserve is funded, as the engine then takes orders', async () => {
    await submit({ type: 'systemFund', owner: 'house', currencyId: USDT, amount: 10_000n * UNIT });
    await submit({
      type: 'systemTransfer',
      owner: 'house',
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'micro',
      amount: 10_000n * UNIT,
    });
    const row = await btcRow();
    expect(row).toMatchObject({ is_display: 1, open_microtrade: 1 });
    expect(await usdtFlags()).toMatchObject({ is_micro: 1 });
    // The template's market page lists the rows that are shown and open to seconds contracts.
    const groups = await ok<{ quotation: Row[] }[]>('/currency/quotation_new', {}, 'GET');
    const listed = groups
      .flatMap((group) => group.quotation)
      .filter((item) => item.is_display === 1 && item.open_microtrade === 1);
    expect(listed.map((item) => item.symbol)).toContain('BTC/USDT');
    const accepted = await templateCall(app, '/microtrade/submit', microOrder, { token });
    expect(accepted.type, JSON.stringify(accepted)).toBe('ok');
  });

  it('are closed on a pair whose payable currency has no cap on it', async () => {
    const groups = await ok<{ quotation: Row[] }[]>('/currency/quotation_new', {}, 'GET');
    const caps = new Set(app.engine.micro.config().caps.map((cap) => cap.marketId));
    for (const row of groups.flatMap((group) => group.quotation)) {
      expect(row.open_microtrade, row.symbol).toBe(caps.has(row.id as number) ? 1 : 0);
    }
  });
});

describe('leverage', () => {
  const submitLong = { legal_id: USDT, currency_id: BTC, multiple: 10, share: 1, type: 1, status: 1 };

  it('is open on every flag for a pair whose lever settings are enabled', async () => {
    expect(await btcRow()).toMatchObject({ open_lever: 1, open_transaction: 1, open_coin_trade: 1 });
    expect(await usdtFlags()).toMatchObject({ is_lever: 1, is_match: 1, is_legal: 0 });
    await mark(6_720_000);
    const opened = await templateCall(app, '/lever/submit', submitLong, { token });
    expect(opened.type, JSON.stringify(opened)).toBe('ok');
  });

  it('is closed on every flag once the pair is disabled, as the engine then refuses opens', async () => {
    const pairs = app.engine.lever.pairs();
    for (const view of pairs) {
      const { quoteCurrencyId: _quote, ...rules } = view;
      await submit({ ...rules, type: 'setLeverPair', enabled: false });
    }
    expect(await btcRow()).toMatchObject({ open_lever: 0, open_transaction: 1 });
    expect(await usdtFlags()).toMatchObject({ is_lever: 0 });
    expect(
      (await ok<{ lever_available: boolean }>('/lever/deal', { legal_id: USDT, currency_id: BTC }))
        .lever_available,
    ).toBe(false);
    await mark(6_720_000);
    const refused = await templateCall(app, '/lever/submit', submitLong, { token });
    expect(refused.type).toBe('error');
    for (const view of pairs) {
      const { quoteCurrencyId: _quote, ...rules } = view;
      await submit({ ...rules, type: 'setLeverPair', enabled: true });
    }
    expect(await btcRow()).toMatchObject({ open_lever: 1 });
  });
});

describe('wallets', () => {
  it('say deposits are open, and list the fiat wallet with every currency at zero', async () => {
    const overview = await ok<{
      is_open_CTbi: number;
      change_wallet: { balance: { currency: number }[] };
      legal_wallet: { balance: Record<string, unknown>[]; usdt_totle: string };
    }>('/wallet/list');
    expect(overview.is_open_CTbi).toBe(1);
    // The deposit page then asks for an address, and gets one.
    const address = await ok<{ address: string }>('/wallet/get_in_address', { currency: USDT });
    expect(address.address.length).toBeGreaterThan(20);
    const legal = overview.legal_wallet;
    expect(legal.balance.map((line) => line.currency)).toEqual(
      overview.change_wallet.balance.map((line) => line.currency),
    );
    for (const line of legal.balance) {
      expect(line.legal_balance).toMatch(/^0(\.0+)?$/);
      expect(line.lock_legal_balance).toMatch(/^0(\.0+)?$/);
    }
    expect(legal.balance.find((line) => line.currency === USDT)).toMatchObject({
      currency_name: 'USDT',
      usdt_total: '0.00000000',
    });
    expect(legal.usdt_totle).toBe('0.00000000');
  });
});
