import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import { useAuth } from '../../auth/auth-provider';
import { useLoadError } from '../../hooks/use-load-error';
import type { Connection, SessionState } from './connections.types';

export interface Connections {
  items: Connection[];
  loading: boolean;
  /** Puts a connection the caller just saved into the list (its live frame may arrive later). */
  upsert(connection: Connection): void;
  /** Takes a connection the caller just deleted out of the list. */
  drop(id: number): void;
}

type ConnectionFrame = { action?: string; whatsapp?: Connection; whatsappId?: number };
type SessionFrame = { action?: string; session?: SessionState };

const sessionOf = ({ status, qrcode, retries, number, updatedAt, node }: Connection): Omit<SessionState, 'id'> => ({
  status,
  qrcode,
  retries,
  number,
  updatedAt,
  node,
});
const byName = (a: Connection, b: Connection) => a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id;
const sortedByName = (items: Connection[]) => [...items].sort(byName);

const NONE: Connection[] = [];

/**
 * The company's connections, loaded once and kept live: company-{id}-whatsapp brings created,
 * edited and deleted connections, company-{id}-whatsappSession their status, QR code and retries.
 * Used by the connections page and by the menu badge (one cache for both). `quiet` leaves load
 * failures unannounced (the badge must not toast on every page).
 */
export function useConnections({ quiet = false }: { quiet?: boolean } = {}): Connections {
  const { t } = useTranslation();
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const companyId = user?.companyId;
  const query = useQuery({
    queryKey: queryKeys.records('/whatsapp'),
    queryFn: ({ signal }) => api.get<Connection[]>('/whatsapp', undefined, { signal }),
    select: sortedByName,
    enabled: companyId !== undefined,
  });
  useLoadError(query.error, (err) => errorText(err, t), !quiet);

  const change = useCallback(
    (apply: (items: Connection[]) => Connection[]) =>
      queryClient.setQueryData<Connection[]>(queryKeys.records('/whatsapp'), (items) => (items ? apply(items) : items)),
    [queryClient],
  );
  const put = useCallback(
    (connection: Connection, keepSession: boolean) =>
      change((items) => {
        const known = items.find((c) => c.id === connection.id);
        const session = keepSession && known ? sessionOf(known) : {};
        return [...items.filter((c) => c.id !== connection.id), { ...known, ...connection, ...session }];
      }),
    [change],
  );
  // A save's answer may arrive after the session frames that followed it: the live session state wins.
  const upsert = useCallback((connection: Connection) => put(connection, true), [put]);

  const drop = useCallback((id: number) => change((items) => items.filter((c) => c.id !== id)), [change]);

  useEffect(() => {
    if (companyId === undefined) return;
    const offConnections = realtime.on(`company-${companyId}-whatsapp`, (data) => {
      const frame = data as ConnectionFrame;
      if (frame.action === 'delete') drop(Number(frame.whatsappId));
      else if (frame.action === 'update' && frame.whatsapp) put(frame.whatsapp, false);
    });
    const offSessions = realtime.on(`company-${companyId}-whatsappSession`, (data) => {
      const { action, session } = data as SessionFrame;
      if (action !== 'update' || !session) return;
      change((items) => items.map((c) => (c.id === session.id ? { ...c, ...session } : c)));
    });
    return () => {
      offConnections();
      offSessions();
    };
  }, [companyId, realtime, put, drop, change]);

  return { items: query.data ?? NONE, loading: query.isPending, upsert, drop };
}
