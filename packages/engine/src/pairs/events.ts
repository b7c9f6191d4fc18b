export type MarketAddedEvent = {
  type: 'marketAdded';
  marketId: number;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  tickSize: string;
  lotSize: string;
  lotBaseMinor: bigint;
  quoteMinorPerTickLot: bigint;
  minimumLots: number;
  makerFeePpm: number;
  takerFeePpm: number;
};

export type MarketFeesChangedEvent = {
  type: 'marketFeesChanged';
  marketId: number;
  makerFeePpm: number;
  takerFeePpm: number;
};

export type MarketBandChangedEvent = { type: 'marketBandChanged'; marketId: number; bandPpm: number };

export type PairEvent = MarketAddedEvent | MarketFeesChangedEvent | MarketBandChangedEvent;
