import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { DaymarketPayload } from '@fairex/shared/socket-events.ts';
import type { ChartBar, Quotation } from '@fairex/shared/api/market.ts';
import { ApiError, apiRaw, apiRequest } from './api.ts';
import { i18next } from '../i18n/index.ts';
import { writeStored } from './storage.ts';

// Market data over HTTP: the quotation list of every pair (spec 01 section 5, spec 02 section 7) and
// the bar history of a chart (GET /api/currency/new_timeshar). Prices and amounts stay the decimal
// strings the server sent; a field that is missing or not a plain decimal is kept out rather than
// guessed, so the screen shows a dash instead of a made-up number.


const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const DECIMAL_FIELDS = [
  'now_price',
  'change',
  'high',
  'low',
  'volume',
  'amount',
  'mark_price',
  'index_price',
  'price',
] as const satisfies readonly (keyof Quotation)[];
const PRICE_KINDS: readonly string[] = ['trade', 'mark', 'none'] satisfies Quotation['price_kind'][];

/**
 * One pair of the quotation list as the screens read it (the contract's `Quotation`): the pair always, a
 * figure only when the server sent it as a plain decimal, so a screen shows a dash rather than a guess.
 */
export type BoardQuotation = Pick<Quotation, 'legal_id' | 'currency_id' | 'legal_name' | 'currency_name'> &
  Partial<Record<QuotationFigure, string>> & {
    /** 1 shown on the board and in market lists, 0 hidden. */
    is_display: number;
    logo?: string;
    /** What `price` is: the last trade with a user, the mark standing in for one, or nothing yet. */
    price_kind?: Quotation['price_kind'];
    /** The pair's price precision (places), when the server sent it: every screen writes its prices with it. */
    price_scale?: number;
  };

type QuotationFigure = (typeof DECIMAL_FIELDS)[number];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function whole(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

/** Reads one quotation, or null when it does not name a pair. Decimal fields must be decimal strings. */
export function readQuotation(value: unknown): BoardQuotation | null {
  if (!isRecord(value)) return null;
  const legalId = whole(value.legal_id);
  const currencyId = whole(value.currency_id);
  if (legalId === null || currencyId === null) return null;
  if (typeof value.legal_name !== 'string' || typeof value.currency_name !== 'string') return null;
  const quotation: BoardQuotation = {
    legal_id: legalId,
    currency_id: currencyId,
    legal_name: value.legal_name,
    currency_name: value.currency_name,
    is_display: whole(value.is_display) ?? 1,
  };
  for (const field of DECIMAL_FIELDS) {
    const text = value[field];
    if (typeof text === 'string' && DECIMAL.test(text)) quotation[field] = text;
  }
  if (typeof value.logo === 'string' && value.logo !== '') quotation.logo = value.logo;
  if (isPriceKind(value.price_kind)) quotation.price_kind = value.price_kind;
  const priceScale = whole(value.price_scale);
  if (priceScale !== null && priceScale <= 18) quotation.price_scale = priceScale;
  return quotation;
}

function isPriceKind(value: unknown): value is Quotation['price_kind'] {
  return typeof value === 'string' && PRICE_KINDS.includes(value);
}

/** The price a screen shows for a pair: a trade's, or the mark standing in for one (labelled as such). */
export interface ShownPrice {
  price: string | undefined;
  kind: 'trade' | 'mark';
}

/**
 * The one rule for a pair's price on Fairex's screens (docs/market-data.md): the server's `price` and
 * `price_kind` (the last trade with a user, else the recorded mark); from a server that sends no kind, the
 * last traded price, else the mark. A mark is never shown as if it were a trade.
 */
export function shownPrice(
  quotation: Pick<BoardQuotation, 'price' | 'price_kind' | 'now_price' | 'mark_price'>,
): ShownPrice {
  switch (quotation.price_kind) {
    case 'trade':
    case 'mark':
      if (quotation.price !== undefined) return { price: quotation.price, kind: quotation.price_kind };
      break;
    case 'none':
      return { price: undefined, kind: 'trade' };
    default:
      break;
  }
  if (quotation.now_price !== undefined) return { price: quotation.now_price, kind: 'trade' };
  if (quotation.mark_price !== undefined) return { price: quotation.mark_price, kind: 'mark' };
  return { price: undefined, kind: 'trade' };
}

function badResponse(): ApiError {
  return new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

/**
 * POST /api/currency/quotation_new: the market board's list. The template read `message[0].quotation`,
 * which is the USDT group while USDT is the only quote; every group is read here, so a market quoted in
 * another currency listed first cannot push the USDT pairs off the board.
 */
export async function fetchBoardQuotations(signal?: AbortSignal): Promise<BoardQuotation[]> {
  const message = await apiRequest<unknown>('/currency/quotation_new', {
    method: 'POST',
    body: {},
    ...(signal ? { signal } : {}),
  });
  if (!Array.isArray(message)) throw badResponse();
  return message.flatMap((group: unknown) => {
    if (!isRecord(group) || !Array.isArray(group.quotation)) throw badResponse();
    return group.quotation.map(readQuotation).filter((item): item is BoardQuotation => item !== null);
  });
}

export const BOARD_QUOTATIONS_KEY = ['market', 'board-quotations'] as const;

export function useBoardQuotations(): UseQueryResult<BoardQuotation[], Error> {
  return useQuery({ queryKey: BOARD_QUOTATIONS_KEY, queryFn: ({ signal }) => fetchBoardQuotations(signal) });
}

/**
 * Each pair's price precision from the quotation list, for the screens that list prices of many pairs (the
 * open orders, the orders page, the fill toasts): look a pair up by its ids or its symbol ("BTC/USDT").
 * Undefined while the list loads or for a pair it does not hold; formatPrice then shows the text as sent.
 */
export function usePriceScales(): {
  byIds: (legalId: number, currencyId: number) => number | undefined;
  bySymbol: (symbol: string) => number | undefined;
} {
  const quotations = useBoardQuotations().data;
  return useMemo(() => {
    const byIds = new Map<string, number>();
    const bySymbol = new Map<string, number>();
    for (const quotation of quotations ?? []) {
      if (quotation.price_scale === undefined) continue;
      byIds.set(pairKey(quotation.legal_id, quotation.currency_id), quotation.price_scale);
      bySymbol.set(symbolOf(quotation), quotation.price_scale);
    }
    return {
      byIds: (legalId, currencyId) => byIds.get(pairKey(legalId, currencyId)),
      bySymbol: (symbol) => bySymbol.get(symbol),
    };
  }, [quotations]);
}

export function pairKey(legalId: number, currencyId: number): string {
  return `${legalId}:${currencyId}`;
}

export function symbolOf(quotation: Pick<BoardQuotation, 'currency_name' | 'legal_name'>): string {
  return `${quotation.currency_name}/${quotation.legal_name}`;
}

/**
 * A quotation with a live `daymarket` ticker laid over it (spec 02 section 4: matched by legal_id and
 * currency_id; price, change, volume, turnover, high and low follow the ticker).
 */
export function withTicker(quotation: BoardQuotation, ticker: DaymarketPayload | undefined): BoardQuotation {
  if (ticker === undefined) return quotation;
  const live: BoardQuotation = { ...quotation };
  const pushed: Record<string, unknown> = { ...ticker };
  for (const field of DECIMAL_FIELDS) {
    const text = pushed[field];
    if (typeof text === 'string' && DECIMAL.test(text)) live[field] = text;
  }
  if (isPriceKind(pushed.price_kind)) {
    live.price_kind = pushed.price_kind;
  } else {
    // A push without the kind: the row's older price and kind would contradict its fresh figures.
    delete live.price_kind;
    delete live.price;
  }
  return live;
}

/** The tickers of a `daymarket` feed indexed by pair, for matching quotations. */
export function tickersByPair(tickers: Record<string, DaymarketPayload>): Map<string, DaymarketPayload> {
  const byPair = new Map<string, DaymarketPayload>();
  for (const ticker of Object.values(tickers))
    byPair.set(pairKey(ticker.legal_id, ticker.currency_id), ticker);
  return byPair;
}

/** Remembers a chosen pair the way the trading screens read it (spec 02 section 3, stored keys). */
export function storeChosenPair(quotation: BoardQuotation): void {
  writeStored('legal_id', String(quotation.legal_id));
  writeStored('currency_id', String(quotation.currency_id));
  writeStored('legal_name', quotation.legal_name);
  writeStored('currency_name', quotation.currency_name);
  writeStored('symbol', symbolOf(quotation));
}

// ---------------------------------------------------------------- bar history

/**
 * One bar of a chart as the screens read it (the contract's `ChartBar`): open time in epoch milliseconds,
 * the prices and the base volume as decimal text, and where the bar came from ('trades', or the price
 * source of backfilled history: 'simulated', 'binance').
 */
export type Bar = Pick<ChartBar, 'time' | 'open' | 'high' | 'low' | 'close' | 'volume'> &
  Partial<Pick<ChartBar, 'source'>>;

export interface BarQuery {
  symbol: string;
  period: string;
  fromMs: number;
  toMs: number;
}

/** Reads one bar; null when a field is missing or not a decimal string. */
export function readBar(value: unknown): Bar | null {
  if (!isRecord(value)) return null;
  const time = value.time;
  if (typeof time !== 'number' || !Number.isSafeInteger(time)) return null;
  const bar = {
    time,
    open: value.open,
    high: value.high,
    low: value.low,
    close: value.close,
    volume: value.volume,
  };
  const fields = [bar.open, bar.high, bar.low, bar.close, bar.volume];
  if (!fields.every((field) => typeof field === 'string' && DECIMAL.test(field))) return null;
  const source = value.source;
  return (typeof source === 'string' && source !== '' ? { ...bar, source } : bar) as Bar;
}

/**
 * GET /api/currency/new_timeshar, the one call outside the envelope: `{code: 1, data}` on success,
 * `{code: -1, msg}` on refusal (spec 03 section 1).
 */
export async function fetchBars(query: BarQuery, signal?: AbortSignal): Promise<Bar[]> {
  const { body } = await apiRaw('/currency/new_timeshar', {
    query: {
      symbol: query.symbol,
      period: query.period,
      from: Math.floor(query.fromMs / 1000),
      to: Math.ceil(query.toMs / 1000),
    },
    ...(signal ? { signal } : {}),
  });
  if (!isRecord(body)) throw badResponse();
  if (body.code !== 1) {
    const message =
      typeof body.msg === 'string' && body.msg !== '' ? body.msg : i18next.t('errors.badResponse');
    throw new ApiError('rejected', message, 200);
  }
  if (!Array.isArray(body.data)) throw badResponse();
  return body.data.map(readBar).filter((bar): bar is Bar => bar !== null);
}
