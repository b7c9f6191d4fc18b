import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ApiError, api, apiRaw, readEnvelope } from './api.ts';
import { i18next } from '../i18n/index.ts';

// The spot calls of spec 01 section 7, typed. Prices, quantities and balances stay the decimal strings the
// server sent; the screen formats them with the market's precision and computes with bigint only.

/** The market's precision and limits, as /transaction/deal reports them with the book. */
export interface SpotMarketInfo {
  id: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  legal_name: string;
  currency_name: string;
  price_scale: number;
  number_scale: number;
  legal_scale: number;
  currency_scale: number;
  price_tick: string;
  number_step: string;
  min_number: string;
  min_total: string;
  /** Percent. */
  maker_fee: string;
  taker_fee: string;
}

export interface BookLevel {
  price: string;
  number: string;
  /** Running total of quantity from the best price outwards. */
  sum?: string;
}

export interface TradeDetail {
  id: number;
  create_time: string;
  time: number;
  price: string;
  number: string;
  /** The taker's side. */
  way: 'buy' | 'sell';
}

export interface SpotDeal {
  in: BookLevel[];
  out: BookLevel[];
  last_price: string | null;
  user_currency: string | null;
  user_legal: string | null;
  user_currency_lock: string | null;
  user_legal_lock: string | null;
  legal_name: string;
  currency_name: string;
  symbol: string;
  market: SpotMarketInfo;
  complete: TradeDetail[];
}

export interface OpenOrder {
  id: number;
  create_time: string;
  time: number;
  symbol: string;
  currency_name: string;
  legal_name: string;
  type: 'in' | 'out';
  price: string;
  total_number: string;
  complete_number: string;
  number: string;
  total_money: string;
}

export interface CompletedTrade {
  id: number;
  time: string;
  time_ms: number;
  symbol: string;
  currency_name: string;
  legal_name: string;
  number: string;
  price: string;
  total_money: string;
  in_fee: string;
  out_fee: string;
  type: 'in' | 'out';
  way: 1 | 2;
  role: 'maker' | 'taker';
}

export interface PagedList<T> {
  list: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

export interface PlacedOrder {
  id: number;
  status: 'resting' | 'filled' | 'cancelled';
  total_number: string;
  complete_number: string;
  number: string;
  duplicate: boolean;
}

export interface Pair {
  legalId: number;
  currencyId: number;
  legalName: string;
  currencyName: string;
}

export function pairSymbol(pair: Pair): string {
  return `${pair.currencyName}/${pair.legalName}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function badResponse(): ApiError {
  return new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

export async function fetchDeal(pair: Pair, signal?: AbortSignal): Promise<SpotDeal> {
  const message = await api.post<unknown>(
    '/transaction/deal',
    { legal_id: pair.legalId, currency_id: pair.currencyId },
    signal === undefined ? {} : { signal },
  );
  if (
    !isRecord(message) ||
    !Array.isArray(message.in) ||
    !Array.isArray(message.out) ||
    !isRecord(message.market)
  ) {
    throw badResponse();
  }
  return message as unknown as SpotDeal;
}

export const dealKey = (pair: Pair, loggedIn: boolean) =>
  ['spot', 'deal', pair.legalId, pair.currencyId, loggedIn] as const;

export function useDeal(pair: Pair, loggedIn: boolean): UseQueryResult<SpotDeal, Error> {
  return useQuery({
    queryKey: dealKey(pair, loggedIn),
    queryFn: ({ signal }) => fetchDeal(pair, signal),
    staleTime: 5_000,
  });
}

export interface PlaceOrderInput {
  pair: Pair;
  side: 'buy' | 'sell';
  /** 1 market, 2 limit (spec 01 section 4). */
  mode: 1 | 2;
  price: string;
  num: string;
}

/** Places an order; resolves with the server's message (already translated) and the order. */
export async function placeOrder(input: PlaceOrderInput): Promise<{ message: string; order: PlacedOrder }> {
  const body: Record<string, string | number> = {
    legal_id: input.pair.legalId,
    currency_id: input.pair.currencyId,
    num: input.num,
    mode: input.mode,
  };
  if (input.mode === 2) body.price = input.price;
  const { status, body: reply } = await apiRaw(
    input.side === 'buy' ? '/transaction/in' : '/transaction/out',
    {
      method: 'POST',
      body,
    },
  );
  const message = readEnvelope(reply, status);
  if (typeof message !== 'string' || !isRecord(reply) || !isRecord(reply.order)) throw badResponse();
  return { message, order: reply.order as unknown as PlacedOrder };
}

export async function revokeOrder(id: number, type: 'in' | 'out'): Promise<string> {
  const message = await api.post<unknown>('/transaction_del', { id, type });
  return typeof message === 'string' ? message : '';
}

export type OpenOrderSide = 'in' | 'out';

export async function fetchOpenOrders(
  side: OpenOrderSide,
  pair: Pair,
  signal?: AbortSignal,
): Promise<PagedList<OpenOrder>> {
  return api.post<PagedList<OpenOrder>>(
    side === 'in' ? '/transaction_in' : '/transaction_out',
    { page: 1, per_page: 100, legal_id: pair.legalId, currency_id: pair.currencyId },
    signal === undefined ? {} : { signal },
  );
}

export async function fetchCompleted(
  pair: Pair,
  page: number,
  signal?: AbortSignal,
): Promise<PagedList<CompletedTrade>> {
  return api.post<PagedList<CompletedTrade>>(
    '/transaction_complete',
    { page, legal_id: pair.legalId, currency_id: pair.currencyId },
    signal === undefined ? {} : { signal },
  );
}

export interface CurrencyDetail {
  name: string;
  desc: string;
}

/** GET /api/currency/detail?id: the currency introduction (name and description). */
export async function fetchCurrencyDetail(currencyId: number, signal?: AbortSignal): Promise<CurrencyDetail> {
  const message = await api.get<unknown>('/currency/detail', { id: currencyId }, signal);
  if (!isRecord(message) || typeof message.name !== 'string') throw badResponse();
  return { name: message.name, desc: typeof message.desc === 'string' ? message.desc : '' };
}
