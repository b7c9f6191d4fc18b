// The back office of leverage on a real app (PGlite): the pairs with their rules and the house's exposure;
// a rule change through the journaled setLeverPair that applies to new positions only (an open one keeps
// its copied threshold) and is audited with before and after; the insurance fund's funding and movements;
// a liquidation listed with its mark, risk rate and threshold. A reviewer can neither read nor change.
import type { Command, PriceSourceQuote } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  LeverAdminPair,
  LeverInsuranceFund,
  LeverInsuranceMovement,
  LeverLiquidationRow,
  Paged,
} from '@fairex/shared';
import { removeTempDirs } from '../helper.ts';
import type { BackofficeTestApp, TestAdmin, TestUser } from '../backoffice/helpers.ts';
import { backofficeApp, call, expectOk, newAdmin, newUser } from '../backoffice/helpers.ts';

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

async function mark(priceTicks: number): Promise<void> {
  const quote: PriceSourceQuote = ['simulated', priceTicks, Date.now()];
  await submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[1, [quote]]],
  });
}

const post = (url: string, body: Record<string, unknown>, token = admin.token) =>
  call(test.app, 'POST', url, body, { token, lang: 'en' });
const get = (url: string, query: Record<string, unknown> = {}, token = admin.token) =>
  call(test.app, 'GET', url, query, { token });

const PAIR = {
  market_id: 1,
  enabled: 1,
  multiples: [5, 10, 20],
  share_presets: [1, 2, 5],
  min_share: 1,
  max_share: 500,
  lever_share_num: '0.01',
  spread: '0.05',
  fee: '0.1',
  overnight: '0.05',
  liquidation_threshold: '30',
  liquidation_fee: '0.5',
  exposure_limit: '50',
};

beforeAll(async () => {
  test = await backofficeApp();
  admin = await newAdmin(test, 'admin');
  reviewer = await newAdmin(test, 'reviewer');
  user = await newUser(test.store);
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
    amount: 10_000n * UNIT,
  });
  const amount = 1_000n * UNIT;
  await submit({ type: 'deposit', userId: user.id, currencyId: USDT, amount });
  await submit({
    type: 'transfer',
    userId: user.id,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'lever',
    amount,
  });
  await mark(6_700_000);
}, 60_000);

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

describe('the leverage back office', () => {
  it('refuses a reviewer every read and change', async () => {
    for (const url of [
      '/backoffice/lever/pairs',
      '/backoffice/lever/insurance',
      '/backoffice/lever/liquidations',
    ])
      expect((await get(url, {}, reviewer.token)).type).toBe('error');
    const before = JSON.stringify(test.app.engine.lever.pairs());
    expect((await post('/backoffice/lever/pair', PAIR, reviewer.token)).type).toBe('error');
    expect(JSON.stringify(test.app.engine.lever.pairs())).toBe(before);
  });

  it('lists the pairs with their rules and the exposure', async () => {
    const { list } = expectOk<{ list: LeverAdminPair[] }>(await get('/backoffice/lever/pairs'));
    expect(list.find((pair) => pair.market_id === 1)).toMatchObject({
      symbol: 'BTC/USDT',
      enabled: true,
      liquidation_threshold: '10',
      exposure: '0.0000',
    });
  });

  it('changes the rules for new positions only, and audits the change', async () => {
    const open = await call(
      test.app,
      'POST',
      '/lever/submit',
      {
        legal_id: USDT,
        currency_id: 1,
        multiple: 10,
        share: 1,
        type: 1,
        status: 1,
      },
      { token: user.token },
    );
    expect(open.type).toBe('ok');
    expect(expectOk<string>(await post('/backoffice/lever/pair', PAIR))).toMatch(/\S/);
    const pair = test.app.engine.lever.pair(1);
    expect(pair).toMatchObject({
      multiples: [5, 10, 20],
      liquidationThresholdBp: 3_000,
      liquidationFeePpm: 5_000,
    });
    const positions = test.app.engine.lever.positions(user.id, 1);
    expect(positions[0]?.rules.liquidationThresholdBp).toBe(1_000);
    const { list } = expectOk<{ list: LeverAdminPair[] }>(await get('/backoffice/lever/pairs'));
    expect(list.find((row) => row.market_id === 1)).toMatchObject({
      exposure: '0.0100',
      longs: '0.0100',
      exposure_limit: '50.0000',
      share_presets: [1, 2, 5],
    });
    const { rows } = await test.store.query<{ detail: { before: unknown; after: unknown } }>(
      "select detail from audit_log where action = 'lever.pair' order by id desc limit 1",
    );
    expect(rows[0]?.detail.after).toMatchObject({ liquidationThresholdBp: 3_000 });
    expect(rows[0]?.detail.before).toMatchObject({ liquidationThresholdBp: 1_000 });
  });

  it('funds the insurance fund and lists the movement', async () => {
    const before = test.app.engine.ledger.balance('insurance', 'lever', USDT).available;
    const reply = await post('/backoffice/lever/insurance/fund', {
      currency_id: USDT,
      amount: '250',
      note: 'top up',
    });
    expect(reply.type).toBe('ok');
    expect(test.app.engine.ledger.balance('insurance', 'lever', USDT).available - before).toBe(250n * UNIT);
    const insurance = expectOk<{ funds: LeverInsuranceFund[]; movements: LeverInsuranceMovement[] }>(
      await get('/backoffice/lever/insurance'),
    );
    expect(insurance.funds.find((fund) => fund.currency_id === USDT)?.balance).toBe(
      Number((before + 250n * UNIT) / UNIT).toFixed(0) + '.000000',
    );
    expect(insurance.movements[0]).toMatchObject({
      kind: 'funding',
      amount: '250.000000',
      currency_name: 'USDT',
    });
  });

  it('lists a liquidation with its mark, risk rate and threshold, and the shortfall paid', async () => {
    const open = await call(
      test.app,
      'POST',
      '/lever/submit',
      { legal_id: USDT, currency_id: 1, multiple: 20, share: 14, type: 1, status: 1 },
      { token: user.token },
    );
    expect(open.type).toBe('ok');
    const insurance = test.app.engine.ledger.balance('insurance', 'lever', USDT).available;
    await mark(5_000_000);
    expect(test.app.engine.lever.positions(user.id)).toEqual([]);
    const page = expectOk<Paged<LeverLiquidationRow>>(await get('/backoffice/lever/liquidations'));
    expect(page.total).toBe(1);
    const row = page.data[0];
    // The new position copied the new 30 % threshold: the account's threshold is the highest copied.
    expect(row).toMatchObject({
      user_id: user.id,
      symbol: 'BTC/USDT',
      mark: '50000.00',
      threshold: '30',
      positions: 2,
      paid_back: '0.000000',
    });
    expect(Number(row?.hazard_rate)).toBeLessThanOrEqual(30);
    const paid = insurance - test.app.engine.ledger.balance('insurance', 'lever', USDT).available;
    expect(paid).toBeGreaterThan(0n);
    expect(row?.shortfall).not.toBe('0.000000');
    const { movements } = expectOk<{ movements: LeverInsuranceMovement[] }>(
      await get('/backoffice/lever/insurance'),
    );
    expect(movements.some((movement) => movement.kind === 'shortfall')).toBe(true);
  });
});
