import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { HomeFiguresReply } from '@fairex/shared/api/site.ts';
import { ApiError, api } from './api.ts';
import { i18next } from '../i18n/index.ts';

// The home page's figures (GET /api/stats/home; the footer's activity figures are in data/activity.ts).
// They are counted by the server from its database; nothing here is estimated or filled in. The reply's
// fields are the shared contract's (HomeFiguresReply), read one by one into the page's figures.

export interface HomeFigures {
  users: number;
  trades24h: number;
  traders24h: number;
  markets: number;
  asOf: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

export function readHomeFigures(message: unknown): HomeFigures {
  if (isRecord(message)) {
    const reply: { [K in keyof HomeFiguresReply]?: unknown } = message;
    const users = count(reply.users);
    const trades24h = count(reply.trades_24h);
    const traders24h = count(reply.traders_24h);
    const markets = count(reply.markets);
    if (users !== null && trades24h !== null && traders24h !== null && markets !== null) {
      return {
        users,
        trades24h,
        traders24h,
        markets,
        asOf: typeof reply.as_of === 'string' ? reply.as_of : '',
      };
    }
  }
  throw new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

export function useHomeFigures(): UseQueryResult<HomeFigures, Error> {
  return useQuery({
    queryKey: ['stats', 'home'],
    queryFn: async ({ signal }) => readHomeFigures(await api.get<unknown>('/stats/home', undefined, signal)),
    staleTime: 30_000,
  });
}
