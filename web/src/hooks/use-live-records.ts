import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { errorText } from '../api/errors';
import { queryKeys } from '../api/query-keys';
import { useAuth } from '../auth/auth-provider';
import { useLoadError } from './use-load-error';

export interface LiveRecordsOptions<T> {
  /** API path answering the whole list, e.g. '/plans/all'. */
  path: string;
  /** Realtime channel, e.g. 'plan'; frames are { action, <entityKey>, <entityKey>Id }. */
  channel: string;
  entityKey: string;
  /** The key of the list when the path answers an object (`{ prompts: [...] }` → 'prompts'); the answer itself otherwise. */
  listKey?: string;
  compare: (a: T, b: T) => number;
  /** The toast of a failed load; the API's error text by default. */
  failureText?: (err: unknown) => string;
}

export interface LiveRecords<T> {
  items: T[];
  loading: boolean;
  /** Puts a record the caller just saved into the list (the live event may come later, or not at all). */
  upsert(record: T): void;
  drop(id: number): void;
}

const NONE: never[] = [];

/**
 * A short list (queues, companies, plans, helps) loaded whole, kept in order, and merged with the
 * create/update/delete events others cause. Pages showing the same path share one cached list.
 */
export function useLiveRecords<T extends { id: number }>(options: LiveRecordsOptions<T>): LiveRecords<T> {
  const { path, channel, entityKey, listKey } = options;
  const { t } = useTranslation('settings');
  const { realtime } = useAuth();
  const queryClient = useQueryClient();
  const optionsRef = useRef(options);
  optionsRef.current = options;
  // The cache keeps the answer as it came (other hooks may read the same path); the order is this list's.
  const sorted = useCallback((items: T[]) => [...items].sort(optionsRef.current.compare), []);
  const query = useQuery({
    queryKey: queryKeys.records(path),
    queryFn: async ({ signal }) => {
      const answer = await api.get<T[] | Record<string, T[]>>(path, undefined, { signal });
      return listKey ? (answer as Record<string, T[]>)[listKey]! : (answer as T[]);
    },
    select: sorted,
  });
  useLoadError(query.error, (err) => optionsRef.current.failureText?.(err) ?? errorText(err, t));

  const change = useCallback(
    (apply: (items: T[]) => T[]) => queryClient.setQueryData<T[]>(queryKeys.records(path), (items) => (items ? apply(items) : items)),
    [queryClient, path],
  );
  const upsert = useCallback((record: T) => change((items) => [...items.filter((i) => i.id !== record.id), record]), [change]);
  const drop = useCallback((id: number) => change((items) => items.filter((i) => i.id !== id)), [change]);

  useEffect(
    () =>
      realtime.on(channel, (data) => {
        const frame = data as Record<string, unknown> & { action?: string };
        const record = frame[entityKey] as T | undefined;
        if (frame.action === 'delete') drop(Number(frame[`${entityKey}Id`] ?? record?.id));
        else if ((frame.action === 'create' || frame.action === 'update') && record) upsert(record);
      }),
    [realtime, channel, entityKey, upsert, drop],
  );

  return { items: query.data ?? NONE, loading: query.isPending, upsert, drop };
}
