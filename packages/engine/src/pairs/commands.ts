/**
 * Opens a trading pair (a spot market). `tickSize` (quote units per whole base unit) and `lotSize` (base
 * units) are decimal text; the engine derives the base minor units per lot and the quote minor units per
 * tick and lot and refuses the pair unless both are whole numbers of at least one. `quoteMinorPerTickLot`,
 * when given, must equal the derived value (a guard against a configuration computed with the wrong scale).
 */
export type AddMarketCommand = {
  type: 'addMarket';
  marketId: number;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  tickSize: string;
  lotSize: string;
  minimumLots: number;
  makerFeePpm: number;
  takerFeePpm: number;
  quoteMinorPerTickLot?: bigint;
};

export type SetMarketFeesCommand = {
  type: 'setMarketFees';
  marketId: number;
  makerFeePpm: number;
  takerFeePpm: number;
};

/**
 * Sets a pair's price-protection band for market orders, in ppm of the reference price (0..900,000;
 * 0 turns it off). A new pair starts at DEFAULT_MARKET_BAND_PPM (5 %).
 */
export type SetMarketBandCommand = { type: 'setMarketBand'; marketId: number; bandPpm: number };

export type PairCommand = AddMarketCommand | SetMarketFeesCommand | SetMarketBandCommand;
