import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { PriceSourceReply } from '@fairex/shared/api/price.ts';
import { ApiError, api } from './api.ts';
import { i18next } from '../i18n/index.ts';

// Where the exchange's prices come from (GET /api/price/source): on a simulated source every page that
// shows a price and every proof says "Simulated prices (demo)" (docs/price-record.md, "Simulated prices").
// Read once and kept: the source changes only with a restart.

export type PriceSourceInfo = PriceSourceReply;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readPriceSource(message: unknown): PriceSourceInfo {
  if (isRecord(message)) {
    const { kind, sources, demo, orders_open: ordersOpen } = message;
    if (
      (kind === 'simulated' || kind === 'live') &&
      Array.isArray(sources) &&
      sources.every((name) => typeof name === 'string') &&
      typeof demo === 'boolean' &&
      typeof ordersOpen === 'boolean'
    )
      return { kind, sources: sources as string[], demo, orders_open: ordersOpen };
  }
  throw new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

export function usePriceSource(): UseQueryResult<PriceSourceInfo, Error> {
  return useQuery({
    queryKey: ['price', 'source'],
    queryFn: async ({ signal }) => readPriceSource(await api.get<unknown>('/price/source', undefined, signal)),
    staleTime: Infinity,
    retry: 1,
  });
}
