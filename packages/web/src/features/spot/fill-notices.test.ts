import { describe, expect, it } from 'vitest';
import { newFills } from './fill-notices.ts';
import type { CompletedTrade } from '../../data/spot.ts';

const trade = (id: number) => ({ id }) as CompletedTrade;

describe('fill notices', () => {
  it('announces only fills not seen before, oldest first', () => {
    const seen = new Set([1, 2]);
    expect(newFills([trade(4), trade(3), trade(2), trade(1)], seen).map((fill) => fill.id)).toEqual([3, 4]);
    expect(newFills([trade(2), trade(1)], seen)).toEqual([]);
  });
});
