// The price area: index prices, marks and the hash-chained price record of every trading pair. Its name
// stays `market` (its queries are `engine.market`, which the server reads). Each price it records is handed
// to every area's `onPrice` hook (leverage marks, seconds contracts settle on it).
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN } from '../kernel/freezes.ts';
import { invariant } from '../invariant.ts';
import type { RecordIndexPriceCommand, RecordPriceSamplesCommand } from './commands.ts';
import { PRICE_PAIRS } from './expected.ts';
import { recordIndexPrice } from './index-price.ts';
import type { IndexPrice } from './index-price.ts';
import { recordPriceSamples } from './price-record.ts';
import type { MarkPrice, PriceHead } from './price-record.ts';
import { PricesState } from './state.ts';

export type MarketQueries = {
  /** The market's latest journaled index (mark) price and the time it was recorded; undefined before the first. */
  indexPrice(marketId: number): IndexPrice | undefined;
  /** The latest price sample's index and mark of a market (repeating the last good ones when stale). */
  markPrice(marketId: number): MarkPrice | undefined;
  /**
   * Whether a product may settle on the market's mark now: the latest sample is not stale, has a mark, and
   * is at most `maxAgeMs` older than the command time in force.
   */
  isMarkFresh(marketId: number, maxAgeMs: number): boolean;
  /** The market's price chain head (latest sample) and its last published head. */
  priceChain(marketId: number): { latest: PriceHead; published: PriceHead } | undefined;
};

type PriceChainRow = [
  marketId: number,
  seq: number,
  hash: string,
  timeMs: number,
  stale: 0 | 1,
  indexTicks: number | null,
  markTicks: number | null,
  basisMicro: string,
  headSeq: number,
  headTimeMs: number,
  headHash: string,
];

export const pricesArea = defineArea({
  name: 'market',
  commands: {
    recordIndexPrice: command<PricesState, RecordIndexPriceCommand>(recordIndexPrice),
    recordPriceSamples: command<PricesState, RecordPriceSamplesCommand>(recordPriceSamples),
  },
  freezes: { recordIndexPrice: NOT_FROZEN, recordPriceSamples: NOT_FROZEN },
  createState: (setup) => new PricesState(setup),
  queries: (state): MarketQueries => ({
    indexPrice: (marketId) => state.indexPrices.get(marketId),
    markPrice(marketId) {
      const chain = state.priceChains.get(marketId);
      if (chain === undefined) return undefined;
      const { seq, timeMs, stale, indexTicks, markTicks } = chain;
      return { seq, timeMs, stale, indexTicks, markTicks };
    },
    isMarkFresh(marketId, maxAgeMs) {
      const chain = state.priceChains.get(marketId);
      return (
        chain !== undefined &&
        !chain.stale &&
        chain.markTicks !== null &&
        state.commandTimeMs() - chain.timeMs <= maxAgeMs
      );
    },
    priceChain(marketId) {
      const chain = state.priceChains.get(marketId);
      if (chain === undefined) return undefined;
      return {
        latest: { seq: chain.seq, timeMs: chain.timeMs, hash: chain.hash },
        published: { seq: chain.headSeq, timeMs: chain.headTimeMs, hash: chain.headHash },
      };
    },
  }),
  // Both sections are written only when there is one entry, so the text (and state hash) of a state without
  // prices is what it was before prices existed.
  writeSnapshot: (state) => ({
    indexPrices:
      state.indexPrices.size === 0
        ? undefined
        : [...state.indexPrices]
            .sort(([a], [b]) => a - b)
            .map(([marketId, index]) => [marketId, index.priceTicks, index.timeMs]),
    priceChains:
      state.priceChains.size === 0
        ? undefined
        : [...state.priceChains]
            .sort(([a], [b]) => a - b)
            .map(([marketId, chain]): PriceChainRow => [
              marketId,
              chain.seq,
              chain.hash,
              chain.timeMs,
              chain.stale ? 1 : 0,
              chain.indexTicks,
              chain.markTicks,
              chain.basisMicro.toString(),
              chain.headSeq,
              chain.headTimeMs,
              chain.headHash,
            ]),
  }),
  sections: ['indexPrices', 'priceChains'],
  readSnapshot: (state, document) => {
    const pairs = state.port(PRICE_PAIRS);
    const indexPrices = (document.indexPrices ?? []) as [number, number, number][];
    for (const [marketId, priceTicks, timeMs] of indexPrices) {
      invariant(pairs.hasMarket(marketId), `snapshot has an index price for unknown market ${marketId}`);
      state.indexPrices.set(marketId, { priceTicks, timeMs });
    }
    for (const row of (document.priceChains ?? []) as PriceChainRow[]) {
      const [
        marketId,
        seq,
        hash,
        timeMs,
        stale,
        indexTicks,
        markTicks,
        basisMicro,
        headSeq,
        headTimeMs,
        headHash,
      ] = row;
      invariant(pairs.hasMarket(marketId), `snapshot has a price chain for unknown market ${marketId}`);
      state.priceChains.set(marketId, {
        seq,
        hash,
        timeMs,
        stale: stale === 1,
        indexTicks,
        markTicks,
        basisMicro: BigInt(basisMicro),
        headSeq,
        headTimeMs,
        headHash,
      });
    }
  },
});
