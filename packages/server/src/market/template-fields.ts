// What a template-era client reads to decide whether a product is open, and the price it shows
// (docs/template-clients.md). Every flag is derived from the engine's state, the very state that accepts or
// refuses an order, so a flag never says "open" for a product the engine refuses, nor "closed" for one it
// accepts. The price a template screen shows and takes its order forms' default from is the last trade with
// a user, or where no user has traded yet the latest recorded mark, labelled as such.
import type { Engine } from '@fairex/engine';
import type { Flag, PriceKind } from '@fairex/shared';
import { leverQueries } from '../lever/views.ts';

/** The products of one pair, as the template's quotation rows name them. */
export interface PairProductFlags {
  /** Spot orders are matched on the pair (every market of the engine). */
  open_transaction: Flag;
  /** The same, under the template's other name for it. */
  open_coin_trade: Flag;
  /** Leveraged positions open on the pair: its lever settings exist and are enabled. */
  open_lever: Flag;
  /**
   * Seconds contracts open on the pair: a seconds option exists, and a payable currency has a cap on the pair
   * and a house reserve to pay wins from (with an empty reserve the engine refuses every order).
   */
  open_microtrade: Flag;
}

/** What a currency is used for in leverage and seconds contracts. */
export interface ProductCurrencyFlags {
  /** Margin currency (the quote) of a pair open to leverage. */
  is_lever: Flag;
  /** Pays for seconds contracts open on at least one pair (the same conditions as open_microtrade). */
  is_micro: Flag;
}

type FlagsEngine = Pick<Engine, 'spot' | 'micro' | 'ledger'>;

/** The flags of every pair and currency, read once from the engine. */
export function productFlags(engine: FlagsEngine): {
  pair(marketId: number): PairProductFlags;
  currency(currencyId: number): ProductCurrencyFlags;
} {
  const config = engine.micro.config();
  const payable = new Set(
    config.currencies
      .filter(
        (currency) =>
          currency.maxOpenOrders > 0 &&
          engine.ledger.balance('house', 'micro', currency.currencyId).available > 0n,
      )
      .map((currency) => currency.currencyId),
  );
  const microMarkets = new Set<number>();
  const microCurrencies = new Set<number>();
  if (config.seconds.length > 0) {
    for (const cap of config.caps) {
      if (!payable.has(cap.currencyId)) continue;
      microMarkets.add(cap.marketId);
      microCurrencies.add(cap.currencyId);
    }
  }
  const leverMarkets = new Set<number>();
  const leverCurrencies = new Set<number>();
  for (const pair of leverQueries(engine as Engine)?.pairs() ?? []) {
    if (!pair.enabled) continue;
    leverMarkets.add(pair.marketId);
    leverCurrencies.add(pair.quoteCurrencyId);
  }
  const flag = (value: boolean): Flag => (value ? 1 : 0);
  return {
    pair: (marketId) => {
      const spot = flag(engine.spot.market(marketId) !== undefined);
      return {
        open_transaction: spot,
        open_coin_trade: spot,
        open_lever: flag(leverMarkets.has(marketId)),
        open_microtrade: flag(microMarkets.has(marketId)),
      };
    },
    currency: (currencyId) => ({
      is_lever: flag(leverCurrencies.has(currencyId)),
      is_micro: flag(microCurrencies.has(currencyId)),
    }),
  };
}

/** The price a template screen shows: the last trade with a user, else the latest recorded mark. */
export function shownPriceTicks(
  engine: Pick<Engine, 'market'>,
  marketId: number,
  lastTradeTicks: number | undefined,
): { ticks: number | undefined; kind: PriceKind } {
  if (lastTradeTicks !== undefined) return { ticks: lastTradeTicks, kind: 'trade' };
  const mark = engine.market.markPrice(marketId)?.markTicks ?? null;
  return mark === null ? { ticks: undefined, kind: 'none' } : { ticks: mark, kind: 'mark' };
}
