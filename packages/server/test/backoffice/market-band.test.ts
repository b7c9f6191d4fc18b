// The market-order price band per pair from the back office's settings: listed with the other settings,
// applied to the engine by a journaled command, audited before and after, refused when out of range; a
// market order then stops at the new band.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import { removeTempDirs } from '../helper.ts';
import type { BackofficeTestApp, TestAdmin } from './helpers.ts';
import { backofficeApp, call, expectOk, newAdmin } from './helpers.ts';

const BTC_USDT = 1;

let test: BackofficeTestApp;
let admin: TestAdmin;

beforeAll(async () => {
  test = await backofficeApp();
  admin = await newAdmin(test);
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

const apply = (values: Record<string, unknown>, targetId = BTC_USDT) =>
  call(
    test.app,
    'POST',
    '/backoffice/settings/apply',
    { key: 'market.price_band', target_id: targetId, values },
    { token: admin.token },
  );

describe('the price band setting', () => {
  it('lists each pair at the default 5 %, applies a change to the engine and audits it', async () => {
    const { settings } = expectOk<{
      settings: { key: string; rows: { target_id: number; values: Record<string, string> }[] }[];
    }>(await call(test.app, 'GET', '/backoffice/settings', {}, { token: admin.token }));
    const band = settings.find((setting) => setting.key === 'market.price_band');
    expect(band?.rows.find((row) => row.target_id === BTC_USDT)?.values).toEqual({ price_band: '5' });

    expectOk(await apply({ price_band: '2.5' }));
    expect(test.app.engine.spot.market(BTC_USDT)?.bandPpm).toBe(25_000);
    const audit = expectOk<{ data: { action: string; detail: Record<string, unknown> }[] }>(
      await call(
        test.app,
        'GET',
        '/backoffice/audit',
        { action: 'market.price_band' },
        { token: admin.token },
      ),
    );
    expect(audit.data[0]?.detail).toMatchObject({
      before: { price_band: '5' },
      after: { price_band: '2.5' },
    });
    expect(test.app.engine.spot.marketBandLimit(BTC_USDT, 'sell')).toBe(0);
  });

  it('refuses a band out of range, an unknown pair and no change, and changes nothing', async () => {
    const before = test.app.engine.stateHash();
    expect(await apply({ price_band: '90.0001' })).toMatchObject({ type: 'error' });
    expect(await apply({ price_band: '-1' })).toMatchObject({ type: 'error' });
    expect(await apply({ price_band: '1' }, 999)).toEqual({
      type: 'error',
      message: translate('en', 'spot.market_not_found'),
    });
    expect(await apply({ price_band: '2.5' })).toEqual({
      type: 'error',
      message: translate('en', 'backoffice.nothing_changed'),
    });
    expect(test.app.engine.stateHash()).toBe(before);
    expect(test.app.engine.spot.market(BTC_USDT)?.bandPpm).toBe(25_000);
  });
});
