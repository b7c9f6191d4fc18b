// The quotation lists of spec 01 section 7 and spec 02 section 7, from the catalogue and the 24-hour tickers.
import { formatDecimal } from '@fairex/shared';
import type { CoinListEntry, Quotation, QuotationGroup } from '@fairex/shared/api/market.ts';
import type { MarketInfo } from './market-catalog.ts';
import { changePercent, ppmPercent } from './market-catalog.ts';
import type { MarketData } from './market-data.ts';
import { tickerFields } from './market-data.ts';
import type { PairProductFlags } from './template-fields.ts';
import { productFlags } from './template-fields.ts';

/** How stale the market list of a quotation call may be (is_display and the order are edited in SQL). */
export const CATALOG_MAX_AGE_MS = 5_000;

export type { CoinListEntry, Quotation, QuotationGroup };

export function quotationOf(
  marketData: MarketData,
  market: MarketInfo,
  flags: PairProductFlags = productFlags(marketData.engine).pair(market.marketId),
): Quotation {
  const ticker = marketData.ticker(market.marketId);
  const prices = marketData.priceFields(market, ticker.lastTicks);
  return {
    id: market.marketId,
    symbol: market.symbol,
    legal_id: market.quoteCurrencyId,
    currency_id: market.baseCurrencyId,
    legal_name: market.quoteCode,
    currency_name: market.baseCode,
    logo: market.logo ?? '',
    ...tickerFields(market, ticker),
    // The price a screen shows: the last trade with a user, else the recorded mark (`price_kind` says which).
    now_price: prices.price,
    is_display: market.isDisplay ? 1 : 0,
    price_scale: market.priceScale,
    number_scale: market.quantityScale,
    lever_share_num: formatDecimal(market.leverShareSize, market.baseScale, { trim: true }),
    spread: ppmPercent(market.leverSpreadPpm),
    lever_trade_fee: ppmPercent(market.leverFeePpm),
    ...flags,
    ...prices,
  };
}

/** Markets grouped by quote currency, in display order; `displayedOnly` leaves out hidden pairs. */
export function quotationGroups(marketData: MarketData, displayedOnly: boolean): QuotationGroup[] {
  const groups = new Map<number, QuotationGroup>();
  const flags = productFlags(marketData.engine);
  for (const market of marketData.catalog.list()) {
    if (displayedOnly && !market.isDisplay) continue;
    let group = groups.get(market.quoteCurrencyId);
    if (group === undefined) {
      group = { id: market.quoteCurrencyId, name: market.quoteCode, quotation: [] };
      groups.set(market.quoteCurrencyId, group);
    }
    group.quotation.push(quotationOf(marketData, market, flags.pair(market.marketId)));
  }
  return [...groups.values()];
}

export function coinList(marketData: MarketData): CoinListEntry[] {
  return marketData.catalog
    .list()
    .filter((market) => market.isDisplay)
    .map((market) => {
      const ticker = marketData.ticker(market.marketId);
      const fields = tickerFields(market, ticker);
      const proportion = changePercent(ticker.openTicks, ticker.lastTicks);
      const { price, price_kind } = marketData.priceFields(market, ticker.lastTicks);
      return {
        id: market.marketId,
        name: market.baseCode,
        symbol: market.symbol,
        legal_id: market.quoteCurrencyId,
        currency_id: market.baseCurrencyId,
        last_price: price,
        price_kind,
        proportion,
        type: proportion.startsWith('-') ? 'down' : /[1-9]/.test(proportion) ? 'up' : 'flat',
        high: fields.high,
        low: fields.low,
        volume: fields.volume,
        amount: fields.amount,
      };
    });
}
