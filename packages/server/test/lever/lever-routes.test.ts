// Leveraged contracts on a real app (PGlite): the first start configures the catalogue's lever markets and
// funds the house's lever wallet and the insurance fund; a long opens at the mark plus the spread, takes its
// margin and fee, is listed and pushed to its owner; stops are set and close it at the mark that crossed;
// a limit entry waits and is revoked with its money back; a batch close; a liquidation with a shortfall paid
// by the insurance fund; the 90-day loss share from the recorded closes. Bad input is a translated refusal
// that changes nothing, never a 500, and nobody reads or changes another user's records.
import type { FastifyInstance } from 'fastify';
import type { Command, PriceSourceQuote } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import { LEVER_TABLES } from '../../src/lever/projection.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';
import { until } from '../market/helpers.ts';

const BTC_USDT = 1;
const USDT = 3;
const BTC = 1;
const UNIT = 1_000_000n;
let store: Store;
let app: FastifyInstance;
let token: string;
let userId: number;
let otherToken: string;
let otherId: number;
const pushes: { userId: number; event: string; payload: unknown }[] = [];

async function submit(command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

/** One recorded price sample of BTC/USDT at `priceTicks` (cents): the mark the lever area trades on. */
async function mark(priceTicks: number, marketId = BTC_USDT): Promise<void> {
  const quote: PriceSourceQuote = ['simulated', priceTicks, Date.now()];
  await submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[marketId, [quote]]],
  });
}

async function call(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, auth = token) {
  // A mark move the test submits is projected behind the journal: wait, as a user's push would tell them.
  await projected(app);
  const response = await app.inject({
    method,
    url,
    headers: auth === '' ? {} : { authorization: auth },
    ...(body === undefined ? {} : { payload: body }),
  });
  expect(response.statusCode).toBe(200);
  // Replies of several shapes, each checked by value below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any; text?: string };
}

function leverBalance(id: number) {
  return app.engine.ledger.balance(id, 'lever', USDT);
}

async function fund(id: number, amount: bigint): Promise<void> {
  await submit({ type: 'deposit', userId: id, currencyId: USDT, amount });
  await submit({
    type: 'transfer',
    userId: id,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'lever',
    amount,
  });
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  const realtime = app.realtime as { toUser: (userId: number, event: string, payload: unknown) => void };
  const original = realtime.toUser.bind(realtime);
  realtime.toUser = (id, event, payload) => {
    pushes.push({ userId: id, event, payload });
    original(id, event, payload);
  };
  userId = await createUser(store);
  token = await loginAs(store, userId);
  otherId = await createUser(store);
  otherToken = await loginAs(store, otherId);
  // The house's lever wallet pays profits, the insurance fund shortfalls (a live demo server funds both).
  await submit({
    type: 'systemFund',
    owner: 'house',
    wallet: 'lever',
    currencyId: USDT,
    amount: 1_000_000n * UNIT,
  });
  await submit({
    type: 'systemFund',
    owner: 'insurance',
    wallet: 'lever',
    currencyId: USDT,
    amount: 100_000n * UNIT,
  });
  await fund(userId, 10_000n * UNIT);
  await fund(otherId, 1_000n * UNIT);
  await mark(6_700_000);
}, 60_000);

let closed = false;

afterAll(async () => {
  if (!closed) await app.close();
  await store.close();
  await removeTempDirs();
});

describe('the first start', () => {
  it('configures the lever markets from the catalogue', () => {
    const pair = app.engine.lever.pair(BTC_USDT);
    expect(pair).toMatchObject({ enabled: true, multiples: [5, 10, 20, 50], liquidationThresholdBp: 1_000 });
    expect(app.engine.lever.pair(2)?.enabled).toBe(true);
    expect(app.engine.ledger.balance('insurance', 'lever', USDT).available).toBe(100_000n * UNIT);
    expect(app.engine.ledger.balance('house', 'lever', USDT).available).toBe(1_000_000n * UNIT);
  });

  it('answers /lever/deal with the rules, the calc terms and the account; a visitor gets no account', async () => {
    const body = await call('POST', '/api/lever/deal', { legal_id: USDT, currency_id: BTC });
    expect(body.type).toBe('ok');
    expect(body.message).toMatchObject({
      lever_available: true,
      symbol: 'BTC/USDT',
      multiple: { muit: [{ value: 5 }, { value: 10 }, { value: 20 }, { value: 50 }] },
      lever_share_limit: { min: 1, max: 1000 },
      user_lever: '10000.000000',
      rules: { enabled: true, spread: '0.05', lever_trade_fee: '0.1', liquidation_threshold: '10' },
      risk: { hazard_rate: '0', lever_balance: '10000.000000' },
    });
    expect(body.message.calc.account).toMatchObject({ balance_minor: '10000000000', net_lots: 0 });
    const visitor = await call('POST', '/api/lever/deal', { legal_id: USDT, currency_id: BTC }, '');
    expect(visitor.message.user_lever).toBeNull();
    expect(visitor.message.risk).toBeNull();
    expect(visitor.message.calc.account).toBeNull();
  });
});

describe('a long with stops', () => {
  let id: number;

  it('opens at the mark plus the spread, holds the margin and takes the fee', async () => {
    const before = leverBalance(userId);
    const body = await call('POST', '/api/lever/submit', {
      legal_id: USDT,
      currency_id: BTC,
      multiple: 10,
      share: 1,
      type: 1,
      status: 1,
    });
    expect(body.type).toBe('ok');
    const trade = body.message.trade;
    id = trade.id;
    // 67,000 x 1.0005 = 67,033.50; one share is 0.01 BTC: value 670.335, margin 67.0335 (up), fee 0.670335.
    expect(trade).toMatchObject({
      status: 1,
      type: 1,
      symbol: 'BTC/USDT',
      price: '67033.50',
      origin_price: '67000.00',
      number: '0.0100',
      origin_caution_money: '67.033500',
      caution_money: '67.033500',
      trade_fee: '0.670335',
      overnight_money: '0.000000',
    });
    // Cross margin: the 10,000 USDT balance carries this position at any positive mark.
    expect(trade.liquidation_price).toBeNull();
    const after = leverBalance(userId);
    expect(before.available - after.available).toBe(67_033_500n + 670_335n);
    expect(after.locked - before.locked).toBe(67_033_500n);
    // The push leaves after the reply (once the batch is committed): wait for the one that lists the position.
    const listed = (entry: (typeof pushes)[number]) =>
      entry.userId === userId &&
      entry.event === 'lever_trade' &&
      (JSON.parse((entry.payload as { trades_all: string }).trades_all) as { id: number }[]).some(
        (row) => row.id === id,
      );
    await until(() => pushes.some(listed));
    const payload = pushes.findLast(listed)?.payload as { trades_all: string; hazard_rate: string };
    expect(Number(payload.hazard_rate)).toBeGreaterThan(100);
  });

  it('lists it under holdings for its owner only', async () => {
    const mine = await call('POST', '/api/lever/my_trade', { status: 1, page: 1 });
    expect(mine.message.data.map((row: { id: number }) => row.id)).toEqual([id]);
    expect(mine.message).toMatchObject({ total: 1, per_page: 10 });
    const theirs = await call('POST', '/api/lever/my_trade', { status: 1 }, otherToken);
    expect(theirs.message.data).toEqual([]);
  });

  it('names the reserve for open losses when a transfer out of the lever wallet asks too much (issue 45)', async () => {
    // The mark falls 10 %: the long loses about 67 USDT, which the lever wallet must keep.
    await mark(6_030_000);
    const reserved = app.engine.lever.risk(userId, USDT).reserved;
    expect(reserved).toBeGreaterThan(0n);
    const before = leverBalance(userId);
    const body = await call('POST', '/api/wallet/change', {
      currency_id: USDT,
      from_field: 'lever',
      to_field: 'change',
      number: (before.available / UNIT).toString(),
    });
    expect(body.type).toBe('error');
    const movable = before.available - reserved;
    expect(body.message).toContain('reserved for the losses of your open positions');
    expect(body.message).toContain(`at most ${movable / UNIT}.`);
    expect(leverBalance(userId)).toEqual(before);
    await mark(6_700_000);
  });

  it('refuses stops on the wrong side and another user touching the position, changing nothing', async () => {
    const wrong = await call('POST', '/api/lever/setstop', {
      id,
      target_profit_price: '60000',
      stop_loss_price: '0',
    });
    expect(wrong).toMatchObject({ type: 'error' });
    expect(wrong.message).toMatch(/take-profit/i);
    expect(app.engine.lever.position(id)?.takeProfitTicks).toBe(0);
    for (const url of ['/api/lever/close', '/api/lever/setstop', '/api/lever/cancel']) {
      const body = await call('POST', url, { id, target_profit_price: '70000' }, otherToken);
      expect(body).toEqual({ type: 'error', message: 'No such position or order.' });
    }
    expect(app.engine.lever.position(id)?.status).toBe(1);
  });

  it('sets the stops and closes at the mark that crossed the take-profit', async () => {
    const body = await call('POST', '/api/lever/setstop', {
      id,
      target_profit_price: '68000',
      stop_loss_price: '66000.5',
    });
    expect(body.type).toBe('ok');
    expect(body.message.trade).toMatchObject({
      target_profit_price: '68000.00',
      stop_loss_price: '66000.50',
    });
    const before = leverBalance(userId);
    await mark(6_810_000);
    expect(app.engine.lever.position(id)).toBeUndefined();
    const closed = await call('POST', '/api/lever/my_trade', { status: 3 });
    const row = closed.message.data.find((candidate: { id: number }) => candidate.id === id);
    // (68,100 - 67,033.50) x 0.01 = 10.665 profit; margin 67.0335 back.
    expect(row).toMatchObject({
      status: 3,
      close_reason: 'take_profit',
      update_price: '68100.00',
      profits: '10.665000',
      paid_back: '77.698500',
      insurance_paid: '0.000000',
    });
    const after = leverBalance(userId);
    expect(after.available - before.available).toBe(77_698_500n);
    expect(after.locked).toBe(0n);
  });
});

describe('a limit entry', () => {
  it('holds margin and fee, is listed as an open order, and revoking returns both', async () => {
    const before = leverBalance(userId);
    const body = await call('POST', '/api/lever/submit', {
      legal_id: USDT,
      currency_id: BTC,
      multiple: 5,
      share: 2,
      type: 1,
      status: 0,
      target_price: '60000',
    });
    expect(body.type).toBe('ok');
    const trade = body.message.trade;
    expect(trade).toMatchObject({ status: 0, target_price: '60000.00', price: '60000.00' });
    expect(leverBalance(userId).available).toBeLessThan(before.available);
    const entries = await call('POST', '/api/lever/my_trade', {
      status: 0,
      legal_id: USDT,
      currency_id: BTC,
    });
    expect(entries.message.data.map((row: { id: number }) => row.id)).toEqual([trade.id]);
    const revoked = await call('POST', '/api/lever/cancel', { id: trade.id });
    expect(revoked).toMatchObject({ type: 'ok', message: { trade: { status: 4 } } });
    expect(leverBalance(userId)).toEqual(before);
    const list = await call('POST', '/api/lever/my_trade', { status: 4 });
    expect(list.message.data[0]).toMatchObject({ id: trade.id, status: 4, paid_back: '241.200000' });
  });

  it('refuses a long target above the mark, without a price or off the tick', async () => {
    const before = leverBalance(userId);
    const base = { legal_id: USDT, currency_id: BTC, multiple: 5, share: 1, type: 1, status: 0 };
    const above = await call('POST', '/api/lever/submit', { ...base, target_price: '70000' });
    expect(above.message).toMatch(/below the current price/);
    const none = await call('POST', '/api/lever/submit', base);
    expect(none).toEqual({ type: 'error', message: 'A limit order needs a price.' });
    const tick = await call('POST', '/api/lever/submit', { ...base, target_price: '60000.001' });
    expect(tick.type).toBe('error');
    expect(leverBalance(userId)).toEqual(before);
  });
});

describe('bad input', () => {
  it('answers a translated refusal, changes nothing, never a 500', async () => {
    const before = leverBalance(userId);
    const cases: [string, Record<string, unknown>][] = [
      ['/api/lever/submit', { legal_id: USDT, currency_id: BTC, multiple: 7, share: 1, type: 1, status: 1 }],
      ['/api/lever/submit', { legal_id: USDT, currency_id: BTC, multiple: 10, share: 0, type: 1, status: 1 }],
      [
        '/api/lever/submit',
        { legal_id: USDT, currency_id: BTC, multiple: 10, share: 5000, type: 1, status: 1 },
      ],
      [
        '/api/lever/submit',
        { legal_id: USDT, currency_id: BTC, multiple: 10, share: 1.5, type: 1, status: 1 },
      ],
      ['/api/lever/submit', { legal_id: USDT, currency_id: BTC, multiple: 10, share: 1, type: 3, status: 1 }],
      ['/api/lever/submit', { legal_id: 99, currency_id: BTC, multiple: 10, share: 1, type: 1, status: 1 }],
      [
        '/api/lever/submit',
        { legal_id: USDT, currency_id: BTC, multiple: 10, share: 10_000, type: 1, status: 1 },
      ],
      ['/api/lever/my_trade', { status: 2 }],
      ['/api/lever/close', { id: 'x' }],
      ['/api/lever/close', { id: 999_999 }],
      ['/api/lever/batch_close', { type: 5 }],
      ['/api/lever/setstop', { id: 1, target_profit_price: 'abc' }],
    ];
    for (const [url, payload] of cases) {
      const body = await call('POST', url, payload);
      expect(body.type, `${url} ${JSON.stringify(payload)}`).toBe('error');
      expect(body.message).toMatch(/\S/);
    }
    const zh = await app.inject({
      method: 'POST',
      url: '/api/lever/submit?lang=zh',
      headers: { authorization: token },
      payload: { legal_id: USDT, currency_id: BTC, multiple: 7, share: 1, type: 1, status: 1 },
    });
    expect(zh.json()).toEqual({ type: 'error', message: '该交易对不提供此倍数，请从列出的倍数中选择。' });
    expect(leverBalance(userId)).toEqual(before);
  });

  it('asks a visitor to log in for every private call', async () => {
    for (const url of [
      '/api/lever/submit',
      '/api/lever/my_trade',
      '/api/lever/dealall',
      '/api/lever/batch_close',
    ]) {
      const body = await call('POST', url, { status: 1, type: 0 }, '');
      expect(body.type, url).toBe('999');
    }
  });
});

describe('batch close and liquidation', () => {
  it('closes only the longs with type 1', async () => {
    const open = (type: 1 | 2) =>
      call('POST', '/api/lever/submit', {
        legal_id: USDT,
        currency_id: BTC,
        multiple: 10,
        share: 1,
        type,
        status: 1,
      });
    const long = (await open(1)).message.trade.id as number;
    const short = (await open(2)).message.trade.id as number;
    const body = await call('POST', '/api/lever/batch_close', { type: 1 });
    expect(body).toMatchObject({ type: 'ok', message: { closed: 1 } });
    expect(body.message.trades[0]).toMatchObject({ id: long, status: 3, close_reason: 'batch' });
    expect(app.engine.lever.position(short)?.status).toBe(1);
    const rest = await call('POST', '/api/lever/batch_close', { type: 0 });
    expect(rest.message.closed).toBe(1);
  });

  it('closes across every pair: the call has no pair (spec: type only), and pair fields do not narrow it', async () => {
    const SECOND = 2;
    await mark(350_000, SECOND);
    await mark(6_700_000);
    const btc = (
      await call('POST', '/api/lever/submit', {
        legal_id: USDT,
        currency_id: BTC,
        multiple: 10,
        share: 1,
        type: 1,
        status: 1,
      })
    ).message.trade.id as number;
    const outcome = await app.runner.submit({
      type: 'openLeverPosition',
      userId,
      marketId: SECOND,
      side: 1,
      share: 1,
      multiple: 10,
    });
    expect(outcome.code).toBe(0);
    const other = (outcome.reply as { positionId: number }).positionId;
    expect(app.engine.lever.position(other)?.marketId).toBe(SECOND);
    const body = await call('POST', '/api/lever/batch_close', { type: 0, legal_id: USDT, currency_id: BTC });
    expect(body.message.closed).toBe(2);
    expect(body.message.trades.map((row: { id: number }) => row.id).sort()).toEqual([btc, other].sort());
    expect(app.engine.lever.positions(userId)).toEqual([]);
  });

  it('liquidates at the threshold; the insurance fund pays the shortfall; the record shows it', async () => {
    // The other user: 50x on most of the balance, then a gap far below.
    const body = await call(
      'POST',
      '/api/lever/submit',
      { legal_id: USDT, currency_id: BTC, multiple: 50, share: 60, type: 1, status: 1 },
      otherToken,
    );
    expect([body.type, body.type === 'ok' ? '' : body.message]).toEqual(['ok', '']);
    const id = body.message.trade.id as number;
    const insurance = app.engine.ledger.balance('insurance', 'lever', USDT).available;
    await mark(5_000_000);
    expect(app.engine.lever.position(id)).toBeUndefined();
    const closed = await call('POST', '/api/lever/my_trade', { status: 3 }, otherToken);
    const row = closed.message.data[0];
    expect(row).toMatchObject({ id, close_reason: 'liquidation', update_price: '50000.00' });
    expect(Number(row.insurance_paid)).toBeGreaterThan(0);
    const paid = insurance - app.engine.ledger.balance('insurance', 'lever', USDT).available;
    expect(paid).toBeGreaterThan(0n);
    expect(leverBalance(otherId).available).toBe(0n);
    expect(leverBalance(otherId).locked).toBe(0n);
    const { rows } = await store.query<{ user_id: number; threshold_bp: number; risk_rate_bp: number }>(
      'select user_id, threshold_bp, risk_rate_bp from lever_liquidations',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.user_id).toBe(otherId);
    expect(Number(rows[0]?.risk_rate_bp)).toBeLessThanOrEqual(Number(rows[0]?.threshold_bp));
  });

  it('logs the loss taken from the held margin with its amount, not 0 (issue 45)', async () => {
    const log = await call('POST', '/api/wallet/legal_log', { type: 'lever', currency: USDT }, otherToken);
    const rows = log.message.list as { reason: string; value: string; lock_value: string; amount: string }[];
    const losses = rows.filter((row) => row.reason === 'leverLoss');
    // The margin (60 shares x 0.01 BTC x 67,033.50 / 50 = 804.402) goes from the hold: the available part
    // stays, the frozen part falls; the rest of the balance goes from the available part.
    const fromMargin = losses.find((row) => row.lock_value === '-804.402000');
    expect(fromMargin).toMatchObject({ value: '0.000000', amount: '-804.402000' });
    // Every loss row shows what it took: together all of the 1,000 USDT but the opening fee.
    const fee = rows.find((row) => row.reason === 'leverFee');
    expect(fee?.amount).toBe('-40.220100');
    const total = losses.reduce((sum, row) => sum + BigInt(row.amount.replace('.', '')), 0n);
    expect(total).toBe(-(1_000_000_000n - 40_220_100n));
    // A hold moves money between the two parts only: its row shows the available part's change.
    expect(rows.find((row) => row.reason === 'leverMarginHold')).toMatchObject({ amount: '-804.402000' });
  });

  it('withholds the share of accounts that lost money while fewer than 20 accounts closed positions', async () => {
    const body = await call('GET', '/api/lever/loss_share', undefined, '');
    // Two accounts closed positions: an exact count or share would expose them (docs/limits.md).
    expect(body.message).toEqual({
      days: 90,
      accounts: null,
      losing_accounts: null,
      losing_share: null,
      minimum_accounts: 20,
      below_minimum: true,
    });
  });

  it('answers /lever/dealall with the risk per quote currency', async () => {
    const body = await call('POST', '/api/lever/dealall', {});
    expect(body).toMatchObject({ type: 'ok', message: { trades_all: [], trades_entrust: [] } });
  });
});

describe('the projection', () => {
  it('is rebuilt from the journal into the same rows', async () => {
    await app.close();
    closed = true;
    const dump = async () =>
      Promise.all(
        LEVER_TABLES.map(
          async (table) => (await store.query(`select * from ${table} order by 1, 2, 3`)).rows,
        ),
      );
    const live = await dump();
    // Every table but lever_opens (no limit entry opened here) holds rows of the flows above.
    expect(live.map((rows) => rows.length > 0)).toEqual([true, false, true, true, true]);
    await rebuildExchangeProjections(store);
    expect(await dump()).toEqual(live);
  });
});
