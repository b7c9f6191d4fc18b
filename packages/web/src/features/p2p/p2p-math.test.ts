import { describe, expect, it } from 'vitest';
import {
  amountForFiat,
  cancellationsLeft,
  checkFiatLimits,
  countdownText,
  defaultAsset,
  fiatForAmount,
  isPositiveAt,
  maskAccount,
  orderActions,
  splitDuration,
  stepOf,
} from './p2p-math.ts';

describe('fiat and coin amounts', () => {
  it('rounds fiat half up to the cent', () => {
    expect(fiatForAmount('1.005', '7.00', 6)).toBe('7.04'); // 7.035 -> 7.04
    expect(fiatForAmount('0.001', '7.21', 6)).toBe('0.01'); // 0.00721 -> 0.01
    expect(fiatForAmount('0.0005', '7.00', 6)).toBe('0.00'); // 0.0035 -> 0.00
    expect(fiatForAmount('100', '7.25', 6)).toBe('725.00');
  });

  it('rounds coins down to the coin scale, so the buyer never pays for more than it gets', () => {
    expect(amountForFiat('100', '7.00', 6)).toBe('14.285714');
    expect(amountForFiat('725', '7.25', 6)).toBe('100.000000');
    expect(amountForFiat('0.01', '30000.00', 8)).toBe('0.00000033');
  });

  it('refuses unreadable or zero input instead of guessing', () => {
    expect(fiatForAmount('abc', '7', 6)).toBeNull();
    expect(fiatForAmount('1', '7.001', 6)).toBeNull(); // a price has cents only
    expect(amountForFiat('1', '0', 6)).toBeNull();
    expect(amountForFiat('1e3', '7', 6)).toBeNull();
  });

  it('checks the per-order limits exactly', () => {
    expect(checkFiatLimits('100', '100.00', '500')).toBe('ok');
    expect(checkFiatLimits('99.99', '100', '500')).toBe('belowMin');
    expect(checkFiatLimits('500.01', '100', '500')).toBe('aboveMax');
    expect(checkFiatLimits('500', '100', '500')).toBe('ok');
    expect(checkFiatLimits('', '100', '500')).toBe('unreadable');
    expect(checkFiatLimits('0', '0.01', '500')).toBe('unreadable');
    expect(checkFiatLimits('1.001', '1', '500')).toBe('unreadable');
  });

  it('reads positive amounts at a scale', () => {
    expect(isPositiveAt('1.5', 2)).toBe(true);
    expect(isPositiveAt('0', 2)).toBe(false);
    expect(isPositiveAt('1.555', 2)).toBe(false);
    expect(isPositiveAt('-1', 2)).toBe(false);
  });
});

describe('countdown and durations', () => {
  it('shows minutes and seconds, rounding up and never below zero', () => {
    expect(countdownText(15 * 60_000)).toBe('15:00');
    expect(countdownText(59_001)).toBe('01:00');
    expect(countdownText(1)).toBe('00:01');
    expect(countdownText(0)).toBe('00:00');
    expect(countdownText(-5000)).toBe('00:00');
    expect(countdownText(3_600_000 + 61_000)).toBe('1:01:01');
  });

  it('splits an average release time', () => {
    expect(splitDuration(125)).toEqual({ minutes: 2, seconds: 5 });
    expect(splitDuration(59.6)).toEqual({ minutes: 1, seconds: 0 });
    expect(splitDuration(-3)).toEqual({ minutes: 0, seconds: 0 });
  });
});

describe('order room rules', () => {
  const base = { deadline_time: 10_000, appeal_after_time: null } as const;

  it('maps every status onto the stepper', () => {
    expect(stepOf('unpaid')).toEqual({ step: 0, error: false });
    expect(stepOf('paid')).toEqual({ step: 1, error: false });
    expect(stepOf('appealed')).toEqual({ step: 1, error: true });
    expect(stepOf('completed')).toEqual({ step: 2, error: false });
    expect(stepOf('cancelled')).toEqual({ step: 2, error: true });
  });

  it('lets the buyer pay or cancel only before paid, and pay only inside the window', () => {
    const open = orderActions({ ...base, my_side: 'buy', status: 'unpaid' }, 5_000);
    expect(open).toMatchObject({ pay: true, cancel: true, release: false, appeal: false, deadline: 10_000 });
    const late = orderActions({ ...base, my_side: 'buy', status: 'unpaid' }, 10_000);
    expect(late).toMatchObject({ pay: false, cancel: true });
    const seller = orderActions({ ...base, my_side: 'sell', status: 'unpaid' }, 5_000);
    expect(seller).toMatchObject({ pay: false, cancel: false });
  });

  it('lets the seller release at any time before the end, also in appeal, and nobody after it', () => {
    expect(orderActions({ ...base, my_side: 'sell', status: 'unpaid' }, 5_000).release).toBe(true);
    const paid = { ...base, status: 'paid', appeal_after_time: 20_000 } as const;
    expect(orderActions({ ...paid, my_side: 'sell' }, 12_000)).toMatchObject({
      release: true,
      deadline: null,
    });
    expect(orderActions({ ...paid, my_side: 'buy' }, 12_000)).toMatchObject({ release: false, pay: false });
    expect(orderActions({ ...base, status: 'appealed', my_side: 'sell' }, 0).release).toBe(true);
    for (const status of ['completed', 'cancelled'] as const) {
      for (const side of ['buy', 'sell'] as const) {
        const actions = orderActions({ ...base, status, my_side: side }, 0);
        expect([actions.pay, actions.cancel, actions.release, actions.appeal]).toEqual([
          false,
          false,
          false,
          false,
        ]);
      }
    }
  });

  it('opens the appeal to both parties only after the disclosed wait', () => {
    const paid = { ...base, status: 'paid', appeal_after_time: 20_000 } as const;
    expect(orderActions({ ...paid, my_side: 'buy' }, 19_999)).toMatchObject({ appeal: false, appealInMs: 1 });
    expect(orderActions({ ...paid, my_side: 'buy' }, 20_000)).toMatchObject({
      appeal: true,
      appealInMs: null,
    });
    expect(orderActions({ ...paid, my_side: 'sell' }, 20_000).appeal).toBe(true);
    expect(orderActions({ ...base, status: 'appealed', my_side: 'buy' }, 99_999).appeal).toBe(false);
  });

  it('counts the cancellations left', () => {
    expect(cancellationsLeft({ cancellations_today: 0, limit: 3 })).toBe(3);
    expect(cancellationsLeft({ cancellations_today: 3, limit: 3 })).toBe(0);
    expect(cancellationsLeft({ cancellations_today: 4, limit: 3 })).toBe(0);
  });

  it('masks account numbers in lists', () => {
    expect(maskAccount('6222021234567890')).toBe('622****890');
    expect(maskAccount('abc123')).toBe('abc123');
  });
});

describe('the starting asset', () => {
  it('prefers USDT, else the first listed', () => {
    expect(defaultAsset([{ name: 'BTC' }, { name: 'USDT' }])?.name).toBe('USDT');
    expect(defaultAsset([{ name: 'BTC' }, { name: 'ETH' }])?.name).toBe('BTC');
    expect(defaultAsset([])).toBeUndefined();
  });
});
