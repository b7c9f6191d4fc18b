import { describe, expect, it } from 'vitest';
import {
  bpPercent,
  countdownText,
  digitsOnly,
  exceeds,
  minerCost,
  minerOutlookText,
  minus,
  percentBp,
  remaining,
  shareText,
  stakePreview,
  timesQuantity,
  wholeQuantity,
} from './product-math.ts';

describe('product previews', () => {
  it('takes only whole quantities of at least one (spec 02 section 5)', () => {
    expect(wholeQuantity('3')).toBe(3n);
    expect(wholeQuantity(' 12 ')).toBe(12n);
    for (const bad of ['', '0', '-1', '1.5', 'abc', '1e3', '99999999999'])
      expect(wholeQuantity(bad)).toBeNull();
    expect(digitsOnly('1a2.3')).toBe('123');
    expect(digitsOnly('007')).toBe('7');
    expect(digitsOnly('abc')).toBe('');
  });

  it('costs a token purchase exactly: quantity x price at the price scale', () => {
    expect(timesQuantity('0.125000', 3n)).toBe('0.375000');
    expect(timesQuantity('0.1', 10n)).toBe('1.0');
    expect(timesQuantity('junk', 3n)).toBeNull();
  });

  it('adds the miner fee as a percent of the rent, rounded down at the pay currency scale', () => {
    expect(minerCost('100.00', 3n, '2')).toEqual({ rent: '300.00', fee: '6.00', paid: '306.00' });
    expect(minerCost('100.00', 1n, '0.5')).toEqual({ rent: '100.00', fee: '0.50', paid: '100.50' });
    // 33.33 x 1.5% = 0.49995, which the pay currency's two decimals cannot hold: down to 0.49.
    expect(minerCost('33.33', 1n, '1.5')).toEqual({ rent: '33.33', fee: '0.49', paid: '33.82' });
    expect(minerCost('10', 2n, '0')).toEqual({ rent: '20', fee: '0', paid: '20' });
    expect(minerCost('10', 2n, '0.125')).toBeNull();
    expect(percentBp('2.5')).toBe(250);
  });

  it('previews a stake by the published rule: floor(principal x APR / 365) a day', () => {
    // 100 coins at 12% for 30 days, 8 decimals: 100 x 0.12 / 365 = 0.03287671232876... a day.
    expect(stakePreview(100n, 1200, 30, 8)).toEqual({
      daily: '0.03287671',
      earnings: '0.98630130',
      returned: '100.98630130',
    });
    expect(stakePreview(1n, 0, 10, 2)).toEqual({ daily: '0.00', earnings: '0.00', returned: '1.00' });
    expect(bpPercent(1250)).toBe('12.5');
    expect(bpPercent(800)).toBe('8');
    expect(bpPercent(5)).toBe('0.05');
  });

  it('states shares of a total rounded down to two decimals', () => {
    expect(shareText('1', '3')).toBe('33.33');
    expect(shareText('2', '3')).toBe('66.66');
    expect(shareText('250.5', '1000')).toBe('25.05');
    expect(shareText('1', '0')).toBeNull();
  });

  it('subtracts and compares exactly', () => {
    expect(minus('10', '0.25')).toBe('9.75');
    expect(exceeds('100.01', '100')).toBe(true);
    expect(exceeds('100', '100.00')).toBe(false);
  });

  it('counts down to a real end in tenths of a second', () => {
    const left = remaining(1_000_000 + 90_061_500, 1_000_000);
    expect(left).toEqual({ days: 1, hours: 1, minutes: 1, seconds: 1, tenths: 5, over: false });
    expect(countdownText(left, 'd')).toBe('1d 01:01:01.5');
    expect(remaining(5, 10).over).toBe(true);
  });
});

describe('miner outlook (issue 45)', () => {
  it("values a rent's term output at the mark, nets the cost and states the break-even price", () => {
    // 1 unit x 0.00001 BTC x 30 days = 0.0003 BTC; at 65,000.00 that is 19.50; paid 100 + 2 % = 102.00.
    expect(
      minerOutlookText({ perUnit: '0.00001', days: 30, price: '100.00', feePercent: '2' }, 1n, '65000.00'),
    ).toEqual({
      output: '0.00030',
      value: '19.50',
      cost: '102.00',
      net: '-82.50',
      loss: true,
      // 102.00 / 0.0003 = 340,000.00.
      breakEven: '340000.00',
    });
  });

  it('works at the finer of the rent and mark scales, and refuses unreadable figures', () => {
    const outlook = minerOutlookText({ perUnit: '1', days: 2, price: '10', feePercent: '0' }, 3n, '1.2345');
    expect(outlook).toMatchObject({ output: '6', value: '7.4070', cost: '30.0000', net: '-22.5930' });
    expect(outlook?.breakEven).toBe('5.0000');
    expect(minerOutlookText({ perUnit: '0.1', days: 10, price: '1', feePercent: '0' }, 1n, '2')?.loss).toBe(
      false,
    );
    expect(minerOutlookText({ perUnit: 'x', days: 1, price: '1', feePercent: '0' }, 1n, '1')).toBeNull();
    expect(minerOutlookText({ perUnit: '1', days: 1, price: '1', feePercent: '0' }, 1n, '')).toBeNull();
  });
});
