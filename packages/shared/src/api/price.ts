// The public price record (docs/price-record.md): input schemas and reply shapes of /api/price/* and the
// `price_head` socket event. Prices are decimal text in the market's tick (null before a market's first good
// sample); times are milliseconds since the epoch; hashes are 64 lowercase hex characters.
import { z } from 'zod';
import { integer, oneOf, optional, text, timeMs } from '../schema/fields.ts';

/** The largest time accepted (the year 2286). */
export const PRICE_TIME_MAX = 9_999_999_999_999;
export const PRICE_SAMPLES_PER_CALL = 600;
export const PRICE_HEADS_MAX = 1_000;
export const MARK_BARS_PER_CALL = 1_000;
export const MARK_BAR_PERIODS = ['1min', '5min', '15min', '30min', '60min', '1day'] as const;
export type MarkBarPeriod = (typeof MARK_BAR_PERIODS)[number];

/** `from` and `to` are milliseconds: a time in seconds is refused (see `timeMs`), not answered with nothing. */
export const priceSamplesInput = z.object({
  symbol: text({ max: 40 }),
  from: optional(timeMs({ max: PRICE_TIME_MAX })),
  to: optional(timeMs({ max: PRICE_TIME_MAX })),
});

export const priceHeadsInput = z.object({
  symbol: optional(text({ max: 40 })),
  limit: optional(integer({ min: 1, max: PRICE_HEADS_MAX })),
});

export const priceProofInput = z.object({
  symbol: text({ max: 40 }),
  seq: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
});

export const markBarsInput = z.object({
  symbol: text({ max: 40 }),
  period: oneOf(MARK_BAR_PERIODS),
  from: optional(timeMs({ max: PRICE_TIME_MAX })),
  to: optional(timeMs({ max: PRICE_TIME_MAX })),
});

export interface PriceSampleSource {
  name: string;
  price: string;
  time: number;
}

export interface PriceSample {
  symbol: string;
  seq: number;
  time: number;
  source_time: number | null;
  index_price: string | null;
  mark_price: string | null;
  sources: PriceSampleSource[];
  stale: boolean;
  prev_hash: string;
  hash: string;
}

export interface PriceHead {
  symbol: string;
  seq: number;
  time: number;
  hash: string;
}

export interface PriceSamplesMessage {
  symbol: string;
  samples: PriceSample[];
}

export interface PriceHeadsMessage {
  heads: PriceHead[];
}

export interface PriceProofMessage {
  symbol: string;
  head: PriceHead;
  samples: PriceSample[];
}

/** [open time ms, open, high, low, close] of the mark price. */
export type MarkBar = [time: number, open: string, high: string, low: string, close: string];

export interface MarkBarsMessage {
  symbol: string;
  period: MarkBarPeriod;
  bars: MarkBar[];
}

/**
 * One rule for the price a screen shows for a pair: the last trade with a user (`trade`); where no user has
 * traded, the recorded mark price stands in (`mark`, shown labelled as the mark); `none` (and "") before the
 * first price sample.
 */
export type PriceKind = 'trade' | 'mark' | 'none';

/** The price of a pair and its kind, carried by the quotation rows and the `daymarket` push. */
export interface PriceKindFields {
  price: string;
  price_kind: PriceKind;
}

/** The mark and index fields added to deal replies and quotation rows. */
export interface MarkIndexFields {
  mark_price: string | null;
  index_price: string | null;
}

/** The same rule's kind as the deal replies and template-era fields carry it (see PriceKind). */
export type ShownPriceKind = PriceKind;

/** Where the index prices come from: `simulated` when any configured source is the simulator. */
export type PriceSourceKind = 'simulated' | 'live';

/**
 * GET /api/price/source (public): the kind of the price source, which pages label "Simulated prices
 * (demo)" when simulated, the configured sources' names, the DEMO switch, and whether seconds contracts
 * and leverage take new orders (never on simulated prices with DEMO=off).
 */
export interface PriceSourceReply {
  kind: PriceSourceKind;
  sources: string[];
  demo: boolean;
  orders_open: boolean;
}
