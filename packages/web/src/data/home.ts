import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { HomeFiguresReply } from '@fairex/shared/api/site.ts';
import { ApiError, api } from './api.ts';
import { i18next } from '../i18n/index.ts';

// The home page's figures (GET /api/stats/home; the footer's activity figures are in data/activity.ts).
// They are counted by the server from its database; nothing here is estimated or filled in. The reply's
// fields are the shared contract's (HomeFiguresReply), read one by one into the page's figures. A count
// the server withheld (counted over fewer than `minimum` accounts, `below_minimum`) is null here, and the
// page says "fewer than 20" in its place.

export interface HomeFigures {
  users: number | null;
  trades24h: number | null;
  traders24h: number | null;
  markets: number;
  /** The least number of accounts behind an exact figure (the server's PUBLIC_MINIMUM_ACCOUNTS). */
  minimum: number;
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
    const below = reply.below_minimum === true;
    const minimum = count(reply.minimum_accounts);
    // A withheld count is null only when the server says so; anything else that is no count is a bad reply.
    const withheld = (value: unknown): value is null => below && value === null;
    const figures = [reply.users, reply.trades_24h, reply.traders_24h] as const;
    const markets = count(reply.markets);
    if (
      markets !== null &&
      minimum !== null &&
      figures.every((value) => count(value) !== null || withheld(value))
    ) {
      return {
        users: count(reply.users),
        trades24h: count(reply.trades_24h),
        traders24h: count(reply.traders_24h),
        markets,
        minimum,
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
