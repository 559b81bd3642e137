import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';

export interface LiveRecordsOptions<T> {
  /** API path answering the whole list, e.g. '/plans/all'. */
  path: string;
  /** Realtime channel, e.g. 'plan'; frames are { action, <entityKey>, <entityKey>Id }. */
  channel: string;
  entityKey: string;
  compare: (a: T, b: T) => number;
}

export interface LiveRecords<T> {
  items: T[];
  loading: boolean;
  /** Puts a record the caller just saved into the list (the live event may come later, or not at all). */
  upsert(record: T): void;
  drop(id: number): void;
}

/**
 * A short platform-wide list (companies, plans, helps) loaded whole, kept in order, and merged with
 * the create/update/delete events other super users cause.
 */
export function useLiveRecords<T extends { id: number }>(options: LiveRecordsOptions<T>): LiveRecords<T> {
  const { path, channel, entityKey } = options;
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const { realtime } = useAuth();
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const compareRef = useRef(options.compare);
  compareRef.current = options.compare;

  const upsert = useCallback((record: T) => {
    setItems((current) => [...current.filter((i) => i.id !== record.id), record].sort(compareRef.current));
  }, []);
  const drop = useCallback((id: number) => setItems((current) => current.filter((i) => i.id !== id)), []);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    api
      .get<T[]>(path, undefined, { signal: controller.signal })
      .then((list) => {
        setItems([...list].sort(compareRef.current));
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [path, message, t]);

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

  return { items, loading, upsert, drop };
}
