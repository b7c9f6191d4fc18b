import { describe, expect, it } from 'vitest';
import { bookRows, groupDecimals, groupingSteps } from './book-levels.ts';
import {
  checkOrderAmount,
  cleanDecimalInput,
  isPositive,
  minimumQuantity,
  orderTotal,
  sliderPercentOf,
  sliderQuantity,
  unitsAt,
} from './order-math.ts';
import { testMarket } from './test-market.ts';

// BTC/USDT as the server describes it: price 2 decimals, quantity step 0.0001, USDT at 6 decimals.
const market = testMarket;

describe('slider quantities', () => {
  it('buys a quarter of the quote balance at the price, rounded down to the quantity step', () => {
    // 1,000 USDT x 25 % / 30,000 = 0.008333... -> 0.0083
    expect(
      sliderQuantity({ side: 'buy', percent: 25, available: '1000.000000', price: '30000.00', market }),
    ).toBe('0.0083');
    expect(
      sliderQuantity({ side: 'buy', percent: 100, available: '7000.000000', price: '30000.00', market }),
    ).toBe('0.2333');
    expect(
      sliderQuantity({ side: 'buy', percent: 0, available: '7000.000000', price: '30000.00', market }),
    ).toBe('0.0000');
  });

  it('never proposes more than the balance pays for, even with prices that do not divide evenly', () => {
    for (const price of ['0.01', '1.23', '29999.99', '31415.92']) {
      for (const percent of [25, 50, 75, 100]) {
        const quantity = sliderQuantity({ side: 'buy', percent, available: '1234.567891', price, market });
        const total = orderTotal(price, quantity, market);
        expect(unitsAt(total, 6)! * 100n).toBeLessThanOrEqual(1_234_567_891n * BigInt(percent));
      }
    }
  });

  it('sells a share of the holdings', () => {
    expect(sliderQuantity({ side: 'sell', percent: 50, available: '0.75000000', price: null, market })).toBe(
      '0.3750',
    );
    expect(sliderQuantity({ side: 'sell', percent: 75, available: '0.00010001', price: null, market })).toBe(
      '0.0000',
    );
    expect(sliderQuantity({ side: 'sell', percent: 100, available: '1.00019999', price: null, market })).toBe(
      '1.0001',
    );
  });

  it('gives nothing without a balance or a price', () => {
    expect(sliderQuantity({ side: 'buy', percent: 50, available: null, price: '1', market })).toBeNull();
    expect(sliderQuantity({ side: 'buy', percent: 50, available: '10', price: '0', market })).toBeNull();
    expect(sliderQuantity({ side: 'buy', percent: 50, available: '10', price: '', market })).toBeNull();
    expect(sliderQuantity({ side: 'buy', percent: 33, available: '10', price: '1', market })).not.toBeNull();
    expect(sliderQuantity({ side: 'buy', percent: 101, available: '10', price: '1', market })).toBeNull();
  });

  it('finds the mark a typed quantity matches', () => {
    const input = { side: 'sell' as const, available: '1.0000', price: null, market };
    expect(sliderPercentOf({ ...input, quantity: '0.5000' })).toBe(50);
    expect(sliderPercentOf({ ...input, quantity: '0.4000' })).toBe(0);
  });
});

describe('order totals and inputs', () => {
  it('multiplies exactly at the quote scale', () => {
    expect(orderTotal('30050.50', '0.1', market)).toBe('3005.050000');
    expect(orderTotal('0.01', '0.0001', market)).toBe('0.000001');
    expect(orderTotal('', '1', market)).toBeNull();
    // A price with more decimals than the market's is cut to the market's scale, never rounded up.
    expect(orderTotal('1.999', '1', market)).toBe('1.990000');
  });

  it('cleans typed text to a plain decimal with limited places', () => {
    expect(cleanDecimalInput('12.3456', 2)).toBe('12.34');
    expect(cleanDecimalInput('-1e5', 2)).toBe('15');
    expect(cleanDecimalInput('1.2.3', 4)).toBe('1.23');
    expect(cleanDecimalInput('.5', 2)).toBe('0.5');
    expect(cleanDecimalInput('007', 2)).toBe('7');
    expect(cleanDecimalInput('3,5', 2)).toBe('3.5');
    expect(cleanDecimalInput('12.', 0)).toBe('12');
    expect(cleanDecimalInput('', 2)).toBe('');
  });

  it('tells positive amounts', () => {
    expect(isPositive('0.0001', 4)).toBe(true);
    expect(isPositive('0', 4)).toBe(false);
    expect(isPositive('0.00001', 4)).toBe(false);
    expect(isPositive('-1', 4)).toBe(false);
  });
});

describe('book grouping', () => {
  const bids = [
    { price: '30000.05', number: '0.1000' },
    { price: '30000.01', number: '0.2000' },
    { price: '29999.99', number: '0.0500' },
  ];
  const asks = [
    { price: '30000.11', number: '0.3000' },
    { price: '30000.19', number: '0.0100' },
    { price: '30000.20', number: '0.0100' },
  ];

  it('keeps every level at one tick, with running totals and depth bars', () => {
    const rows = bookRows(bids, asks, 1, market, 10);
    expect(rows.bids.map((row) => [row.price, row.number, row.total])).toEqual([
      ['30000.05', '0.1000', '0.1000'],
      ['30000.01', '0.2000', '0.3000'],
      ['29999.99', '0.0500', '0.3500'],
    ]);
    expect(rows.bids[2]?.depth).toBe(1);
    expect(rows.asks[2]?.total).toBe('0.3200');
  });

  it('merges into groups of ten ticks, bids down and asks up', () => {
    const rows = bookRows(bids, asks, 10, market, 10);
    expect(rows.bids.map((row) => [row.price, row.number])).toEqual([
      ['30000.0', '0.3000'],
      ['29999.9', '0.0500'],
    ]);
    expect(rows.asks.map((row) => [row.price, row.number])).toEqual([['30000.2', '0.3200']]);
  });

  it('limits rows and offers groupings the price scale allows', () => {
    expect(bookRows(bids, asks, 1, market, 2).bids).toHaveLength(2);
    expect(groupingSteps(market)).toEqual([1, 10, 100, 1000]);
    expect(groupDecimals(market, 100)).toBe(0);
    expect(groupDecimals({ ...market, price_scale: 0, price_tick: '1' }, 10)).toBe(0);
  });
});

describe('order minimums', () => {
  it('refuses below the lot or the minimum exactly, with the market figure', () => {
    const market = { ...testMarket, number_step: '0.0001', min_number: '0.001', min_total: '5' };
    expect(minimumQuantity(market)).toBe('0.001');
    expect(minimumQuantity({ ...market, number_step: '0.01' })).toBe('0.01');
    expect(checkOrderAmount('', null, market)).toEqual({ ok: false, reason: 'empty' });
    for (const amount of ['0', '0.0000', '0.00001', '0.0009']) {
      expect(checkOrderAmount(amount, null, market)).toEqual({
        ok: false,
        reason: 'belowMinimum',
        minimum: '0.001',
      });
    }
    expect(checkOrderAmount('0.001', null, market)).toEqual({ ok: true });
    expect(checkOrderAmount('0.001', '1000.00', market)).toEqual({
      ok: false,
      reason: 'belowMinimumTotal',
      minimum: '5',
    });
    expect(checkOrderAmount('0.005', '1000.00', market)).toEqual({ ok: true });
  });
});
