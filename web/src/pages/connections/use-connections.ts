import { useCallback, useEffect, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
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

const sessionOf = ({ status, qrcode, retries, number, updatedAt }: Connection): Omit<SessionState, 'id'> => ({
  status,
  qrcode,
  retries,
  number,
  updatedAt,
});
const byName = (a: Connection, b: Connection) => a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id;

/**
 * The company's connections, loaded once and kept live: company-{id}-whatsapp brings created,
 * edited and deleted connections, company-{id}-whatsappSession their status, QR code and retries.
 * Used by the connections page and by the menu badge. `quiet` leaves load failures unannounced
 * (the badge must not toast on every page).
 */
export function useConnections({ quiet = false }: { quiet?: boolean } = {}): Connections {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const companyId = user?.companyId;
  const [items, setItems] = useState<Connection[]>([]);
  const [loading, setLoading] = useState(true);

  const put = useCallback((connection: Connection, keepSession: boolean) => {
    setItems((current) => {
      const known = current.find((c) => c.id === connection.id);
      const session = keepSession && known ? sessionOf(known) : {};
      return [...current.filter((c) => c.id !== connection.id), { ...known, ...connection, ...session }].sort(byName);
    });
  }, []);
  // A save's answer may arrive after the session frames that followed it: the live session state wins.
  const upsert = useCallback((connection: Connection) => put(connection, true), [put]);

  const drop = useCallback((id: number) => setItems((current) => current.filter((c) => c.id !== id)), []);

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
      setItems((current) => current.map((c) => (c.id === session.id ? { ...c, ...session } : c)));
    });
    return () => {
      offConnections();
      offSessions();
    };
  }, [companyId, realtime, put, drop]);

  useEffect(() => {
    if (companyId === undefined) return;
    const controller = new AbortController();
    setLoading(true);
    api
      .get<Connection[]>('/whatsapp', undefined, { signal: controller.signal })
      .then((list) => {
        setItems([...list].sort(byName));
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        if (!quiet) void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [companyId, quiet, message, t]);

  return { items, loading, upsert, drop };
}
