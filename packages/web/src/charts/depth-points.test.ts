import { describe, expect, it } from 'vitest';
import { cumulativeDepth, depthGeometry } from './depth-points.ts';

describe('depth chart', () => {
  it('sums each side outwards from the best price, exactly', () => {
    const bids = cumulativeDepth([
      { price: '29950.00', number: '0.1' },
      { price: '29900.00', number: '0.2' },
      { price: '29800.00', number: '0.0001' },
    ]);
    expect(bids.map((point) => point.totalText)).toEqual(['0.1000', '0.3000', '0.3001']);
    expect(bids.map((point) => point.price)).toEqual([29950, 29900, 29800]);
  });

  it('draws both sides inside the box, and nothing for an empty book', () => {
    const bids = cumulativeDepth([{ price: '99', number: '1' }]);
    const asks = cumulativeDepth([
      { price: '101', number: '1' },
      { price: '102', number: '3' },
    ]);
    const geometry = depthGeometry(bids, asks, 200, 100);
    expect(geometry).not.toBeNull();
    expect(geometry?.minPrice).toBe(99);
    expect(geometry?.maxPrice).toBe(102);
    expect(geometry?.maxTotal).toBe(4);
    for (const path of [geometry?.bidPath ?? '', geometry?.askPath ?? '']) {
      for (const [, x, y] of path.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)) {
        expect(Number(x)).toBeGreaterThanOrEqual(0);
        expect(Number(x)).toBeLessThanOrEqual(200);
        expect(Number(y)).toBeGreaterThanOrEqual(0);
        expect(Number(y)).toBeLessThanOrEqual(100);
      }
    }
    expect(depthGeometry([], [], 200, 100)).toBeNull();
  });
});
