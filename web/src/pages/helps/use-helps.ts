import { useEffect, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useAuth } from '../../auth/auth-provider';

export interface Help {
  id: number;
  title: string;
  description: string;
  /** YouTube video code. */
  video: string;
  link: string;
}

type HelpFrame = { action: 'create' | 'update'; help: Help } | { action: 'delete'; helpId: number };

/** Every help (GET /api/helps, ordered by id), kept live by the global 'helps' channel. */
export function useHelps(): { helps: Help[]; loading: boolean } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { realtime } = useAuth();
  const [helps, setHelps] = useState<Help[]>([]);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<Help[]>('/helps', undefined, { signal: controller.signal })
      .then((list) => {
        setHelps(list);
        setLoading(false);
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        setLoading(false);
        void message.error(t('toasts.loadFailed'));
      });
    return () => controller.abort();
  }, [message, t]);

  useEffect(
    () =>
      realtime.on('helps', (data) => {
        const frame = data as HelpFrame;
        if (frame.action === 'delete') {
          setHelps((current) => current.filter((h) => h.id !== frame.helpId));
          return;
        }
        if (frame.action !== 'create' && frame.action !== 'update') return;
        setHelps((current) => [...current.filter((h) => h.id !== frame.help.id), frame.help].sort((a, b) => a.id - b.id));
      }),
    [realtime],
  );

  return { helps, loading };
}
