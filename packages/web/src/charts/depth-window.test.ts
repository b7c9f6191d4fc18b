import { describe, expect, it } from 'vitest';
import { depthWindow, nearestPoint, niceTicks } from './depth-window.ts';

const level = (price: string, number: string) => ({ price, number });

describe('depth window', () => {
  const bids = [level('29950.00', '0.0150'), level('29800.00', '0.0250'), level('29650.00', '0.0350')];
  const asks = [
    level('30100.00', '0.0200'),
    level('30250.00', '0.0300'),
    level('30400.00', '0.0400'),
    level('90000.00', '0.0100'),
  ];

  it('centres on the exact mid and leaves out one far order', () => {
    const window = depthWindow(bids, asks);
    expect(window).not.toBeNull();
    expect(window!.midText).toBe('30025.000');
    // The furthest level within 10 % of the mid is 375 away; a tenth more either side.
    expect(window!.lowText).toBe('29612.500');
    expect(window!.highText).toBe('30437.500');
    expect(window!.asks.map((point) => point.priceText)).toEqual(['30100.00', '30250.00', '30400.00']);
    expect(window!.hiddenLevels).toBe(1);
    expect(window!.maxTotalText).toBe('0.0900');
  });

  it('sums quantity and its quote value outwards from the best price, exactly', () => {
    const window = depthWindow(
      [level('0.1', '0.1'), level('0.1', '0.2')],
      [level('0.3', '0.1'), level('0.3', '0.2')],
    )!;
    // 0.1 + 0.2 read as numbers would be 0.30000000000000004.
    expect(window.bids.map((point) => point.totalText)).toEqual(['0.1', '0.3']);
    expect(window.asks.map((point) => point.valueText)).toEqual(['0.03', '0.09']);
    expect(window.midText).toBe('0.20');
  });

  it('keeps the nearer best price in view when every level lies beyond the band', () => {
    const window = depthWindow([level('100', '1')], [level('300', '2')])!;
    // Mid 200, both levels 100 away (50 %): the window still reaches them.
    expect(window.midText).toBe('200.0');
    expect(window.bids).toHaveLength(1);
    expect(window.asks).toHaveLength(1);
    expect(window.lowText).toBe('90.0');
  });

  it('draws one side alone around its best price, and nothing for an empty book', () => {
    const window = depthWindow([], [level('101.5', '2'), level('102', '1')])!;
    expect(window.midText).toBe('101.50');
    expect(window.bids).toEqual([]);
    expect(window.asks.map((point) => point.totalText)).toEqual(['2', '3']);
    expect(depthWindow([], [])).toBeNull();
  });
});

describe('axis ticks', () => {
  it('picks round steps inside the window', () => {
    expect(niceTicks('29612.500', '30437.500', 6, 2)).toEqual([
      '29800.00',
      '30000.00',
      '30200.00',
      '30400.00',
    ]);
    expect(niceTicks('0', '0.0900', 5, 4)).toEqual(['0.0000', '0.0200', '0.0400', '0.0600', '0.0800']);
  });

  it('never gives more ticks than asked, nor a step finer than the places shown', () => {
    for (const count of [2, 3, 4, 5, 8]) {
      expect(niceTicks('0', '1234.5', count, 1).length).toBeLessThanOrEqual(count);
    }
    expect(niceTicks('0', '0.001', 10, 2)).toEqual(['0.00']);
  });
});

describe('hover', () => {
  it('reads the level nearest the pointer', () => {
    const window = depthWindow([level('99', '1'), level('98', '2')], [level('101', '1')])!;
    expect(nearestPoint(window.bids, 98.2)?.totalText).toBe('3');
    expect(nearestPoint(window.asks, 150)?.priceText).toBe('101');
    expect(nearestPoint([], 100)).toBeNull();
  });
});
