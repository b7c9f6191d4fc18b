import { formatDecimal, pow10 } from '@fairex/shared/decimal.ts';
import { atScale, readDecimal } from '../format/decimal-text.ts';

// What the depth chart shows of the book: the window of prices around the mid, the levels inside it summed
// outwards from the best price (quantity and its value in the quote currency), and the axes' ticks. All of
// it in bigint on the book's exact digits; numbers appear only where a point is placed on the screen.

/** One level of the book as the page holds it: decimal text. */
export interface BookLevelText {
  price: string;
  number: string;
}

/** Levels further than this from the mid, in percent of it, are left out: one far order must not flatten the chart. */
export const DEPTH_BAND_PERCENT = 10n;

export interface WindowPoint {
  /** The level's price, exactly as the book gives it. */
  priceText: string;
  /** The quantity at this level and every better one, and what it is worth at each level's price. */
  totalText: string;
  valueText: string;
  /** For placing the point only. */
  price: number;
  total: number;
}

export interface DepthWindow {
  /** The mid between the best bid and the best ask (the one best price when a side is empty). */
  midText: string;
  /** The prices at the window's edges: symmetric around the mid. */
  lowText: string;
  highText: string;
  /** Each side from its best price outwards, only the levels inside the window. */
  bids: WindowPoint[];
  asks: WindowPoint[];
  /** The larger of the two sides' cumulative quantities inside the window. */
  maxTotalText: string;
  /** Levels the window leaves out (beyond the band). */
  hiddenLevels: number;
}

interface ReadLevel {
  price: bigint;
  quantity: bigint;
}

function readSide(levels: readonly BookLevelText[], priceScale: number, quantityScale: number): ReadLevel[] {
  return levels.flatMap((level) => {
    const price = readDecimal(level.price);
    const quantity = readDecimal(level.number);
    if (price === null || quantity === null || quantity.minor <= 0n) return [];
    return [{ price: atScale(price, priceScale), quantity: atScale(quantity, quantityScale) }];
  });
}

const abs = (value: bigint) => (value < 0n ? -value : value);

/**
 * The window of the book the depth chart draws: centred on the mid, as wide as the furthest level within
 * `bandPercent` of the mid on either side (plus a tenth, so the outermost step is seen), or, when no level
 * lies within the band, as wide as the nearer of the two best prices. Null for an empty book.
 */
export function depthWindow(
  bidLevels: readonly BookLevelText[],
  askLevels: readonly BookLevelText[],
  bandPercent: bigint = DEPTH_BAND_PERCENT,
): DepthWindow | null {
  const all = [...bidLevels, ...askLevels];
  const priceScale = Math.max(0, ...all.map((level) => readDecimal(level.price)?.scale ?? 0));
  const quantityScale = Math.max(0, ...all.map((level) => readDecimal(level.number)?.scale ?? 0));
  const bids = readSide(bidLevels, priceScale, quantityScale);
  const asks = readSide(askLevels, priceScale, quantityScale);
  const bestBid = bids[0]?.price;
  const bestAsk = asks[0]?.price;
  if (bestBid === undefined && bestAsk === undefined) return null;
  // Prices one place finer than the book's, so that the mid of two levels is exact.
  const scale = priceScale + 1;
  const fine = (price: bigint) => price * 10n;
  const mid =
    bestBid !== undefined && bestAsk !== undefined
      ? (bestBid + bestAsk) * 5n
      : fine((bestBid ?? bestAsk) as bigint);
  const band = (abs(mid) * bandPercent) / 100n;
  const distances = [...bids, ...asks].map((level) => abs(fine(level.price) - mid));
  const inBand = distances.filter((distance) => distance <= band);
  let half =
    inBand.length > 0
      ? inBand.reduce((a, b) => (a > b ? a : b), 0n)
      : [bestBid, bestAsk]
          .filter((price): price is bigint => price !== undefined)
          .map((price) => abs(fine(price) - mid))
          .reduce((a, b) => (a < b ? a : b));
  half += half / 10n;
  if (half === 0n) half = mid / 1000n > 0n ? mid / 1000n : 10n;
  const inside = (level: ReadLevel) => abs(fine(level.price) - mid) <= half;
  const cumulative = (side: ReadLevel[]): { points: WindowPoint[]; total: bigint } => {
    let total = 0n;
    let value = 0n;
    const points = side.filter(inside).map((level) => {
      total += level.quantity;
      value += level.price * level.quantity;
      const totalText = formatDecimal(total, quantityScale);
      return {
        priceText: formatDecimal(level.price, priceScale),
        totalText,
        valueText: formatDecimal(value, priceScale + quantityScale),
        price: Number(formatDecimal(level.price, priceScale)),
        total: Number(totalText),
      };
    });
    return { points, total };
  };
  const bidSide = cumulative(bids);
  const askSide = cumulative(asks);
  const maxTotal = bidSide.total > askSide.total ? bidSide.total : askSide.total;
  return {
    midText: formatDecimal(mid, scale),
    lowText: formatDecimal(mid - half, scale),
    highText: formatDecimal(mid + half, scale),
    bids: bidSide.points,
    asks: askSide.points,
    maxTotalText: formatDecimal(maxTotal, quantityScale),
    hiddenLevels: bids.length + asks.length - bidSide.points.length - askSide.points.length,
  };
}

/**
 * Round ticks between `lowText` and `highText`: the multiples of a step of 1, 2 or 5 times a power of ten,
 * the finest such step that gives at most `maxCount` ticks and none finer than the last of `decimals`
 * places. Returned as decimal text with `decimals` places, low to high.
 */
export function niceTicks(lowText: string, highText: string, maxCount: number, decimals: number): string[] {
  const low = readDecimal(lowText);
  const high = readDecimal(highText);
  if (low === null || high === null || maxCount < 1) return [];
  const lowUnits = atScale(low, decimals);
  const highUnits = atScale(high, decimals);
  const span = highUnits - lowUnits;
  if (span <= 0n) return [formatDecimal(lowUnits, decimals)];
  let step = 0n;
  for (let exponent = 0; step === 0n; exponent += 1) {
    for (const factor of [1n, 2n, 5n]) {
      const candidate = factor * pow10(exponent);
      if (span / candidate + 1n <= BigInt(maxCount)) {
        step = candidate;
        break;
      }
    }
  }
  const first = lowUnits % step === 0n ? lowUnits : lowUnits - (((lowUnits % step) + step) % step) + step;
  const ticks: string[] = [];
  for (let tick = first; tick <= highUnits; tick += step) ticks.push(formatDecimal(tick, decimals));
  return ticks;
}

/** The point of a side nearest to a price (a hover's position on the price axis), or null for an empty side. */
export function nearestPoint(points: readonly WindowPoint[], price: number): WindowPoint | null {
  let best: WindowPoint | null = null;
  for (const point of points) {
    if (best === null || Math.abs(point.price - price) < Math.abs(best.price - price)) best = point;
  }
  return best;
}
