import { ApiError, api, apiRaw, readEnvelope } from './api.ts';
import { i18next } from '../i18n/index.ts';
import type {
  CancelAllReply,
  MarketOrderEstimate,
  PagedList,
  SpotHistoryOrderRow,
  SpotOpenOrderRow,
} from '@fairex/shared/api/spot.ts';

// The orders page across all pairs and the market-order estimate (issue 21), typed with the shared contract:
// GET /api/orders/open, GET /api/orders/history, POST /api/orders/cancel_all, GET /api/transaction/estimate.
// Amounts stay the decimal strings the server sent.

export type {
  CancelAllReply,
  MarketOrderEstimate,
  SpotCancelReason,
  SpotHistoryOrderRow,
  SpotOpenOrderRow,
  SpotOrderStatus,
  SpotTimeInForce,
} from '@fairex/shared/api/spot.ts';

export type HistoryStatusFilter = 'filled' | 'partially_filled_cancelled' | 'cancelled';

export interface OrderFilters {
  /** "BTC/USDT"; absent for every pair. */
  symbol?: string | undefined;
  side?: 'buy' | 'sell' | undefined;
  /** Milliseconds since the epoch, inclusive, on the creation time. */
  startMs?: number | undefined;
  endMs?: number | undefined;
  page: number;
  perPage: number;
}

export interface HistoryFilters extends OrderFilters {
  status?: HistoryStatusFilter | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function badResponse(): ApiError {
  return new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

function filterQuery(filters: OrderFilters): Record<string, string | number | undefined> {
  return {
    symbol: filters.symbol,
    side: filters.side,
    start_time: filters.startMs,
    end_time: filters.endMs,
    page: filters.page,
    per_page: filters.perPage,
  };
}

function isPage(message: unknown): message is PagedList<unknown> {
  return isRecord(message) && Array.isArray(message.list) && typeof message.total === 'number';
}

export async function fetchAllOpenOrders(
  filters: OrderFilters,
  signal?: AbortSignal,
): Promise<PagedList<SpotOpenOrderRow>> {
  const message = await api.get<unknown>('/orders/open', filterQuery(filters), signal);
  if (!isPage(message)) throw badResponse();
  return message as PagedList<SpotOpenOrderRow>;
}

export async function fetchOrderHistory(
  filters: HistoryFilters,
  signal?: AbortSignal,
): Promise<PagedList<SpotHistoryOrderRow>> {
  const message = await api.get<unknown>(
    '/orders/history',
    { ...filterQuery(filters), status: filters.status },
    signal,
  );
  if (!isPage(message)) throw badResponse();
  return message as PagedList<SpotHistoryOrderRow>;
}

/** Cancels every open order of one pair (its symbol) or everywhere (null); resolves with the message and count. */
export async function cancelAllOrders(symbol: string | null): Promise<{ message: string; count: number }> {
  const { status, body } = await apiRaw('/orders/cancel_all', {
    method: 'POST',
    body: symbol === null ? {} : { symbol },
  });
  const message = readEnvelope(body, status);
  const reply = body as Partial<CancelAllReply>;
  if (typeof message !== 'string' || !isRecord(reply.orders) || typeof reply.orders.count !== 'number')
    throw badResponse();
  return { message, count: reply.orders.count };
}

export interface EstimateInput {
  legalId: number;
  currencyId: number;
  side: 'buy' | 'sell';
  /** Decimal text: the quantity (a sell, or a buy of a set quantity). */
  num?: string | undefined;
  /** Decimal text: the quote a buy may spend (absent: the signed-in user's available balance). */
  total?: string | undefined;
}

export async function fetchMarketEstimate(
  input: EstimateInput,
  signal?: AbortSignal,
): Promise<MarketOrderEstimate> {
  const message = await api.get<unknown>(
    '/transaction/estimate',
    {
      legal_id: input.legalId,
      currency_id: input.currencyId,
      side: input.side,
      num: input.num,
      total: input.total,
    },
    signal,
  );
  if (!isRecord(message) || typeof message.total !== 'string' || typeof message.complete !== 'boolean')
    throw badResponse();
  return message as unknown as MarketOrderEstimate;
}
