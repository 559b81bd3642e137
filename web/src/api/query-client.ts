import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** Network failures (the server restarting, a dropped link) are worth a retry; an answer is not. */
const MAX_NETWORK_RETRIES = 2;

/**
 * The one cache of the app's data. Live frames keep what is on screen current and a socket
 * reconnect refetches it, so a focus change has nothing to add. Data nobody shows hears no frames
 * and goes stale unseen: it is dropped at once (gcTime 0) and read anew when shown again. An API
 * answer (4xx, 5xx) is final; a network error is tried again.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        gcTime: 0,
        retry: (failures, error) => !(error instanceof ApiError) && failures < MAX_NETWORK_RETRIES,
      },
      mutations: { retry: false },
    },
  });
}
