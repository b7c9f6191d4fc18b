import { formatDecimal } from '@fairex/shared/decimal.ts';
import { atScale, readDecimal } from '../format/decimal-text.ts';

// The depth chart's arithmetic: the book's levels summed outwards from the best price, exactly (bigint at
// the finest scale the levels use), then turned into numbers only to place points on the canvas.

export interface BookLevelText {
  price: string;
  number: string;
}

export interface DepthPoint {
  /** For placing the point: price and cumulative quantity as numbers. */
  price: number;
  total: number;
  /** The cumulative quantity exactly, as decimal text, for labels. */
  totalText: string;
}

/** Levels from the best price outwards, each with the quantity of it and every better level. */
export function cumulativeDepth(levels: readonly BookLevelText[]): DepthPoint[] {
  const read = levels.flatMap((level) => {
    const price = readDecimal(level.price);
    const quantity = readDecimal(level.number);
    return price === null || quantity === null ? [] : [{ level, price, quantity }];
  });
  const scale = Math.max(0, ...read.map((entry) => entry.quantity.scale));
  let running = 0n;
  return read.map(({ level, quantity }) => {
    running += atScale(quantity, scale);
    const totalText = formatDecimal(running, scale);
    return { price: Number(level.price), total: Number(totalText), totalText };
  });
}

export interface DepthGeometry {
  bidPath: string;
  askPath: string;
  minPrice: number;
  maxPrice: number;
  maxTotal: number;
}

/**
 * SVG paths of the two sides as steps: bids from the best bid leftwards, asks from the best ask
 * rightwards, each closed down to the baseline. Null when the book has no level on either side.
 */
export function depthGeometry(
  bids: readonly DepthPoint[],
  asks: readonly DepthPoint[],
  width: number,
  height: number,
): DepthGeometry | null {
  if (bids.length === 0 && asks.length === 0) return null;
  const prices = [...bids, ...asks].map((point) => point.price);
  let minPrice = Math.min(...prices);
  let maxPrice = Math.max(...prices);
  if (minPrice === maxPrice) {
    minPrice -= 1;
    maxPrice += 1;
  }
  const maxTotal = Math.max(...[...bids, ...asks].map((point) => point.total), Number.MIN_VALUE);
  const x = (price: number) => ((price - minPrice) / (maxPrice - minPrice)) * width;
  const y = (total: number) => height - (total / maxTotal) * height * 0.92;
  const side = (points: readonly DepthPoint[], towards: number) => {
    if (points.length === 0) return '';
    let path = `M${x(points[0]!.price).toFixed(1)},${height} `;
    let previous = height;
    for (const point of points) {
      const px = x(point.price).toFixed(1);
      path += `L${px},${previous.toFixed(1)} L${px},${y(point.total).toFixed(1)} `;
      previous = y(point.total);
    }
    path += `L${towards.toFixed(1)},${previous.toFixed(1)} L${towards.toFixed(1)},${height} Z`;
    return path;
  };
  return { bidPath: side(bids, 0), askPath: side(asks, width), minPrice, maxPrice, maxTotal };
}
