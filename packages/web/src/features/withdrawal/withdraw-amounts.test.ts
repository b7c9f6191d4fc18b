import { describe, expect, it } from 'vitest';
import { receiveAfterFee } from './withdraw-amounts.ts';

describe('receiveAfterFee', () => {
  it('takes the fee off exactly', () => {
    expect(receiveAfterFee('100', '1.000000', 6)).toBe('99.000000');
    expect(receiveAfterFee('0.0012', '0.0002', 8)).toBe('0.00100000');
  });

  it('shows nothing for what is not an amount or does not cover the fee', () => {
    expect(receiveAfterFee('1', '1', 6)).toBe('');
    expect(receiveAfterFee('abc', '1', 6)).toBe('');
    expect(receiveAfterFee('1.0000001', '0', 6)).toBe('');
  });
});
