import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** Network failures (the server restarting, a dropped link) are worth a retry; an answer is not. */
const MAX_NETWORK_RETRIES = 2;

/**
 * The one cache of the app's data. Live frames keep it current and a socket reconnect refetches
 * it, so a focus change has nothing to add; an API answer (4xx, 5xx) is final, a network error is
 * tried again.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ApiError) && failures < MAX_NETWORK_RETRIES,
      },
      mutations: { retry: false },
    },
  });
}
