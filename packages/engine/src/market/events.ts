/** The market's index price is now `priceTicks`, from the time of the command that recorded it. */
export type IndexPriceRecordedEvent = { type: 'indexPriceRecorded'; marketId: number; priceTicks: number };

export type MarketDataEvent = IndexPriceRecordedEvent;
