import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api, type Query } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useLoadError } from './use-load-error';

export interface ApiQueryOptions {
  query?: Query;
  /** While false nothing loads (a closed modal, a choice not offered). */
  enabled?: boolean;
  /** A new query keeps the last answer on screen until its own is in (a report, a month). */
  keepPrevious?: boolean;
  /** The toast of a failed load; without it a failure stays quiet (the caller shows it otherwise). */
  failureText?: (err: unknown) => string;
}

/** What GET `path` answers, in the cache under queryKeys.records: read again after a reconnect. */
export function useApiQuery<T>(path: string, { query, enabled = true, keepPrevious = false, failureText }: ApiQueryOptions = {}): UseQueryResult<T> {
  const result = useQuery({
    queryKey: queryKeys.records(path, query),
    queryFn: ({ signal }) => api.get<T>(path, query, { signal }),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
  useLoadError(result.error, (err) => failureText?.(err) ?? '', failureText !== undefined);
  return result;
}
