// What the pairs answer: a pair's specification by id. The spot area exposes these among its queries
// (`engine.spot.market(id)`); other areas declare the part they read as a port of their own.
import type { Pair, PairView } from './pair.ts';
import { pairView } from './pair.ts';

export type PairQueries = {
  hasMarket(marketId: number): boolean;
  market(marketId: number): PairView | undefined;
  markets(): PairView[];
};

export function pairQueries(pairs: ReadonlyMap<number, Pair>): PairQueries {
  return {
    hasMarket: (marketId) => pairs.has(marketId),
    market(marketId) {
      const pair = pairs.get(marketId);
      return pair === undefined ? undefined : pairView(pair);
    },
    markets: () => [...pairs.values()].sort((a, b) => a.marketId - b.marketId).map(pairView),
  };
}
