// A client written for the template's API, from the specs' call tables alone, driven as its users would:
// plain HTTP calls with form-encoded bodies and the raw token, and a socket.io v2 connection that emits
// `login` with its token and then only listens (no `subscribe`). It reads the market list and its prices,
// places a limit buy and a limit sell at the price it shows and revokes one, moves funds between wallets as
// its transfer page does, asks for a deposit address, opens and closes a leveraged position, and plays a
// seconds contract to its end. What it decides from a flag (a product open, a list row shown) it decides as
// the template's screens do.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Command, PriceSourceQuote } from '@fairex/engine';
import connectV2 from 'socket.io-client-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';
import { until } from '../market/helpers.ts';

const BTC_USDT = 1;
const BTC = 1;
const USDT = 3;
const UNIT = 1_000_000n;

type Fields = Record<string, string | number>;
// The replies are read field by field, as the template's screens read them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Reply = { type: string; message: any };

/** The template client's HTTP calls: form bodies, the raw token in Authorization, the language in `lang`. */
class TemplateHttp {
  readonly base: string;
  readonly token: string;

  constructor(base: string, token: string) {
    this.base = base;
    this.token = token;
  }

  async call(method: 'GET' | 'POST', path: string, fields: Fields = {}): Promise<Reply> {
    const form = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)]));
    const headers: Record<string, string> = { lang: 'en', authorization: this.token };
    if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
    const query = method === 'GET' && form.size > 0 ? `?${form.toString()}` : '';
    const response = await fetch(`${this.base}/api${path}${query}`, {
      method,
      headers,
      ...(method === 'POST' ? { body: form.toString() } : {}),
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as Reply;
  }

  async ok(method: 'GET' | 'POST', path: string, fields: Fields = {}): Promise<Reply['message']> {
    const reply = await this.call(method, path, fields);
    expect(reply.type, `${path}: ${JSON.stringify(reply)}`).toBe('ok');
    return reply.message;
  }
}

type Pushed = { event: string; payload: Record<string, unknown> };

/** The template client's socket: v2, `login` with the token, then it only listens. */
async function templateSocket(url: string, token: string): Promise<{ close(): void; pushed: Pushed[] }> {
  const socket = connectV2(url, { path: '/socket.io', transports: ['websocket'], forceNew: true });
  const pushed: Pushed[] = [];
  for (const event of ['daymarket', 'market_depth', 'update_balance', 'lever_trade', 'closed_microorder']) {
    socket.on(event, (payload) => pushed.push({ event, payload: payload as Record<string, unknown> }));
  }
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const answer = await new Promise<{ type: string }>((resolve) => socket.emit('login', token, resolve));
  expect(answer.type).toBe('ok');
  return { close: () => socket.close(), pushed };
}

let store: Store;
let app: FastifyInstance;
let url: string;
let alice: TemplateHttp;
let bob: TemplateHttp;
let aliceSocket: { close(): void; pushed: Pushed[] };

async function submit(command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
  await projected(app);
}

/** The price source: one recorded sample of BTC/USDT at `priceTicks` (cents). */
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pushedOf = (event: string) =>
  aliceSocket.pushed.filter((entry) => entry.event === event).map((entry) => entry.payload);

type Row = {
  id: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  is_display: number;
  open_microtrade: number;
  open_lever: number;
  now_price: string;
};

/** The market page: every quotation row the page shows (shown and open to seconds contracts). */
async function marketPage(client: TemplateHttp): Promise<Row[]> {
  const groups = (await client.ok('GET', '/currency/quotation_new')) as { quotation: Row[] }[];
  return groups
    .flatMap((group) => group.quotation)
    .filter((row) => row.is_display === 1 && row.open_microtrade === 1);
}

/** The price the market page shows for BTC/USDT, 4 decimals as it formats it, and the text it sends. */
async function shownPrice(client: TemplateHttp): Promise<string> {
  const row = (await marketPage(client)).find((item) => item.symbol === 'BTC/USDT');
  expect(row, 'BTC/USDT is on the market page').toBeDefined();
  expect(Number(row?.now_price).toFixed(4)).not.toBe('0.0000');
  return row?.now_price ?? '';
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, {
    env: { MICRO_RESERVE: '1000000' },
    market: { intervals: { depthIntervalMs: 20, tickerIntervalMs: 40 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The operator's side: the house's lever wallet and insurance fund, and a two-second seconds option
  // besides the default ones, so that a contract ends within the test.
  const fund = { type: 'systemFund', wallet: 'lever', currencyId: USDT } as const;
  await submit({ ...fund, owner: 'house', amount: 1_000_000n * UNIT });
  await submit({ ...fund, owner: 'insurance', amount: 100_000n * UNIT });
  await submit({
    type: 'setMicroSeconds',
    options: [
      [2, 8_000],
      [30, 8_000],
    ],
  });
  const aliceId = await createUser(store);
  const bobId = await createUser(store);
  alice = new TemplateHttp(url, await loginAs(store, aliceId));
  bob = new TemplateHttp(url, await loginAs(store, bobId));
  // Deposits, as the chain would credit them.
  await submit({ type: 'deposit', userId: aliceId, currencyId: USDT, amount: 20_000n * UNIT });
  await submit({ type: 'deposit', userId: bobId, currencyId: BTC, amount: 100_000_000n });
  await mark(6_700_000);
  aliceSocket = await templateSocket(url, alice.token);
}, 60_000);

afterAll(async () => {
  aliceSocket?.close();
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('a template-era client, start to end', () => {
  it('lists the markets with their prices before anyone has traded', async () => {
    const rows = await marketPage(alice);
    expect(rows.map((row) => row.symbol)).toContain('BTC/USDT');
    expect(await shownPrice(alice)).toBe('67000.00');
    // The leverage page's list: the rows open to leverage.
    const groups = (await alice.ok('GET', '/currency/quotation_new')) as { quotation: Row[] }[];
    const lever = groups.flatMap((group) => group.quotation).filter((row) => row.open_lever === 1);
    expect(lever.map((row) => row.symbol)).toContain('BTC/USDT');
    // The live board, without subscribing: the price now, as `now_price` and `close`.
    await until(() =>
      pushedOf('daymarket').some((day) => day.symbol === 'BTC/USDT' && day.close === '67000.00'),
    );
  });

  let buyId = 0;

  it('places a limit buy at the shown price and revokes it', async () => {
    const price = await shownPrice(alice);
    const pair = { legal_id: USDT, currency_id: BTC };
    await alice.ok('POST', '/transaction/in', { ...pair, price, num: '0.01', mode: 2 });
    const open = await alice.ok('POST', '/transaction_in', { page: 1 });
    const order = (open.list ?? open.data) as { id: number; price: string }[];
    expect(order.map((row) => row.price)).toEqual(['67000.00']);
    buyId = order[0]?.id ?? 0;
    await alice.ok('POST', '/transaction_del', { id: buyId, type: 'in' });
    const after = await alice.ok('POST', '/transaction_in', { page: 1 });
    expect(after.list ?? after.data).toEqual([]);
    await until(() => pushedOf('update_balance').some((push) => push.currency_id === USDT));
  });

  it('places a limit sell at the shown price, which a buy at the shown price fills', async () => {
    await mark(6_705_000);
    const price = await shownPrice(bob);
    expect(price).toBe('67050.00');
    // A board that only listens follows the mark too, until someone trades.
    await until(() =>
      pushedOf('daymarket').some(
        (day) => day.symbol === 'BTC/USDT' && day.close === '67050.00' && day.price_kind === 'mark',
      ),
    );
    const pair = { legal_id: USDT, currency_id: BTC };
    await bob.ok('POST', '/transaction/out', { ...pair, price, num: '0.01', mode: 2 });
    const resting = await bob.ok('POST', '/transaction_out', { page: 1 });
    expect(((resting.list ?? resting.data) as { price: string }[]).map((row) => row.price)).toEqual([
      '67050.00',
    ]);
    await alice.ok('POST', '/transaction/in', {
      ...pair,
      price: await shownPrice(alice),
      num: '0.01',
      mode: 2,
    });
    await projected(app);
    const fills = await alice.ok('POST', '/transaction_complete', { page: 1 });
    expect(((fills.list ?? fills.data) as { price: string }[])[0]).toMatchObject({ price: '67050.00' });
    // From now on the price shown is that trade's, whatever the mark does.
    await mark(6_720_000);
    expect(await shownPrice(alice)).toBe('67050.00');
  });

  it('moves funds between wallets as its transfer pages do', async () => {
    const overview = await alice.ok('POST', '/wallet/list');
    // The transfer page lists the fiat wallet's coins: without them it shows no form and no button.
    const coins = overview.legal_wallet.balance as { currency: number; currency_name: string }[];
    expect(coins.map((coin) => coin.currency_name)).toContain('USDT');
    const currencies = (await alice.ok('GET', '/currency/user_currency_list')) as Record<string, number>[];
    const usdt = currencies.find((currency) => currency.id === USDT);
    // The wallets the page offers: those whose flag is 1, in its order (legal, micro, lever, change).
    const offered = (['legal', 'micro', 'lever', 'match'] as const).filter(
      (name) => usdt?.[`is_${name}`] === 1,
    );
    expect(offered).toEqual(['micro', 'lever', 'match']);
    // The older page opens on its first two (seconds to lever): with nothing in the seconds wallet yet, the
    // answer is a translated refusal and nothing moves; its user then picks the spot wallet as the source.
    const refused = await alice.call('POST', '/wallet/change', {
      from_field: 'micro',
      to_field: 'lever',
      currency_id: USDT,
      number: '10',
    });
    expect(refused).toEqual({ type: 'error', message: 'Insufficient available balance.' });
    await alice.ok('POST', '/wallet/change', {
      from_field: 'change',
      to_field: 'lever',
      currency_id: USDT,
      number: '1000',
    });
    await alice.ok('POST', '/wallet/change', {
      from_field: 'change',
      to_field: 'micro',
      currency_id: USDT,
      number: '100',
    });
    // The first transfer page's form: type 1 is spot to lever.
    await alice.ok('POST', '/wallet/change', { type: 1, currency_id: USDT, number: '5' });
    await until(() =>
      pushedOf('update_balance').some((push) => push.wallet === 'micro' && push.balance === '100.000000'),
    );
    const wallets = await alice.ok('POST', '/wallet/list');
    const line = (wallet: string) =>
      (wallets[`${wallet}_wallet`].balance as Record<string, unknown>[]).find((row) => row.currency === USDT);
    expect(line('lever')).toMatchObject({ lever_balance: '1005.000000' });
    expect(line('micro')).toMatchObject({ micro_balance: '100.000000' });
  });

  it('gets a deposit address from its deposit page', async () => {
    const overview = await alice.ok('POST', '/wallet/list');
    expect(overview.is_open_CTbi).toBe(1);
    const deposit = await alice.ok('POST', '/wallet/get_in_address', { currency: USDT });
    expect(deposit.currency).toMatchObject({ id: USDT, name: 'USDT' });
    expect(typeof deposit.address).toBe('string');
    expect(deposit.address.length).toBeGreaterThan(20);
    // The same address again: it is the user's.
    expect((await alice.ok('POST', '/wallet/get_in_address', { currency: USDT })).address).toBe(
      deposit.address,
    );
  });

  it('opens and closes a leveraged position', async () => {
    await mark(6_720_000);
    const pair = { legal_id: USDT, currency_id: BTC };
    const deal = await alice.ok('POST', '/lever/deal', pair);
    expect(deal).toMatchObject({ lever_available: true, last_price: '67050.00' });
    const multiple = deal.multiple.muit[0].value as number;
    const share = Math.max(1, Number(deal.lever_share_limit.min));
    const opened = await alice.ok('POST', '/lever/submit', { ...pair, multiple, share, type: 1, status: 1 });
    const id = opened.trade.id as number;
    const holding = await alice.ok('POST', '/lever/my_trade', { status: 1, ...pair, page: 1 });
    expect(holding.data.map((row: { id: number }) => row.id)).toEqual([id]);
    await until(() => pushedOf('lever_trade').length > 0);
    await alice.ok('POST', '/lever/close', { id });
    await projected(app);
    const closed = await alice.ok('POST', '/lever/my_trade', { status: 3, ...pair, page: 1 });
    expect(closed.data.find((row: { id: number }) => row.id === id)).toMatchObject({ status: 3 });
    expect((await alice.ok('POST', '/lever/my_trade', { status: 1, ...pair, page: 1 })).data).toEqual([]);
  });

  it('plays a seconds contract to its end', async () => {
    const { seconds } = await alice.ok('GET', '/microtrade/seconds');
    const shortest = Math.min(...(seconds as { seconds: number }[]).map((option) => option.seconds));
    const payable = (await alice.ok('GET', '/microtrade/payable_currencies')) as Record<string, unknown>[];
    expect(payable.find((currency) => currency.id === USDT)).toMatchObject({
      user_wallet: { micro_balance: '100.000000' },
    });
    const row = (await marketPage(alice)).find((item) => item.symbol === 'BTC/USDT') as Row;
    const placed = await alice.ok('POST', '/microtrade/submit', {
      match_id: row.id,
      currency_id: USDT,
      type: 1,
      seconds: shortest,
      number: '10',
    });
    expect(placed).toMatchObject({ status: 1, seconds: shortest });
    // The price source samples on: the first sample after acceptance opens it, the last one at or before
    // its expiry ends it (up wins: the price rose).
    await sleep(20);
    await mark(6_720_000);
    await sleep(300);
    await mark(6_721_000);
    await sleep(shortest * 1000 + 100);
    await mark(6_710_000);
    await until(() =>
      pushedOf('closed_microorder').some(
        (push) => (push.order as { id: number } | undefined)?.id === placed.id,
      ),
    );
    const closed = await alice.ok('GET', '/microtrade/lists', { status: 3, page: 1, limit: 20 });
    const settled = closed.data.find((order: { id: number }) => order.id === placed.id);
    expect(settled).toMatchObject({
      status: 3,
      open_price: '67200.00',
      end_price: '67210.00',
      outcome: 'win',
    });
  }, 20_000);
});
