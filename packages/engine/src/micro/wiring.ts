// Today's engine shell for the micro area: builds MicroDeps from the EngineState. The kernel's area list
// replaces this file.
import type { EngineState } from '../state.ts';
import type { MicroDeps } from './handlers.ts';
import type { MicroSample } from './rules.ts';

export function microDeps(state: EngineState): MicroDeps {
  return {
    micro: state.micro,
    ledger: state.ledger,
    timeMs: state.timeMs,
    emit: (event) => state.events.push(event),
    reply: (value) => {
      state.reply = value;
    },
    hasCurrency: (currencyId) => state.currencies.has(currencyId),
    hasMarket: (marketId) => state.markets.has(marketId),
    latestSample: (marketId): MicroSample | undefined => {
      const chain = state.priceChains.get(marketId);
      if (chain === undefined || chain.seq === 0) return undefined;
      return {
        seq: chain.seq,
        timeMs: chain.timeMs,
        markTicks: chain.markTicks,
        stale: chain.stale,
        hash: chain.hash,
      };
    },
  };
}
