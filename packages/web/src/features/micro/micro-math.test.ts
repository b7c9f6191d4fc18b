import { describe, expect, it } from 'vitest';
import { basisPoints, previewOrder, recompute } from './micro-math.ts';

// The panel's preview and the proof view's recomputation follow docs/micro.md in bigint.

describe('previewOrder', () => {
  it('rounds the fee and the profit down, in minor units', () => {
    expect(previewOrder({ number: '100.000001', scale: 6, feePercent: '1', profitRatio: '85' })).toEqual({
      stake: 100_000_001n,
      fee: 1_000_000n,
      total: 101_000_001n,
      winPayout: 185_000_001n,
    });
    expect(basisPoints('12.5')).toBe(1_250n);
  });

  it('has no preview for what is not an amount', () => {
    for (const number of ['', '0', '-1', 'ten', '1.1234567', '1e3'])
      expect(previewOrder({ number, scale: 6, feePercent: '1', profitRatio: '80' })).toBeNull();
  });
});

describe('recompute', () => {
  const base = {
    type: 1 as const,
    number: '100.000000',
    profit_ratio: '80',
    accepted_time: 1_000,
    expiry_time: 31_000,
    max_sample_age_ms: 3_000,
    open: { time: 1_500, price: '67000.00', stale: false },
    end: { time: 30_500, price: '67000.01', stale: false },
  };

  it('applies the rule: up wins above, down below, equal is a draw', () => {
    expect(recompute(base)).toEqual({ outcome: 'win', payout: '180.000000' });
    expect(recompute({ ...base, type: 2 })).toEqual({ outcome: 'loss', payout: '0.000000' });
    expect(recompute({ ...base, end: { ...base.end, price: '67000.00' } })).toEqual({
      outcome: 'draw',
      payout: '100.000000',
    });
  });

  it('voids on a missing, stale or late sample', () => {
    expect(recompute({ ...base, open: null }).outcome).toBe('void');
    expect(recompute({ ...base, end: { ...base.end, stale: true } }).outcome).toBe('void');
    expect(recompute({ ...base, open: { ...base.open, time: 4_100 } }).outcome).toBe('void');
    expect(recompute({ ...base, end: { ...base.end, time: 27_000 } }).outcome).toBe('void');
  });
});
