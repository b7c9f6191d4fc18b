// Spot's view of the markets is the shared market catalogue (market/market-catalog.ts): the engine's exact
// conversion factors and current fees joined with the catalogue's display settings. This module adds only
// the settings block the spot calls answer with.
import { formatDecimal } from '@fairex/shared';
import type { SpotMarketInfo } from '@fairex/shared/api/spot.ts';
import type { MarketInfo } from '../market/market-catalog.ts';
import { formatLots, MarketCatalog } from '../market/market-catalog.ts';

export type SpotMarket = MarketInfo;
export { MarketCatalog as SpotMarkets };
export { formatBaseMinor, formatLots, formatPrice, formatQuoteMinor } from '../market/market-catalog.ts';

/** The market's settings as the web client reads them with the book (precision, steps, minimums, fees). */
export function marketInfo(market: SpotMarket): SpotMarketInfo {
  return {
    id: market.marketId,
    symbol: market.symbol,
    legal_id: market.quoteCurrencyId,
    currency_id: market.baseCurrencyId,
    legal_name: market.quoteCode,
    currency_name: market.baseCode,
    price_scale: market.priceScale,
    number_scale: market.quantityScale,
    legal_scale: market.quoteScale,
    currency_scale: market.baseScale,
    price_tick: formatDecimal(market.tickUnits, market.priceScale),
    number_step: formatLots(market, 1),
    min_number: formatLots(market, market.minimumLots),
    min_total: formatDecimal(market.minNotionalMinor, market.quoteScale, { trim: true }),
    maker_fee: formatDecimal(BigInt(market.makerFeePpm), 4, { trim: true }),
    taker_fee: formatDecimal(BigInt(market.takerFeePpm), 4, { trim: true }),
  };
}
