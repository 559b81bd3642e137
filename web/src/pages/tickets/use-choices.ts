import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import { useApiQuery } from '../../hooks/use-api-query';
import { isAdminUser } from './ticket-rules';

const NONE: Choice[] = [];

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
  const { data, isPending, isError } = useApiQuery<unknown>(path, { enabled, failureText: (err) => errorText(err, t) });
  const pickRef = useRef(pick);
  pickRef.current = pick;
  const items = useMemo(() => (data === undefined ? NONE : pickRef.current(data).map(({ id, name, color }) => ({ id, name, color }))), [data]);
  return { items: isError ? NONE : items, ready: !isPending || isError };
}

/** The queues a user may pick: every queue of the company for admins, their own for everyone else. */
export function useQueueChoices(enabled = true): { items: Choice[]; ready: boolean } {
  const { user } = useAuth();
  const admin = user !== null && isAdminUser(user);
  const company = useChoices('/queue', enabled && admin);
  const own = useMemo(() => (user?.queues ?? []).map(({ id, name, color }) => ({ id, name, color })), [user?.queues]);
  return admin ? company : { items: own, ready: true };
}
