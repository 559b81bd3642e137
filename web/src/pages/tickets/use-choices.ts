import { useEffect, useMemo, useRef, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import { isAdminUser } from './ticket-rules';

export interface Choice {
  id: number;
  name: string;
  color?: string;
}

/**
 * A list the panel picks from (queues, tags, users, connections), loaded once `enabled` turns on;
 * `ready` tells an empty list from one still loading. `pick` finds the records in the answer.
 */
export function useChoices(path: string, enabled: boolean, pick: (answer: unknown) => Choice[] = (a) => a as Choice[]) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [state, setState] = useState<{ items: Choice[]; ready: boolean }>({ items: [], ready: false });
  const pickRef = useRef(pick);
  pickRef.current = pick;

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    api
      .get<unknown>(path, undefined, { signal: controller.signal })
      .then((answer) => {
        const items = pickRef.current(answer).map(({ id, name, color }) => ({ id, name, color }));
        setState({ items, ready: true });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setState({ items: [], ready: true });
        void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [path, enabled, message, t]);

  return state;
}

/** The queues a user may pick: every queue of the company for admins, their own for everyone else. */
export function useQueueChoices(enabled = true): { items: Choice[]; ready: boolean } {
  const { user } = useAuth();
  const admin = user !== null && isAdminUser(user);
  const company = useChoices('/queue', enabled && admin);
  const own = useMemo(() => (user?.queues ?? []).map(({ id, name, color }) => ({ id, name, color })), [user?.queues]);
  return admin ? company : { items: own, ready: true };
}
