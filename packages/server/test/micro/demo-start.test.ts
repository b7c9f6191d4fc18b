// A fresh start with the default settings offers seconds contracts at once: the house's capital enters its
// change wallet and moves to its reserve by a journaled transfer the back office lists (no money appears in
// the reserve from nowhere), and a user's seconds order is accepted. With MICRO_RESERVE=0, a production
// exchange's setting, the reserve stays empty and the same order is refused until an operator funds it.
import type { Command, PriceSourceQuote } from '@fairex/engine';
import { ReasonCode, ownerKeyOf } from '@fairex/engine';
import { afterAll, describe, expect, it } from 'vitest';
import type { MicroReserveReply } from '@fairex/shared';
import { translate } from '@fairex/shared';
import { loadConfig } from '../../src/config.ts';
import { HOUSE_CAPITAL_MEMO, RESERVE_FUNDING_MEMO } from '../../src/micro/defaults.ts';
import { removeTempDirs } from '../helper.ts';
import type { BackofficeTestApp } from '../backoffice/helpers.ts';
import { backofficeApp, call, expectOk, newAdmin, newUser } from '../backoffice/helpers.ts';

const USDT = 3;
const UNIT = 1_000_000n;
const apps: BackofficeTestApp[] = [];

afterAll(async () => {
  for (const test of apps) await test.close();
  await removeTempDirs();
});

async function start(microReserve: string): Promise<BackofficeTestApp> {
  const test = await backofficeApp({ MICRO_RESERVE: microReserve });
  apps.push(test);
  return test;
}

async function submit(test: BackofficeTestApp, command: Command): Promise<void> {
  const outcome = await test.app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

/** A user with 100 USDT on the micro wallet places a 30-second up order of 10 USDT on BTC/USDT. */
async function placeSecondsOrder(test: BackofficeTestApp): Promise<{ type: string; message: unknown }> {
  const user = await newUser(test.store);
  await submit(test, { type: 'deposit', userId: user.id, currencyId: USDT, amount: 100n * UNIT });
  await submit(test, {
    type: 'transfer',
    userId: user.id,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'micro',
    amount: 100n * UNIT,
  });
  const quote: PriceSourceQuote = ['simulated', 6_700_000, Date.now()];
  await submit(test, {
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[1, [quote]]],
  });
  return call(
    test.app,
    'POST',
    '/microtrade/submit',
    { match_id: 1, currency_id: USDT, type: 1, seconds: 30, number: '10' },
    { token: user.token },
  );
}

describe('seconds contracts on a fresh start', () => {
  it('the default funds the reserve from the house’s own funds, listed in the back office, and takes orders', async () => {
    const demoReserve = loadConfig({}).microReserve;
    expect(demoReserve).toBe(1_000_000);
    const test = await start(String(demoReserve));
    const ledger = test.app.engine.ledger;
    expect(ledger.balance('house', 'micro', USDT)).toEqual({ available: 1_000_000n * UNIT, locked: 0n });
    expect(ledger.balance('house', 'change', USDT).available).toBe(0n);

    // The journal's account log: the capital into the house's change wallet, then change -> micro (written
    // by the projector behind the journal: wait for it).
    expect(await test.app.runner.whenProjected(test.app.runner.stats().lastSeq)).toBe(true);
    const { rows } = await test.store.query<{ wallet: string; reason: number; memo: string; change: string }>(
      `select wallet, reason, memo, (available_after - available_before)::text as change
         from account_log where owner_key = $1 and currency_id = $2 order by seq, event_index`,
      [ownerKeyOf('house'), USDT],
    );
    expect(rows).toEqual([
      { wallet: 'change', reason: ReasonCode.systemFund, memo: HOUSE_CAPITAL_MEMO, change: '1000000000000' },
      {
        wallet: 'change',
        reason: ReasonCode.walletTransfer,
        memo: RESERVE_FUNDING_MEMO,
        change: '-1000000000000',
      },
      {
        wallet: 'micro',
        reason: ReasonCode.walletTransfer,
        memo: RESERVE_FUNDING_MEMO,
        change: '1000000000000',
      },
    ]);

    // The back office lists the reserve and its funding.
    const admin = await newAdmin(test, 'admin');
    const reserve = expectOk<MicroReserveReply>(
      await call(test.app, 'GET', '/backoffice/micro/reserve', {}, { token: admin.token }),
    );
    expect(reserve.list.find((line) => line.code === 'USDT')).toMatchObject({
      available: '1000000.000000',
      change_available: '0.000000',
    });
    expect(reserve.fundings).toEqual([
      expect.objectContaining({ code: 'USDT', amount: '1000000.000000', memo: RESERVE_FUNDING_MEMO }),
    ]);

    const order = await placeSecondsOrder(test);
    expect(order.type, JSON.stringify(order)).toBe('ok');
    expect(ledger.balance('house', 'micro', USDT).locked).toBe(8n * UNIT);
  });

  it('with MICRO_RESERVE=0 the reserve stays empty and orders are refused until it is funded', async () => {
    const test = await start('0');
    expect(test.app.engine.ledger.balance('house', 'micro', USDT).available).toBe(0n);
    const order = await placeSecondsOrder(test);
    expect(order).toEqual({ type: 'error', message: translate('en', 'micro.reserve_short') });
  });
});
