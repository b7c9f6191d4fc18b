import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ActivityReply } from '@fairex/shared/api/site.ts';
import { api } from './api.ts';

// The exchange's recent activity as aggregate figures (GET /api/stats/activity): how many trades (and
// distinct traders), deposits and withdrawals the last hour saw, counted by the server from its records. Never one user's
// activity: the reply carries counts only, and this reader keeps nothing else.

/** A count, or `{ fewerThan }` when the server withheld it (more than zero, fewer than that many accounts). */
export type ActivityCount = number | { fewerThan: number } | null;

export interface ActivitySummary {
  tradesLastHour: ActivityCount;
  depositsLastHour: ActivityCount;
  withdrawalsLastHour: ActivityCount;
  tradersLastHour: ActivityCount;
}

export const ACTIVITY_REFRESH_MS = 30_000;

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * The figures of a reply; a field that is missing or not a count is left out (null), never guessed. A field
 * the server withheld below its minimum (null with `below_minimum`) becomes `{ fewerThan: minimum }`.
 */
export function readActivitySummary(message: unknown): ActivitySummary {
  const record = (
    typeof message === 'object' && message !== null && !Array.isArray(message) ? message : {}
  ) as Record<string, unknown>;
  const minimum = count(record.minimum_accounts);
  const below = record.below_minimum === true && minimum !== null && minimum > 0;
  const field = (name: keyof ActivityReply): ActivityCount => {
    const value = record[name];
    if (below && value === null) return { fewerThan: minimum };
    return count(value);
  };
  return {
    tradesLastHour: field('trades'),
    tradersLastHour: field('traders'),
    depositsLastHour: field('deposits'),
    withdrawalsLastHour: field('withdrawals'),
  };
}

/** The summary, asked for again every 30 s while the page is open. */
export function useActivitySummary(): UseQueryResult<ActivitySummary, Error> {
  return useQuery({
    queryKey: ['stats', 'activity'],
    queryFn: async ({ signal }) =>
      readActivitySummary(await api.get<unknown>('/stats/activity', undefined, signal)),
    refetchInterval: ACTIVITY_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: ACTIVITY_REFRESH_MS,
  });
}
