// The back office of the products on a real app (PGlite): an administrator creates a draft miner with an
// operator-recorded rate, cannot open it until the house account holds what it promises, opens it, records
// a day's rate before the day starts (a late or out-of-range one is refused in words, changing nothing),
// edits a future term, lists holdings and accruals; every change is audited; a reviewer is refused.
import type { Command } from '@fairex/engine';
import { dayOf } from '@fairex/engine/calc';
import type { AdminPage, AdminProductLine, AdminProductsReply } from '@fairex/shared';
import { translate } from '@fairex/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../helper.ts';
import type { BackofficeTestApp, TestAdmin } from './helpers.ts';
import { auditActions, backofficeApp, call, expectOk, newAdmin } from './helpers.ts';

const BTC = 1;
const USDT = 3;
let test: BackofficeTestApp;
let admin: TestAdmin;
let reviewer: TestAdmin;

async function submit(command: Command): Promise<void> {
  const outcome = await test.app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

const post = (url: string, body: Record<string, unknown>, token = admin.token, lang = 'en') =>
  call(test.app, 'POST', url, body, { token, lang });
const get = (url: string, query: Record<string, unknown> = {}, token = admin.token) =>
  call(test.app, 'GET', url, query, { token });

const minerForm = {
  kind: 'miner',
  title: 'Test miner',
  label: '50 TH/s',
  start_time: 0,
  end_time: 4_000_000_000_000,
  earn_currency_id: BTC,
  pay_currency_id: USDT,
  total: 100,
  price: '100',
  fee_bp: 100,
  days: 10,
  rate_kind: 'recorded',
  earnings_min: '0.00001',
  earnings_max: '0.00003',
};

beforeAll(async () => {
  test = await backofficeApp();
  admin = await newAdmin(test, 'admin');
  reviewer = await newAdmin(test, 'reviewer');
}, 60_000);

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

describe('products back office', () => {
  let id: number;

  it('creates a draft and opens it only once the house account holds its promise', async () => {
    const line = expectOk<AdminProductLine>(await post('/backoffice/products/create', minerForm));
    id = line.id;
    expect(line).toMatchObject({
      kind: 'miner',
      status: 'draft',
      rate_kind: 'recorded',
      earnings_max: '0.00003000',
    });
    // 100 units x 0.00003 BTC x 10 days = 0.03 BTC.
    const refused = await post('/backoffice/products/open', { id });
    expect(refused).toEqual({ type: 'error', message: translate('en', 'products.house_short') });
    const short = await post('/backoffice/products/fund', { id, amount: '0.03' });
    expect(short.message).toBe(translate('en', 'products.house_change_short'));
    await submit({ type: 'systemFund', owner: 'house', currencyId: BTC, amount: 3_000_000n });
    const funded = expectOk<AdminProductLine>(
      await post('/backoffice/products/fund', { id, amount: '0.03' }),
    );
    expect(funded.house_available).toBe('0.03000000');
    const opened = expectOk<AdminProductLine>(await post('/backoffice/products/open', { id }));
    expect(opened).toMatchObject({
      status: 'open',
      reserve_required: '0.03000000',
      house_available: '0.00000000',
    });
    expect(opened.house.reserved).toBe('0.03000000');
    expect(await auditActions(test.store, 'product', id)).toEqual([
      'products.create',
      'products.fund',
      'products.open',
    ]);
  });

  it('records a rate for a day to come, refusing a started day or one outside the range', async () => {
    const today = dayOf(Date.now());
    const before = JSON.stringify(test.app.engine.products.product(id), (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    const late = await post('/backoffice/products/miner_rate', { id, day: today, amount: '0.00002' });
    expect(late.message).toBe(translate('en', 'products.rate_too_late'));
    const high = await post(
      '/backoffice/products/miner_rate',
      { id, day: today + 1, amount: '0.00004' },
      admin.token,
      'jp',
    );
    expect(high.message).toBe(translate('jp', 'products.rate_out_of_range'));
    expect(
      JSON.stringify(test.app.engine.products.product(id), (_k, v: unknown) =>
        typeof v === 'bigint' ? v.toString() : v,
      ),
    ).toBe(before);
    expectOk(await post('/backoffice/products/miner_rate', { id, day: today + 1, amount: '0.000025' }));
    const rates = expectOk<AdminPage<{ day: number; amount: string; recorded: boolean }>>(
      await get('/backoffice/products/rates', { id }),
    );
    expect(rates.data[0]).toMatchObject({ day: today + 1, amount: '0.00002500', recorded: true });
  });

  it('edits a future term, refusing a locked one while rents run', async () => {
    const user = await test.app.store.query<{ id: number }>(
      `insert into users (account, email, password_hash, extension_code) values ('p@example.com', 'p@example.com', 'x', 'INVP1') returning id`,
    );
    const userId = user.rows[0]!.id;
    await submit({ type: 'deposit', userId, currencyId: USDT, amount: 1_000_000_000n });
    await submit({
      type: 'transfer',
      userId,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'miner',
      amount: 1_000_000_000n,
    });
    await submit({ type: 'buyMiner', userId, productId: id, quantity: 2 });
    const locked = await post('/backoffice/products/edit', { ...minerForm, id, earnings_max: '0.00005' });
    expect(locked.message).toBe(translate('en', 'products.terms_locked'));
    const edited = expectOk<AdminProductLine>(
      await post('/backoffice/products/edit', { ...minerForm, id, price: '90' }),
    );
    expect(edited).toMatchObject({ price: '90.000000', sold: '2' });
    const holdings = expectOk<AdminPage<{ user_id: number; number: string; paid: string; state: string }>>(
      await get('/backoffice/products/holdings', { id }),
    );
    expect(holdings.data).toEqual([
      expect.objectContaining({ user_id: userId, number: '2', paid: '200.000000', state: 'running' }),
    ]);
    const accruals = expectOk<AdminPage<unknown>>(await get('/backoffice/products/accruals', { id }));
    expect(accruals.data).toEqual([]);
  });

  it('lists the products for an administrator and refuses a reviewer, who may neither read nor change them', async () => {
    const list = expectOk<AdminProductsReply>(await get('/backoffice/products'));
    expect(list.products.map((product) => product.id)).toContain(id);
    expect((await get('/backoffice/products', {}, reviewer.token)).type).toBe('error');
    const refused = await post('/backoffice/products/close', { id }, reviewer.token);
    expect(refused.type).toBe('error');
    expect(test.app.engine.products.product(id)!.status).toBe('open');
    expectOk(await post('/backoffice/products/close', { id }));
    expect(test.app.engine.products.product(id)!.status).toBe('closed');
  });
});
