import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type {
  LeverBatchCloseReply,
  LeverChangeReply,
  LeverDealAllReply,
  LeverDealReply,
  LeverLossShareReply,
  LeverStatus,
  LeverSubmitReply,
  LeverTradeRow,
} from '@fairex/shared/api/lever.ts';
import type { Paged } from '@fairex/shared/envelope.ts';
import { api } from './api.ts';
import type { Pair } from './spot.ts';

// The leverage calls (docs/lever-calls.md), typed with the shared contract (@fairex/shared/api/lever.ts).
// Amounts and prices stay the decimal strings the server sent; the screens compute with bigint only
// (features/lever/lever-math.ts).

export type {
  LeverDealAllReply,
  LeverDealReply,
  LeverLossShareReply,
  LeverRisk,
  LeverStatus,
  LeverTradeRow,
} from '@fairex/shared/api/lever.ts';

export const leverDealKey = (pair: Pair, loggedIn: boolean) =>
  ['lever', 'deal', pair.legalId, pair.currencyId, loggedIn] as const;

export function fetchLeverDeal(pair: Pair, signal?: AbortSignal): Promise<LeverDealReply> {
  return api.post<LeverDealReply>(
    '/lever/deal',
    { legal_id: pair.legalId, currency_id: pair.currencyId },
    signal === undefined ? {} : { signal },
  );
}

export function useLeverDeal(pair: Pair, loggedIn: boolean): UseQueryResult<LeverDealReply, Error> {
  return useQuery({
    queryKey: leverDealKey(pair, loggedIn),
    queryFn: ({ signal }) => fetchLeverDeal(pair, signal),
    staleTime: 5_000,
    // No polling: profits and the risk rate move with the mark, and the server pushes `lever_trade` to every
    // holder of a pair whose mark moved (at most 4 a second); the pages refetch on it and on a reconnect.
  });
}

export function fetchLeverDealAll(legalId: number | null, signal?: AbortSignal): Promise<LeverDealAllReply> {
  return api.post<LeverDealAllReply>(
    '/lever/dealall',
    legalId === null ? {} : { legal_id: legalId },
    signal === undefined ? {} : { signal },
  );
}

export const leverTradesKey = (status: LeverStatus, pair: Pair | null, page: number) =>
  ['lever', 'my_trade', status, pair?.legalId ?? 0, pair?.currencyId ?? 0, page] as const;

export function fetchLeverTrades(
  status: LeverStatus,
  pair: Pair | null,
  page: number,
  signal?: AbortSignal,
): Promise<Paged<LeverTradeRow>> {
  return api.post<Paged<LeverTradeRow>>(
    '/lever/my_trade',
    {
      status,
      page,
      ...(pair === null ? {} : { legal_id: pair.legalId, currency_id: pair.currencyId }),
    },
    signal === undefined ? {} : { signal },
  );
}

export function useLeverTrades(
  status: LeverStatus,
  pair: Pair | null,
  page: number,
  enabled: boolean,
): UseQueryResult<Paged<LeverTradeRow>, Error> {
  return useQuery({
    queryKey: leverTradesKey(status, pair, page),
    queryFn: ({ signal }) => fetchLeverTrades(status, pair, page, signal),
    enabled,
  });
}

export interface LeverSubmitBody {
  legal_id: number;
  currency_id: number;
  multiple: number;
  share: number;
  type: 1 | 2;
  status: 0 | 1;
  target_price?: string;
}

export function submitLever(body: LeverSubmitBody): Promise<LeverSubmitReply> {
  return api.post<LeverSubmitReply>('/lever/submit', { ...body });
}

export function closeLever(id: number): Promise<LeverChangeReply> {
  return api.post<LeverChangeReply>('/lever/close', { id });
}

export function cancelLever(id: number): Promise<LeverChangeReply> {
  return api.post<LeverChangeReply>('/lever/cancel', { id });
}

export function setLeverStops(
  id: number,
  targetProfitPrice: string,
  stopLossPrice: string,
): Promise<LeverChangeReply> {
  return api.post<LeverChangeReply>('/lever/setstop', {
    id,
    target_profit_price: targetProfitPrice,
    stop_loss_price: stopLossPrice,
  });
}

export function batchCloseLever(type: 0 | 1 | 2): Promise<LeverBatchCloseReply> {
  return api.post<LeverBatchCloseReply>('/lever/batch_close', { type });
}

export function useLeverLossShare(): UseQueryResult<LeverLossShareReply, Error> {
  return useQuery({
    queryKey: ['lever', 'loss_share'],
    queryFn: ({ signal }) => api.get<LeverLossShareReply>('/lever/loss_share', { days: 90 }, signal),
    staleTime: 60_000,
  });
}
