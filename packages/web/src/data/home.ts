import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ApiError, api } from './api.ts';
import { i18next } from '../i18n/index.ts';

// The home page's figures and the footer's activity feed (GET /api/stats/home, /api/stats/activity).
// Both are counted by the server from its database; nothing here is estimated or filled in.

export interface HomeFigures {
  users: number;
  trades24h: number;
  traders24h: number;
  markets: number;
  asOf: string;
}

export type ActivityKind = 'deposit' | 'withdrawal' | 'trade';

export interface Activity {
  kind: ActivityKind;
  account: string;
  /** Rounded by the server; a decimal string. */
  amount: string;
  currency: string;
  symbol: string | null;
  time: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

export function readHomeFigures(message: unknown): HomeFigures {
  if (isRecord(message)) {
    const users = count(message.users);
    const trades24h = count(message.trades_24h);
    const traders24h = count(message.traders_24h);
    const markets = count(message.markets);
    if (users !== null && trades24h !== null && traders24h !== null && markets !== null) {
      return {
        users,
        trades24h,
        traders24h,
        markets,
        asOf: typeof message.as_of === 'string' ? message.as_of : '',
      };
    }
  }
  throw new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

const KINDS: readonly ActivityKind[] = ['deposit', 'withdrawal', 'trade'];

export function readActivity(message: unknown): Activity[] {
  if (!isRecord(message) || !Array.isArray(message.list)) return [];
  return message.list.flatMap((entry): Activity[] => {
    if (!isRecord(entry)) return [];
    const { kind, account, amount, currency, symbol, time } = entry;
    if (!KINDS.includes(kind as ActivityKind)) return [];
    if (typeof account !== 'string' || typeof currency !== 'string' || typeof time !== 'string') return [];
    if (typeof amount !== 'string' || !/^\d+(?:\.\d+)?$/.test(amount)) return [];
    return [
      {
        kind: kind as ActivityKind,
        account,
        amount,
        currency,
        symbol: typeof symbol === 'string' ? symbol : null,
        time,
      },
    ];
  });
}

export function useHomeFigures(): UseQueryResult<HomeFigures, Error> {
  return useQuery({
    queryKey: ['stats', 'home'],
    queryFn: async ({ signal }) => readHomeFigures(await api.get<unknown>('/stats/home', undefined, signal)),
    staleTime: 30_000,
  });
}

export const ACTIVITY_REFRESH_MS = 30_000;

/** The latest real activity, asked for again every 30 s while the page is open. */
export function useActivityFeed(): UseQueryResult<Activity[], Error> {
  return useQuery({
    queryKey: ['stats', 'activity'],
    queryFn: async ({ signal }) => readActivity(await api.get<unknown>('/stats/activity', undefined, signal)),
    refetchInterval: ACTIVITY_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: ACTIVITY_REFRESH_MS,
  });
}
