import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

// Server state goes through TanStack Query. An answer the server gave on purpose (an error envelope,
// not logged in) is final; only a failure to reach the server is worth another try.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) =>
          failureCount < 2 && error instanceof ApiError && error.kind === 'network',
      },
      mutations: { retry: false },
    },
  });
}
