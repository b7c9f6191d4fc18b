import { describe, expect, it } from 'vitest';
import { meetsMinimum, payDecimals, paymentFor, receivedFor } from './flash-math.ts';

const usdtToBtc = { direction: 0 as const, price: '65000', feePercent: '0.2', coinScale: 8, legalScale: 6 };
const btcToUsdt = { ...usdtToBtc, direction: 1 as const };

describe('flash exchange maths', () => {
  it('gives what the server gives: price less the fee, rounded down', () => {
    expect(receivedFor(usdtToBtc, '650')).toBe('0.00998000');
    expect(receivedFor(btcToUsdt, '0.001')).toBe('64.870000');
    expect(receivedFor({ ...usdtToBtc, price: '65432.17' }, '0.1')).toBe('0.00000152');
  });

  it('works back from the amount wanted, rounding the payment up', () => {
    expect(paymentFor(usdtToBtc, '0.00998')).toBe('650.000000');
    expect(paymentFor(btcToUsdt, '64.87')).toBe('0.00100000');
    const paid = paymentFor({ ...usdtToBtc, price: '65432.17' }, '0.00000152');
    expect(receivedFor({ ...usdtToBtc, price: '65432.17' }, paid)).toBe('0.00000152');
  });

  it('refuses what is not an amount or has too many places', () => {
    expect(receivedFor(usdtToBtc, 'abc')).toBe('');
    expect(receivedFor(usdtToBtc, '1.0000001')).toBe('');
    expect(receivedFor({ ...usdtToBtc, price: 'none' }, '10')).toBe('');
    expect(paymentFor(usdtToBtc, '-1')).toBe('');
  });

  it('caps places at 8 and at the currency', () => {
    expect(payDecimals(usdtToBtc)).toBe(6);
    expect(payDecimals(btcToUsdt)).toBe(8);
    expect(payDecimals({ ...btcToUsdt, coinScale: 18 })).toBe(8);
  });

  it('checks the 0.1 minimum on the legal side', () => {
    expect(meetsMinimum(usdtToBtc, '0.1', '', '0.1')).toBe(true);
    expect(meetsMinimum(usdtToBtc, '0.09', '', '0.1')).toBe(false);
    expect(meetsMinimum(btcToUsdt, '0.0000015', '0.097305', '0.1')).toBe(false);
    expect(meetsMinimum(btcToUsdt, '0.001', '64.870000', '0.1')).toBe(true);
  });
});
