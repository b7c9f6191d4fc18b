import type { DaymarketPayload } from '@fairex/shared/socket-events.ts';
import { compareDecimals } from '../../format/index.ts';
import { pairKey, symbolOf, tickersByPair, withTicker, type BoardQuotation } from '../../data/market.ts';

// What the market board shows, as pure functions of the quotation list and the live tickers
// (spec 02 sections 2.9, 4 and 9).

/** The cards across the top, in this order; a coin without a listed USDT pair gets no card. */
export const FEATURED_BASES = ['BTC', 'ETH', 'XRP', 'DOGE', 'LINK'] as const;
export const BOARD_QUOTE = 'USDT';
/** Spec 02 section 9: prices to 4 decimals, high and low to 5. */
export const PRICE_DECIMALS = 4;
export const HIGH_LOW_DECIMALS = 5;

export interface BoardRow extends BoardQuotation {
  /** "BTC/USDT" */
  symbol: string;
  key: string;
}

/** Every displayed USDT pair with its live ticker laid over it, in the server's order. */
export function boardRows(
  quotations: readonly BoardQuotation[],
  tickers: Record<string, DaymarketPayload>,
): BoardRow[] {
  return createBoardRows()(quotations, tickers);
}

interface KeptRow {
  quotation: BoardQuotation;
  ticker: DaymarketPayload | undefined;
  row: BoardRow;
}

/**
 * boardRows that remembers its rows: a pair whose quotation and ticker are the very objects of the
 * previous call keeps its row object, so the memoised cards, table rows and ranking entries of pairs
 * that did not move are not rendered again when another pair's ticker arrives.
 */
export function createBoardRows(): (
  quotations: readonly BoardQuotation[],
  tickers: Record<string, DaymarketPayload>,
) => BoardRow[] {
  let previous = new Map<string, KeptRow>();
  return (quotations, tickers) => {
    const live = tickersByPair(tickers);
    const next = new Map<string, KeptRow>();
    const rows = quotations
      .filter((quotation) => quotation.legal_name === BOARD_QUOTE && quotation.is_display === 1)
      .map((quotation) => {
        const key = pairKey(quotation.legal_id, quotation.currency_id);
        const ticker = live.get(key);
        const kept = previous.get(key);
        const row =
          kept !== undefined && kept.quotation === quotation && kept.ticker === ticker
            ? kept.row
            : { ...withTicker(quotation, ticker), symbol: symbolOf(quotation), key };
        next.set(key, { quotation, ticker, row });
        return row;
      });
    previous = next;
    return rows;
  };
}

export function featuredRows(rows: readonly BoardRow[]): BoardRow[] {
  return FEATURED_BASES.flatMap((base) => rows.find((row) => row.currency_name === base) ?? []);
}

/** Highest first; a pair without the figure goes last, ties keep the server's order. */
function rankBy(rows: readonly BoardRow[], field: 'amount' | 'change'): BoardRow[] {
  return [...rows].sort((a, b) => compareDecimals(b[field], a[field]));
}

export function turnoverRanking(rows: readonly BoardRow[]): BoardRow[] {
  return rankBy(rows, 'amount');
}

export function gainRanking(rows: readonly BoardRow[]): BoardRow[] {
  return rankBy(rows, 'change');
}

/** Pairs whose base or symbol contains the query, ignoring case and a typed slash. */
export function filterRows(rows: readonly BoardRow[], query: string): BoardRow[] {
  const wanted = query.trim().toUpperCase().replace(/\s+/g, '');
  if (wanted === '') return [...rows];
  return rows.filter((row) => row.symbol.includes(wanted) || row.symbol.replace('/', '').includes(wanted));
}
