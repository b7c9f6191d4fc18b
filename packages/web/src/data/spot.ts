import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ApiError, api, apiRaw, readEnvelope } from './api.ts';
import { i18next } from '../i18n/index.ts';
import type {
  CompletedTrade,
  OpenOrder,
  PagedList,
  PlacedOrder,
  SpotDeal,
} from '@fairex/shared/api/spot.ts';
import type { CurrencyDetail } from '@fairex/shared/api/market.ts';

// The spot calls of spec 01 section 7, typed with the shared contract (@fairex/shared/api/spot.ts). Prices,
// quantities and balances stay the decimal strings the server sent; the screen formats them with the market's
// precision and computes with bigint only.

export type {
  BookLevel,
  CompletedTrade,
  OpenOrder,
  PagedList,
  PlacedOrder,
  SpotDeal,
  SpotMarketInfo,
  TradeDetail,
} from '@fairex/shared/api/spot.ts';

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
  if (!isSpotDeal(message)) throw badResponse();
  return message;
}

/** The parts of the deal answer the page cannot draw without: both book sides and the market's settings. */
function isSpotDeal(message: unknown): message is SpotDeal {
  return (
    isRecord(message) && Array.isArray(message.in) && Array.isArray(message.out) && isRecord(message.market)
  );
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
  /** Limit orders only: gtc (the default), ioc, fok or post_only. */
  timeInForce?: 'gtc' | 'ioc' | 'fok' | 'post_only' | undefined;
  /** A stop-limit order's stop price (decimal text); limit, gtc only. */
  stopPrice?: string | undefined;
}

/** Places an order; resolves with the server's message (already translated) and the order. */
export async function placeOrder(input: PlaceOrderInput): Promise<{ message: string; order: PlacedOrder }> {
  const body: Record<string, string | number> = {
    legal_id: input.pair.legalId,
    currency_id: input.pair.currencyId,
    num: input.num,
    mode: input.mode,
  };
  if (input.mode === 2) {
    body.price = input.price;
    if (input.timeInForce !== undefined && input.timeInForce !== 'gtc') body.time_in_force = input.timeInForce;
    if (input.stopPrice !== undefined) body.stop_price = input.stopPrice;
  }
  const { status, body: reply } = await apiRaw(
    input.side === 'buy' ? '/transaction/in' : '/transaction/out',
    {
      method: 'POST',
      body,
    },
  );
  const message = readEnvelope(reply, status);
  if (typeof message !== 'string' || !carriesOrder(reply)) throw badResponse();
  return { message, order: reply.order };
}

/** A placement's envelope carries the order beside the message. */
function carriesOrder(reply: unknown): reply is { order: PlacedOrder } {
  return isRecord(reply) && isRecord(reply.order);
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

export type { CurrencyDetail };

/** GET /api/currency/detail?id: the currency introduction (name and description). */
export async function fetchCurrencyDetail(currencyId: number, signal?: AbortSignal): Promise<CurrencyDetail> {
  const message = await api.get<CurrencyDetail | null>('/currency/detail', { id: currencyId }, signal);
  if (!isRecord(message) || typeof message.name !== 'string') throw badResponse();
  return message;
}
