import { describe, expect, it } from 'vitest';
import type { LeverCalcTerms } from '@fairex/shared/api/lever.ts';
import {
  expectedAtStop,
  lotsForShare,
  notAbovePositive,
  previewLever,
  riskFill,
  riskLevel,
  stopSideOk,
  toTicks,
} from './lever-math.ts';

// BTC/USDT as the demo market has it: price ticks of 0.01, 0.0001 BTC lots (one tick-lot is 0.000001 USDT,
// one minor unit), 100 lots a share (0.01 BTC), spread 0.05 %, fee 0.1 %, threshold 10 %.
const CALC: LeverCalcTerms = {
  tick_size: '0.01',
  price_scale: 2,
  legal_scale: 6,
  quote_minor_per_tick_lot: '1',
  lots_per_share: 100,
  spread_ppm: 500,
  fee_ppm: 1_000,
  threshold_bp: 1_000,
  account: {
    balance_minor: '1000000000',
    origin_margin_minor: '0',
    rest_equity_minor: '1000000000',
    net_lots: 0,
    threshold_bp: 0,
  },
};

describe('the order panel figures', () => {
  it('prices a market long at the mark plus the spread, with value, margin and fee as the engine', () => {
    const preview = previewLever({ calc: CALC, side: 1, mode: 1, price: '67000', share: 1, multiple: 10 });
    expect(preview).toMatchObject({
      entryTicks: 6_703_350,
      lots: 100,
      value: 670_335_000n,
      margin: 67_033_500n,
      fee: 670_335n,
    });
  });

  it('prices a market short at the mark minus the spread and a limit order at its target', () => {
    expect(
      previewLever({ calc: CALC, side: 2, mode: 1, price: '67000', share: 1, multiple: 10 })?.entryTicks,
    ).toBe(6_696_650);
    expect(
      previewLever({ calc: CALC, side: 1, mode: 0, price: '60000', share: 2, multiple: 5 }),
    ).toMatchObject({
      entryTicks: 6_000_000,
      margin: 240_000_000n,
      fee: 1_200_000n,
    });
  });

  it('gives the cross-margin liquidation price: at 50x with little balance, a little below the entry', () => {
    const thin = {
      ...CALC,
      account: { ...CALC.account!, balance_minor: '20000000', rest_equity_minor: '20000000' },
    };
    const preview = previewLever({ calc: thin, side: 1, mode: 1, price: '67000', share: 1, multiple: 50 });
    // Equity at mark m: 20 - 0.670335 + 0.01 x (m - 67033.50); liquidation at 10 % of the 13.4067 margin.
    // 19.329665 + 0.01 (m - 67033.50) <= 1.34067  =>  m <= 65234.60 (to the tick, down).
    expect(preview?.liquidationTicks).toBe(6_523_460);
    const wide = previewLever({ calc: CALC, side: 1, mode: 1, price: '67000', share: 1, multiple: 10 });
    expect(wide?.liquidationTicks).toBeNull();
  });

  it('refuses what is not a price on the tick or a whole lot count', () => {
    expect(toTicks(CALC, '67000.001')).toBeNull();
    expect(toTicks(CALC, '-1')).toBeNull();
    expect(previewLever({ calc: CALC, side: 1, mode: 1, price: '67000', share: 0, multiple: 10 })).toBeNull();
    expect(previewLever({ calc: CALC, side: 1, mode: 1, price: 'abc', share: 1, multiple: 10 })).toBeNull();
  });

  it('proposes the lots the balance carries at the slider share, capped at the maximum', () => {
    const base = { calc: CALC, side: 1 as const, mode: 1 as const, price: '67000', multiple: 10 };
    // One lot costs 67.7038350 with its fee: 1,000 carries 14 at 100 %, 7 at 50 %.
    expect(lotsForShare({ ...base, available: 1_000_000_000n, percent: 100, max: 0 })).toBe(14);
    expect(lotsForShare({ ...base, available: 1_000_000_000n, percent: 50, max: 0 })).toBe(7);
    expect(lotsForShare({ ...base, available: 1_000_000_000n, percent: 100, max: 10 })).toBe(10);
  });
});

describe('the stop dialog', () => {
  const long = { side: 1 as const, entry: '67033.50', number: '0.0100', priceScale: 2, quoteScale: 6 };
  it('expects (stop - entry) x number for a long, the reverse for a short', () => {
    expect(expectedAtStop({ ...long, stop: '68000' })).toBe(9_665_000n);
    expect(expectedAtStop({ ...long, stop: '66000' })).toBe(-10_335_000n);
    expect(expectedAtStop({ ...long, side: 2, stop: '66000' })).toBe(10_335_000n);
    expect(expectedAtStop({ ...long, stop: '0' })).toBeNull();
  });

  it.each([
    ['0', true],
    ['0.00', true],
    ['-1', true],
    ['-0.000000000000000001', true],
    ['0.000000000000000001', false],
    ['67000.5', false],
    ['', false],
    ['abc', false],
  ] as const)('a stop price %j is refused as not above zero: %s, read from its digits', (text, refused) => {
    expect(notAbovePositive(text)).toBe(refused);
  });

  it('checks the side rules against the entry and the mark', () => {
    const base = { entry: '67033.50', mark: '67100', priceScale: 2 };
    expect(stopSideOk({ ...base, side: 1, kind: 'profit', stop: '68000' })).toBe(true);
    expect(stopSideOk({ ...base, side: 1, kind: 'profit', stop: '67050' })).toBe(false);
    expect(stopSideOk({ ...base, side: 1, kind: 'loss', stop: '66000' })).toBe(true);
    expect(stopSideOk({ ...base, side: 2, kind: 'profit', stop: '66000' })).toBe(true);
    expect(stopSideOk({ ...base, side: 2, kind: 'loss', stop: '66000' })).toBe(false);
  });
});

describe('the risk bar', () => {
  it('warns within the margin above the threshold and turns red at it', () => {
    expect(riskLevel('0', '10', '60')).toBe('none');
    expect(riskLevel('150', '10', '60')).toBe('safe');
    expect(riskLevel('60', '10', '60')).toBe('warn');
    expect(riskLevel('10', '10', '60')).toBe('danger');
    expect(riskFill('60', '60')).toBe(50);
    expect(riskFill('500', '60')).toBe(100);
  });
});
