// The order form's estimate of a market order: a walk over the book as it stands, with the engine's own
// limits (the price-protection band, a buy's budget in whole lots, the quantity asked). Exact integers
// throughout; an estimate only, since the book can change before the order arrives, and it does not
// leave out the user's own resting orders (which self-trade prevention would cancel instead of filling).
import type { DepthLevel } from '@fairex/engine';
import { formatDecimal } from '@fairex/shared';
import type { SpotMarket } from './markets.ts';

/** Why a market order stops short: its funds ran out, the next price is past its band, or no book is left. */
export type EstimateStop = 'funds' | 'band' | 'book';

export interface MarketOrderWalk {
  filledLots: number;
  /** Quote minor units paid (buy) or received before fees (sell). */
  quoteAmount: bigint;
  /** The last (worst) price it would fill at, 0 when nothing fills. */
  worstTicks: number;
  /** null when the whole quantity asked fills. */
  stop: EstimateStop | null;
}

/**
 * Walks `levels` (the opposite side, best first) as the engine matches a market order: up to `lots` when
 * given, a buy up to `budget` quote minor units when given (whole lots only), and never past `bandTicks`
 * (0: no band).
 */
export function estimateMarketOrder(
  levels: readonly DepthLevel[],
  order: {
    side: 'buy' | 'sell';
    lots: number | undefined;
    budget: bigint | undefined;
    bandTicks: number;
    quoteMinorPerTickLot: bigint;
  },
): MarketOrderWalk {
  let remaining = order.lots === undefined ? Number.MAX_SAFE_INTEGER : order.lots;
  let filledLots = 0;
  let quoteAmount = 0n;
  let worstTicks = 0;
  for (const [priceTicks, levelLots] of levels) {
    if (remaining === 0) break;
    const beyondBand =
      order.bandTicks > 0 &&
      (order.side === 'buy' ? priceTicks > order.bandTicks : priceTicks < order.bandTicks);
    if (beyondBand) return { filledLots, quoteAmount, worstTicks, stop: 'band' };
    let take = Math.min(levelLots, remaining);
    let outOfFunds = false;
    const lotCost = BigInt(priceTicks) * order.quoteMinorPerTickLot;
    if (order.budget !== undefined) {
      const affordable = (order.budget - quoteAmount) / lotCost;
      if (affordable < BigInt(take)) {
        take = Number(affordable);
        outOfFunds = true;
      }
    }
    if (take > 0) {
      filledLots += take;
      remaining -= take;
      quoteAmount += BigInt(take) * lotCost;
      worstTicks = priceTicks;
    }
    if (outOfFunds) return { filledLots, quoteAmount, worstTicks, stop: 'funds' };
  }
  if (remaining === 0) return { filledLots, quoteAmount, worstTicks, stop: null };
  return { filledLots, quoteAmount, worstTicks, stop: 'book' };
}

/**
 * The average price of `quoteAmount` over `lots`, in the market's price text, rounded half up to the
 * price's decimals (which may be finer than the tick).
 */
export function averagePrice(market: SpotMarket, quoteAmount: bigint, lots: bigint): string {
  // price units = ticks x tickUnits, and ticks = quote / (lots x quote minor per tick and lot).
  const numerator = quoteAmount * market.tickUnits;
  const denominator = lots * market.quoteMinorPerTickLot;
  const units = (2n * numerator + denominator) / (2n * denominator);
  return formatDecimal(units, market.priceScale);
}
