// Token sales, cloud mining and defi staking on a real app (PGlite) with the demo products (DEMO=on, demo data):
// every call answers in the spec's shape with figures equal to the engine's ledger; purchases, accrual over
// days that pass (the clock is moved, the accrual job catches up each missed day once), extraction,
// maturity and an early exit move exactly the money they say; bad input and another user's holdings answer
// with a translated refusal that changes nothing, never a 500.
import type { FastifyInstance } from 'fastify';
import type { Command } from '@fairex/engine';
import { DAY_MS, defiDaily } from '@fairex/engine/calc';
import { formatDecimal, translate } from '@fairex/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, projected, removeTempDirs } from '../helper.ts';

const USDT = 3;
const BTC = 1;
const UNIT = 1_000_000n;
let store: Store;
let app: FastifyInstance;
let userId: number;
let otherId: number;
let token: string;
let otherToken: string;
// Six in the morning (UTC) of tomorrow: ahead of the database's own clock, which checks session expiry.
let nowMs = (Math.floor(Date.now() / DAY_MS) + 1) * DAY_MS + 6 * 3_600_000;

async function submit(command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

async function call(
  method: 'GET' | 'POST',
  url: string,
  body?: Record<string, unknown>,
  auth = token,
  lang = 'en',
) {
  // Accruals and ends the test submits are projected behind the journal: wait before reading.
  await projected(app);
  const response = await app.inject({
    method,
    url: `${url}?lang=${lang}`,
    headers: auth === '' ? {} : { authorization: auth },
    ...(body === undefined ? {} : { payload: body }),
  });
  expect(response.statusCode).toBe(200);
  // Replies of several shapes, each checked by value below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any };
}

/** Everything a refused call must leave as it was: the products, the holdings and every balance. */
function fingerprint(): string {
  const engine = app.engine;
  return JSON.stringify(
    {
      products: engine.products.products(),
      mine: engine.products.holdingsOf(userId),
      other: engine.products.holdingsOf(otherId),
      accounts: engine.ledger.accounts(),
    },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

async function advanceDays(days: number): Promise<void> {
  nowMs += days * DAY_MS;
  vi.setSystemTime(nowMs);
  token = await loginAs(store, userId);
  otherToken = await loginAs(store, otherId);
}

const productOf = (kind: 'ico' | 'miner' | 'defi', rate?: 'fixed' | 'recorded') =>
  app.engine.products
    .products()
    .find((product) => product.kind === kind && (rate === undefined || product.terms.rateKind === rate))!;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: nowMs });
  store = await openTestStore();
  app = await buildTestApp(store, { demoData: true });
  await app.ready();
  userId = await createUser(store);
  otherId = await createUser(store);
  token = await loginAs(store, userId);
  otherToken = await loginAs(store, otherId);
  for (const id of [userId, otherId]) {
    await submit({ type: 'deposit', userId: id, currencyId: USDT, amount: 30_000n * UNIT });
    for (const wallet of ['ico', 'miner', 'defi'] as const)
      await submit({
        type: 'transfer',
        userId: id,
        currencyId: USDT,
        fromWallet: 'change',
        toWallet: wallet,
        amount: 10_000n * UNIT,
      });
  }
}, 60_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  vi.useRealTimers();
  await removeTempDirs();
});

describe('demo products', () => {
  it('opens an IEPN sale with IEPN/USDT listed for spot, two miners and two defi products, funded by the house', () => {
    const products = app.engine.products.products();
    expect(products.map((product) => [product.kind, product.status])).toEqual([
      ['ico', 'open'],
      ['miner', 'open'],
      ['miner', 'open'],
      ['defi', 'open'],
      ['defi', 'open'],
    ]);
    for (const product of products) expect(product.reserve).toBe(product.requiredReserve);
    const iepn = app.engine.ledger.currencies().find((currency) => currency.code === 'IEPN')!;
    const market = app.engine.spot
      .markets()
      .find((candidate) => candidate.baseCurrencyId === iepn.currencyId);
    expect(market?.quoteCurrencyId).toBe(USDT);
  });
});

describe('token sale', () => {
  it('serves the IEPN page and the list from the ledger', async () => {
    const page = await call('GET', '/api/iepn', undefined, '');
    expect(page).toMatchObject({
      type: 'ok',
      message: {
        symbol: 'IEPN',
        total: '10000000',
        price: '0.100000',
        yfx: '0',
        sy: '10000000',
        market_symbol: 'IEPN/USDT',
      },
    });
    const list = await call('POST', '/api/ico/list', { status: -1 }, '');
    expect(list.message.data).toHaveLength(1);
    expect(list.message.data[0]).toMatchObject({
      ico_symbol: 'IEPN',
      ico_has: '0',
      hold_number: '0',
      ico_load: '0.00',
    });
    // The rule's prose groups its counts as the card's figures do.
    expect(list.message.data[0].rule_text).toContain(
      '10,000,000 tokens are on sale in all; at most 1,000,000 per user',
    );
    expect((await call('POST', '/api/ico/list', { status: 1 }, '')).type).toBe('999');
  });

  it('buys tokens: quantity x price from the ico wallet, progress from what was sold', async () => {
    const sale = productOf('ico');
    const reply = await call('POST', '/api/ico/buy', { id: sale.productId, number: 2_500 });
    expect(reply).toMatchObject({ type: 'ok', message: { number: '2500', amount: '250.000000' } });
    const iepn = sale.terms.currencyId;
    expect(app.engine.ledger.balance(userId, 'ico', iepn).available).toBe(2_500n * 10_000n);
    expect(app.engine.ledger.balance(userId, 'ico', USDT).available).toBe(9_750n * UNIT);
    const item = (await call('POST', '/api/ico/list', { status: 1 })).message.data[0];
    expect(item).toMatchObject({
      ico_has: '2500',
      hold_number: '2500',
      hold_amount: '250.000000',
      ico_load: '0.02',
    });
    expect((await call('GET', '/api/iepn', undefined, '')).message).toMatchObject({
      yfx: '2500',
      sy: '9997500',
    });
    expect((await call('POST', '/api/ico/balance', {})).message.balance).toEqual({
      currency: USDT,
      currency_name: 'USDT',
      ico_balance: '9750.000000',
      lock_ico_balance: '0.000000',
    });
  });

  it('refuses bad quantities, unknown sales, the cap and a short wallet in words, changing nothing', async () => {
    const sale = productOf('ico');
    const before = fingerprint();
    for (const number of [0, -1, 'abc', '1.5', ''])
      expect((await call('POST', '/api/ico/buy', { id: sale.productId, number })).type).toBe('error');
    const unknown = await call('POST', '/api/ico/buy', { id: 999, number: 1 }, token, 'zh');
    expect(unknown).toEqual({ type: 'error', message: translate('zh', 'products.not_found') });
    const capped = await call('POST', '/api/ico/buy', { id: sale.productId, number: 1_000_000 });
    expect(capped.message).toBe(translate('en', 'products.user_cap'));
    const short = await call('POST', '/api/ico/buy', { id: sale.productId, number: 200_000 });
    expect(short.message).toBe(translate('en', 'products.insufficient_ico'));
    expect((await call('POST', '/api/ico/buy', { id: sale.productId, number: 1 }, '')).type).toBe('999');
    expect(fingerprint()).toBe(before);
  });
});

describe('cloud mining', () => {
  let rentId: number;

  it('rents units: price x units plus the fee from the miner wallet', async () => {
    const miner = productOf('miner', 'fixed');
    const reply = await call('POST', '/api/miner/buy', { id: miner.productId, number: 3 });
    expect(reply).toMatchObject({
      type: 'ok',
      message: { rent: '450.000000', fee: '9.000000', paid: '459.000000' },
    });
    rentId = reply.message.holding_id as number;
    expect(app.engine.ledger.balance(userId, 'miner', USDT).available).toBe(10_000n * UNIT - 459n * UNIT);
    const record = await call('POST', '/api/miner/record', { status: 1 });
    expect(record.message.data).toHaveLength(1);
    expect(record.message.data[0]).toMatchObject({
      id: rentId,
      miner_number: '3',
      earnings_total: '0.00000000',
    });
    const list = await call('POST', '/api/miner/list', { status: -1 }, '');
    expect(list.message.data).toHaveLength(2);
    expect(list.message.data[0]).toMatchObject({
      miner_day: 30,
      miner_fee: '2',
      sold: '3',
      miner_hashrate: '110 TH/s',
    });
  });

  it('accrues each ended day once, catching up missed days, and extracts into the miner wallet', async () => {
    await advanceDays(4); // the rent's first day starts the day after it; 3 full days have ended
    const run = await app.products.accrueNow();
    expect(run.accrued).toBeGreaterThanOrEqual(3);
    expect((await app.products.accrueNow()).accrued).toBe(0); // a second run changes nothing
    const info = await call('POST', '/api/miner/info', { id: rentId });
    expect(info.message).toMatchObject({
      days_accrued: 3,
      earnings_total: '0.00018000',
      end_day: 27,
      miner_number: '3',
    });
    const earnings = await call('POST', '/api/miner/earnings', { id: rentId });
    expect(earnings.message.data).toHaveLength(3);
    expect(earnings.message.data[0]).toMatchObject({ earnings_amount: '0.00006000', currency_name: 'BTC' });
    const tooMuch = await call('POST', '/api/miner/extract', { id: rentId, number: '0.00018001' });
    expect(tooMuch).toEqual({ type: 'error', message: translate('en', 'products.nothing_to_extract') });
    const extract = await call('POST', '/api/miner/extract', { id: rentId, number: '0.0001' });
    expect(extract.type).toBe('ok');
    expect(app.engine.ledger.balance(userId, 'miner', BTC).available).toBe(10_000n);
    const records = await call('POST', '/api/miner/extract_record', { id: rentId });
    expect(records.message.data).toEqual([
      expect.objectContaining({ extract_amount: '0.00010000', currency_name: 'BTC' }),
    ]);
  });

  it('scopes rents to their owner and refuses bad input without a change', async () => {
    const before = fingerprint();
    for (const url of ['/api/miner/info', '/api/miner/earnings', '/api/miner/extract_record']) {
      const reply = await call('POST', url, { id: rentId }, otherToken);
      expect(reply).toEqual({ type: 'error', message: translate('en', 'products.holding_not_found') });
    }
    expect(
      (await call('POST', '/api/miner/extract', { id: rentId, number: '0.00001' }, otherToken)).type,
    ).toBe('error');
    for (const number of ['0', '-1', 'x', '0.000000001'])
      expect((await call('POST', '/api/miner/extract', { id: rentId, number })).type).toBe('error');
    expect(
      (await call('POST', '/api/miner/buy', { id: productOf('ico').productId, number: 1 })).message,
    ).toBe(translate('en', 'products.not_found'));
    expect(fingerprint()).toBe(before);
  });
});

describe('defi staking', () => {
  let stakeId: number;
  let exitId: number;

  it('stakes whole coins, lists the stake, accrues and returns principal and earnings at the end', async () => {
    const flexible = productOf('defi');
    const list = await call('POST', '/api/defi/list', { status: -1 }, '');
    expect(list.message.data).toHaveLength(2);
    expect(list.message.data[0]).toMatchObject({
      defi_day: 30,
      defi_earnings: '8',
      defi_number: '0',
      early_exit: 'forfeit',
    });
    const bought = await call('POST', '/api/defi/buy', { id: flexible.productId, number: 1_000 });
    expect(bought.type).toBe('ok');
    stakeId = bought.message.holding_id as number;
    const other = await call('POST', '/api/defi/buy', { id: flexible.productId, number: 10 });
    exitId = other.message.holding_id as number;
    expect(app.engine.ledger.balance(userId, 'defi', USDT)).toEqual({
      available: 8_990n * UNIT,
      locked: 1_010n * UNIT,
    });
    expect((await call('POST', '/api/defi/balance', { currency: USDT })).message.balance).toMatchObject({
      defi_balance: '8990.000000',
      lock_defi_balance: '1010.000000',
    });
    expect((await call('GET', '/api/defi/total')).message).toEqual({
      balance: '10000.000000',
      total: '1010.000000',
    });
    const record = await call('POST', '/api/defi/record', { status: 1 });
    expect(record.message.data[0]).toMatchObject({ defi_number: '1010' });
    expect(record.message.data[0].stakes).toHaveLength(2);
  });

  it('leaves a stake early with the principal, the accrued earnings forfeited', async () => {
    await advanceDays(3);
    await app.products.accrueNow();
    const daily = defiDaily({ principal: 10n * UNIT, aprBp: 800 });
    const reply = await call('POST', '/api/defi/exit', { id: exitId });
    expect(reply.type).toBe('ok');
    expect(reply.message.forfeited).toBe(`0.${(daily * 2n).toString().padStart(6, '0')}`);
    expect((await call('POST', '/api/defi/exit', { id: stakeId }, otherToken)).message).toBe(
      translate('en', 'products.holding_not_found'),
    );
  });

  it('matures: principal and every day of earnings back to the defi wallet', async () => {
    await advanceDays(30);
    await app.products.accrueNow();
    const daily = defiDaily({ principal: 1_000n * UNIT, aprBp: 800 });
    expect(app.engine.products.holding(stakeId)).toBeUndefined();
    expect(app.engine.ledger.balance(userId, 'defi', USDT)).toEqual({
      available: 10_000n * UNIT + daily * 30n,
      locked: 0n,
    });
    const ended = await call('POST', '/api/defi/record', { status: 2 });
    const stakes = ended.message.data.flatMap((item: { stakes: unknown[] }) => item.stakes);
    expect(stakes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: stakeId, state: 'matured' }),
        expect.objectContaining({ id: exitId, state: 'exited' }),
      ]),
    );
    // The rent of the miner ended too: 30 days of 3 units at 0.00002 BTC.
    const miner = await call('POST', '/api/miner/record', { status: 2 });
    expect(miner.message.data[0]).toMatchObject({
      earnings_total: '0.00170000',
      earnings_extract: '0.00010000',
    });
  });

  it('refuses a stake that is not a whole number, and answers visitors with 999 where login is needed', async () => {
    const before = fingerprint();
    const flexible = productOf('defi');
    for (const number of ['1.5', '0', 'abc'])
      expect((await call('POST', '/api/defi/buy', { id: flexible.productId, number })).type).toBe('error');
    expect((await call('GET', '/api/defi/total', undefined, '')).type).toBe('999');
    expect((await call('POST', '/api/defi/record', { status: 1 }, '')).type).toBe('999');
    expect((await call('POST', '/api/miner/list', { status: 1 }, '')).type).toBe('999');
    expect(fingerprint()).toBe(before);
  });
});

describe('wallet calls', () => {
  it('answers the ico, miner and defi wallets of the user only, and refuses bad input in words', async () => {
    const miner = await call('POST', '/api/miner/balance', {});
    expect(miner).toEqual({
      type: 'ok',
      message: {
        balance: {
          currency: USDT,
          currency_name: 'USDT',
          miner_balance: formatDecimal(app.engine.ledger.balance(userId, 'miner', USDT).available, 6),
          lock_miner_balance: '0.000000',
        },
      },
    });
    const btc = await call('POST', '/api/miner/balance', { currency: BTC });
    expect(btc.message.balance).toMatchObject({ currency_name: 'BTC', miner_balance: '0.00010000' });
    const other = await call('POST', '/api/miner/balance', { currency: BTC }, otherToken);
    expect(other.message.balance.miner_balance).toBe('0.00000000');
    const before = fingerprint();
    for (const url of ['/api/ico/balance', '/api/miner/balance', '/api/defi/balance']) {
      expect((await call('POST', url, { currency: 'x' })).type).toBe('error');
      expect(await call('POST', url, { currency: 999 }, token, 'hk')).toEqual({
        type: 'error',
        message: translate('hk', 'products.not_found'),
      });
      expect((await call('POST', url, { currency: USDT }, '')).type).toBe('999');
    }
    for (const url of [
      '/api/ico/list',
      '/api/miner/list',
      '/api/miner/record',
      '/api/defi/list',
      '/api/defi/record',
    ])
      expect((await call('POST', url, { status: 5 })).type).toBe('error');
    expect(fingerprint()).toBe(before);
  });
});

describe('figures equal the ledger', () => {
  it('serves sold, remaining and the house holds as the ledger holds them, and the SQL purchases sum to sold', async () => {
    const houseHolds = app.engine.ledger.holds('house');
    const held = (area: string, ref: number) =>
      houseHolds.find((hold) => hold.area === area && hold.ref === ref)?.amount ?? 0n;
    const sale = productOf('ico');
    const item = (await call('POST', '/api/ico/list', { status: -1 }, '')).message.data[0];
    const unit = 10n ** BigInt(app.engine.ledger.currency(sale.terms.currencyId)!.scale);
    expect(BigInt(item.remaining) * unit).toBe(held('products', sale.productId));
    expect(BigInt(item.ico_has) + BigInt(item.remaining)).toBe(sale.terms.totalUnits);
    const { rows } = await store.query<{ units: string }>(
      'select coalesce(sum(units), 0)::text as units from product_purchases where product_id = $1',
      [sale.productId],
    );
    expect(rows[0]!.units).toBe(item.ico_has);
    for (const miner of (await call('POST', '/api/miner/list', { status: -1 }, '')).message.data) {
      const product = app.engine.products.product(miner.id)!;
      const scale = app.engine.ledger.currency(product.terms.currencyId)!.scale;
      expect(miner.house.reserved).toBe(formatDecimal(held('products', miner.id), scale));
      expect(miner.house.accrued_unpaid).toBe(formatDecimal(held('products.earned', miner.id), scale));
    }
  });
});

describe('a restart', () => {
  it('recovers every product and holding from the journal and snapshot', async () => {
    const before = fingerprint();
    await app.close();
    app = await buildTestApp(store, { demoData: true });
    await app.ready();
    expect(fingerprint()).toBe(before);
    expect(app.engine.products.products()).toHaveLength(5); // the demo is not created twice
  });
});

describe('projections', () => {
  it('rebuilds from the journal to the same rows', async () => {
    const tables = [
      'product_purchases',
      'product_accruals',
      'product_extractions',
      'product_stake_ends',
      'product_changes',
    ];
    const before: Record<string, unknown[]> = {};
    for (const table of tables)
      before[table] = (await store.query(`select * from ${table} order by 1, 2`)).rows;
    expect(before.product_accruals!.length).toBeGreaterThan(3);
    const { rebuildExchangeProjections } = await import('../../src/exchange-runner.ts');
    await rebuildExchangeProjections(store);
    for (const table of tables)
      expect((await store.query(`select * from ${table} order by 1, 2`)).rows).toEqual(before[table]);
  });
});
