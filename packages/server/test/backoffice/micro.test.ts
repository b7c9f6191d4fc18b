// The back office of seconds contracts on a real app (PGlite): reads for the roles that read finance,
// changes for the role that changes settings; each change goes through the engine's journaled command (it
// shows in engine.micro.config()) and into the audit log with before and after; bad input and engine
// refusals answer in words and change nothing; funding the reserve moves exactly the amount from the
// house's change wallet to its micro wallet; settled orders are listed with filters and their proofs.
import type { Command, PriceSourceQuote } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MicroAdminConfig, MicroAdminOrder, MicroReserveLine, Paged } from '@fairex/shared';
import { removeTempDirs } from '../helper.ts';
import type { BackofficeTestApp, Reply, TestAdmin, TestUser } from './helpers.ts';
import { backofficeApp, call, expectOk, newAdmin, newUser } from './helpers.ts';

const USDT = 3;
const UNIT = 1_000_000n;
let test: BackofficeTestApp;
let admin: TestAdmin;
let reviewer: TestAdmin;
let user: TestUser;

async function submit(command: Command): Promise<void> {
  const outcome = await test.app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

async function sample(priceTicks: number): Promise<void> {
  const quote: PriceSourceQuote = ['simulated', priceTicks, Date.now()];
  await submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[1, [quote]]],
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function auditCount(action: string): Promise<number> {
  const { rows } = await test.store.query<{ n: number }>(
    'select count(*)::int as n from audit_log where action = $1',
    [action],
  );
  return rows[0]?.n ?? 0;
}

async function lastAudit(action: string): Promise<Record<string, unknown>> {
  const { rows } = await test.store.query<{ detail: Record<string, unknown> }>(
    'select detail from audit_log where action = $1 order by id desc limit 1',
    [action],
  );
  return rows[0]?.detail ?? {};
}

function snapshot(): string {
  const engine = test.app.engine;
  return JSON.stringify(
    {
      config: engine.micro.config(),
      micro: engine.ledger.balance('house', 'micro', USDT),
      change: engine.ledger.balance('house', 'change', USDT),
    },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

const post = (url: string, body: Record<string, unknown>, token = admin.token, lang = 'en') =>
  call(test.app, 'POST', url, body, { token, lang });
const get = (url: string, query: Record<string, unknown> = {}, token = admin.token) =>
  call(test.app, 'GET', url, query, { token });

beforeAll(async () => {
  test = await backofficeApp();
  admin = await newAdmin(test, 'admin');
  reviewer = await newAdmin(test, 'reviewer');
  user = await newUser(test.store);
  await submit({ type: 'systemFund', owner: 'house', currencyId: USDT, amount: 10_000n * UNIT });
}, 60_000);

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

describe('access', () => {
  it('lets a reviewer neither read nor change, and changes nothing', async () => {
    const before = snapshot();
    for (const url of ['/backoffice/micro/config', '/backoffice/micro/reserve', '/backoffice/micro/orders']) {
      const reply = await get(url, {}, reviewer.token);
      expect(reply.type).toBe('error');
    }
    const refused = await post('/backoffice/micro/staleness', { max_sample_age_ms: 4_000 }, reviewer.token);
    expect(refused).toMatchObject({ type: 'error', message: 'Your administrator role does not allow this.' });
    const fund = await post(
      '/backoffice/micro/reserve/fund',
      { currency_id: USDT, amount: '1' },
      reviewer.token,
    );
    expect(fund.type).toBe('error');
    expect(snapshot()).toBe(before);
  });
});

describe('configuration', () => {
  it('reads the default configuration from the engine', async () => {
    const config = expectOk<MicroAdminConfig>(await get('/backoffice/micro/config'));
    expect(config.seconds).toEqual([
      { seconds: 30, profit_ratio_bp: 8_000 },
      { seconds: 60, profit_ratio_bp: 8_500 },
      { seconds: 120, profit_ratio_bp: 9_000 },
      { seconds: 300, profit_ratio_bp: 9_500 },
    ]);
    expect(config.currencies[0]).toMatchObject({ currency_id: USDT, code: 'USDT', fee_bp: 100 });
    expect(config.caps.length).toBeGreaterThan(0);
    expect(config.caps[0]).toMatchObject({ currency_id: USDT, exposure_cap: '50000.000000' });
    expect(config.max_sample_age_ms).toBe(3_000);
  });

  it('changes the seconds options through the engine and audits before and after', async () => {
    const reply = await post('/backoffice/micro/seconds', {
      options: [
        { seconds: 1, profit_ratio_bp: 8_000 },
        { seconds: 60, profit_ratio_bp: 8_700 },
      ],
    });
    expect(reply).toMatchObject({ type: 'ok', message: 'Saved.' });
    expect(test.app.engine.micro.config().seconds).toEqual([
      { seconds: 1, profitRatioBp: 8_000 },
      { seconds: 60, profitRatioBp: 8_700 },
    ]);
    const detail = await lastAudit('micro.seconds');
    expect(detail.after).toEqual([
      { seconds: 1, profit_ratio_bp: 8_000 },
      { seconds: 60, profit_ratio_bp: 8_700 },
    ]);
    expect((detail.before as unknown[]).length).toBe(4);
  });

  it('changes a payable currency, a cap and the staleness bound', async () => {
    expect(
      await post('/backoffice/micro/currency', {
        currency_id: USDT,
        fee_bp: 150,
        min: '5',
        max: '2000',
        presets: ['5', '50.5', '2000'],
        max_open_orders: 30,
      }),
    ).toMatchObject({ type: 'ok' });
    expect(test.app.engine.micro.config().currencies[0]).toEqual({
      currencyId: USDT,
      feeBp: 150,
      minStake: 5n * UNIT,
      maxStake: 2_000n * UNIT,
      presets: [5n * UNIT, 50_500_000n, 2_000n * UNIT],
      maxOpenOrders: 30,
    });
    expect(await lastAudit('micro.currency')).toMatchObject({
      before: { fee_bp: 100, min: '10.000000' },
      after: { fee_bp: 150, min: '5.000000', presets: ['5.000000', '50.500000', '2000.000000'] },
    });

    expect(
      await post('/backoffice/micro/cap', { market_id: 1, currency_id: USDT, exposure_cap: '1234.5' }),
    ).toMatchObject({ type: 'ok' });
    const cap = test.app.engine.micro.config().caps.find((line) => line.marketId === 1);
    expect(cap?.exposureCap).toBe(1_234_500_000n);
    expect(await lastAudit('micro.cap')).toMatchObject({
      before: { exposure_cap: '50000.000000' },
      after: { exposure_cap: '1234.500000' },
    });

    expect(await post('/backoffice/micro/staleness', { max_sample_age_ms: 4_000 })).toMatchObject({
      type: 'ok',
    });
    expect(test.app.engine.micro.config().maxSampleAgeMs).toBe(4_000);
    expect(await lastAudit('micro.staleness')).toEqual({
      before: { max_sample_age_ms: 3_000 },
      after: { max_sample_age_ms: 4_000 },
    });
  });

  it('refuses bad input and engine refusals in words, with no change and no audit entry', async () => {
    const before = snapshot();
    const audits = await test.store.query<{ n: number }>('select count(*)::int as n from audit_log');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['/backoffice/micro/seconds', { options: [] }, /./],
      ['/backoffice/micro/seconds', { options: [{ seconds: 30, profit_ratio_bp: 100_001 }] }, /./],
      [
        '/backoffice/micro/seconds',
        {
          options: [
            { seconds: 30, profit_ratio_bp: 8_000 },
            { seconds: 30, profit_ratio_bp: 9_000 },
          ],
        },
        /outside its allowed range/,
      ],
      [
        '/backoffice/micro/currency',
        { currency_id: USDT, fee_bp: 100, min: '10', max: '100', presets: ['500'], max_open_orders: 5 },
        /minimum ≤ each preset ≤ maximum/,
      ],
      [
        '/backoffice/micro/currency',
        { currency_id: USDT, fee_bp: 100, min: '100', max: '10', presets: [], max_open_orders: 5 },
        /minimum ≤ each preset ≤ maximum/,
      ],
      [
        '/backoffice/micro/currency',
        { currency_id: USDT, fee_bp: 100, min: '0.0000001', max: '10', presets: [], max_open_orders: 5 },
        /decimal places/,
      ],
      [
        '/backoffice/micro/currency',
        { currency_id: 999, fee_bp: 100, min: '1', max: '10', presets: [], max_open_orders: 5 },
        /does not know this currency/,
      ],
      ['/backoffice/micro/cap', { market_id: 999, currency_id: USDT, exposure_cap: '1' }, /./],
      ['/backoffice/micro/cap', { market_id: 1, currency_id: USDT, exposure_cap: '-1' }, /./],
      ['/backoffice/micro/staleness', { max_sample_age_ms: 0 }, /./],
      ['/backoffice/micro/staleness', { max_sample_age_ms: 'soon' }, /./],
      ['/backoffice/micro/reserve/fund', { currency_id: USDT, amount: '0' }, /./],
      [
        '/backoffice/micro/reserve/fund',
        { currency_id: USDT, amount: '1000000' },
        /does not hold this amount/,
      ],
      ['/backoffice/micro/reserve/fund', { currency_id: 999, amount: '1' }, /does not know this currency/],
    ];
    for (const [url, body, message] of cases) {
      const reply: Reply = await post(url, body);
      expect(reply.type, `${url} ${JSON.stringify(body)} -> ${JSON.stringify(reply)}`).toBe('error');
      expect(reply.message as string).toMatch(message);
    }
    const kr = await post(
      '/backoffice/micro/reserve/fund',
      { currency_id: USDT, amount: '1000000' },
      admin.token,
      'kr',
    );
    expect(kr.message).toBe('하우스의 현물 지갑에 이 금액이 없습니다.');
    expect(snapshot()).toBe(before);
    const after = await test.store.query<{ n: number }>('select count(*)::int as n from audit_log');
    expect(after.rows[0]?.n).toBe(audits.rows[0]?.n);
  });
});

describe('the reserve', () => {
  it('funds the reserve with exactly the amount, journaled and audited', async () => {
    const ledger = test.app.engine.ledger;
    const microBefore = ledger.balance('house', 'micro', USDT).available;
    const changeBefore = ledger.balance('house', 'change', USDT).available;
    const reply = await post('/backoffice/micro/reserve/fund', {
      currency_id: USDT,
      amount: '2500.123456',
      note: 'weekly top-up',
    });
    const funded = expectOk<{ transfer_id: number; available: string }>(reply);
    expect(ledger.balance('house', 'micro', USDT).available - microBefore).toBe(2_500_123_456n);
    expect(changeBefore - ledger.balance('house', 'change', USDT).available).toBe(2_500_123_456n);
    expect(await auditCount('micro.reserve_fund')).toBe(1);
    expect(await lastAudit('micro.reserve_fund')).toMatchObject({
      amount: '2500.123456',
      note: 'weekly top-up',
      transfer_id: funded.transfer_id,
    });
    const lines = expectOk<{ list: MicroReserveLine[] }>(await get('/backoffice/micro/reserve')).list;
    const usdt = lines.find((line) => line.currency_id === USDT);
    expect(usdt).toMatchObject({ code: 'USDT', available: funded.available, held: '0.000000' });
    expect(usdt?.change_available).toBe('7499.876544');
  });
});

describe('settled orders', () => {
  it('lists settled orders with filters and serves any order proof', async () => {
    await submit({ type: 'deposit', userId: user.id, currencyId: USDT, amount: 100n * UNIT });
    await submit({
      type: 'transfer',
      userId: user.id,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'micro',
      amount: 100n * UNIT,
    });
    await sample(6_700_000);
    const order = await test.app.inject({
      method: 'POST',
      url: '/api/microtrade/submit',
      headers: { authorization: user.token },
      payload: { match_id: 1, currency_id: USDT, type: 1, seconds: 1, number: '10' },
    });
    const placed = (order.json() as { type: string; message: { id: number } }).message;
    await sleep(20);
    await sample(6_700_000);
    await sleep(300);
    await sample(6_700_500);
    await sleep(1_100);
    await sample(6_600_000);
    const list = expectOk<Paged<MicroAdminOrder>>(await get('/backoffice/micro/orders'));
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      id: placed.id,
      user_id: user.id,
      outcome: 'win',
      number: '10.000000',
      payout: '18.000000',
      profit_ratio_bp: 8_000,
      proof_url: `/api/backoffice/micro/proof?id=${placed.id}`,
      public_proof_url: `/api/microtrade/proof?id=${placed.id}`,
    });
    const filtered = async (query: Record<string, unknown>) =>
      expectOk<Paged<MicroAdminOrder>>(await get('/backoffice/micro/orders', query)).total;
    expect(await filtered({ outcome: 'win', user_id: user.id, market_id: 1 })).toBe(1);
    expect(await filtered({ outcome: 'loss' })).toBe(0);
    expect(await filtered({ user_id: user.id + 1 })).toBe(0);
    expect(await filtered({ from: Date.now() + 60_000 })).toBe(0);
    expect(await filtered({ to: Date.now() + 60_000 })).toBe(1);
    expect((await get('/backoffice/micro/orders', { outcome: 'lucky' })).type).toBe('error');
    const proof = expectOk<{ rule_version: string; outcome: string }>(
      await get('/backoffice/micro/proof', { id: placed.id }),
    );
    expect(proof).toMatchObject({ rule_version: 'fairex-micro-v2', outcome: 'win' });
    expect((await get('/backoffice/micro/proof', { id: 999_999 })).type).toBe('error');
  }, 20_000);
});
