import { formatDecimal, pow10 } from '@fairex/shared/decimal.ts';
import type { BookLevel, SpotMarketInfo } from '../../data/spot.ts';
import { unitsAt } from './order-math.ts';

// The order book as the screen draws it: levels merged into coarser price steps when the reader groups
// by 10 or 100 ticks, with running totals and the depth bar of each row. Exact throughout: prices and
// quantities are bigint units; only a bar's width (a share of the deepest total) becomes a number.

export interface BookRow {
  price: string;
  number: string;
  /** Running total from the best price to this row. */
  total: string;
  /** This row's total as a share of the deepest total shown on either side, 0 to 1. */
  depth: number;
}

/** Grouping choices: one tick, ten, a hundred, a thousand, as long as a group stays a sensible size. */
export function groupingSteps(market: SpotMarketInfo): number[] {
  const steps = [0, 1, 2, 3].filter((power) => power <= market.price_scale + 2);
  return steps.map((power) => 10 ** power);
}

/** The decimals a grouped price needs: a group of 10^k ticks of a power-of-ten tick drops k decimals. */
export function groupDecimals(market: SpotMarketInfo, factor: number): number {
  const tick = unitsAt(market.price_tick, market.price_scale) ?? 1n;
  let decimals = market.price_scale;
  let rest = tick * BigInt(factor);
  while (decimals > 0 && rest % 10n === 0n) {
    rest /= 10n;
    decimals--;
  }
  return decimals;
}

interface Merged {
  priceUnits: bigint;
  numberUnits: bigint;
}

/**
 * Merges levels (best first) into groups of `factor` ticks: bids round down to their group, asks up, so a
 * group never shows a better price than the orders inside it. Returns at most `limit` rows, best first.
 */
export function groupSide(
  levels: readonly BookLevel[],
  side: 'bid' | 'ask',
  factor: number,
  market: SpotMarketInfo,
  limit: number,
): Merged[] {
  const tick = unitsAt(market.price_tick, market.price_scale) ?? 1n;
  const group = tick * BigInt(Math.max(1, Math.floor(factor)));
  const merged: Merged[] = [];
  for (const level of levels) {
    const price = unitsAt(level.price, market.price_scale);
    const number = unitsAt(level.number, market.number_scale);
    if (price === null || number === null || number === 0n) continue;
    const floor = (price / group) * group;
    const grouped = side === 'bid' || floor === price ? floor : floor + group;
    const last = merged[merged.length - 1];
    if (last !== undefined && last.priceUnits === grouped) {
      last.numberUnits += number;
    } else {
      if (merged.length === limit) break;
      merged.push({ priceUnits: grouped, numberUnits: number });
    }
  }
  return merged;
}

/** Rows of both sides with running totals and depth bars scaled to the deeper side. */
export function bookRows(
  bids: readonly BookLevel[],
  asks: readonly BookLevel[],
  factor: number,
  market: SpotMarketInfo,
  limit: number,
): { bids: BookRow[]; asks: BookRow[] } {
  const decimals = groupDecimals(market, factor);
  const bidGroups = groupSide(bids, 'bid', factor, market, limit);
  const askGroups = groupSide(asks, 'ask', factor, market, limit);
  const deepest = [bidGroups, askGroups].reduce((max, groups) => {
    const total = groups.reduce((sum, group) => sum + group.numberUnits, 0n);
    return total > max ? total : max;
  }, 0n);
  const toRows = (groups: Merged[]): BookRow[] => {
    let running = 0n;
    return groups.map((group) => {
      running += group.numberUnits;
      return {
        price: formatDecimal(group.priceUnits / pow10(market.price_scale - decimals), decimals),
        number: formatDecimal(group.numberUnits, market.number_scale),
        total: formatDecimal(running, market.number_scale),
        // A share for drawing only; 10,000 steps are finer than any bar's pixels.
        depth: deepest === 0n ? 0 : Number((running * 10_000n) / deepest) / 10_000,
      };
    });
  };
  return { bids: toRows(bidGroups), asks: toRows(askGroups) };
}
