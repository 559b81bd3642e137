import { useEffect, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client';
import { errorText } from '../../api/errors';

export interface Choice {
  id: number;
  name: string;
  color?: string;
}

export interface Choices {
  items: Choice[];
  /** 'unavailable' when the list cannot be had (a module not installed answers 404). */
  status: 'loading' | 'ready' | 'unavailable';
}

const LOADING: Choices = { items: [], status: 'loading' };
const UNAVAILABLE: Choices = { items: [], status: 'unavailable' };

/**
 * One list the user modal picks from (queues, connections), loaded when `enabled` turns on.
 * A 404 means the feature does not exist on this server yet: the list stays empty and disabled,
 * and the modal keeps working; other failures are shown once.
 */
export function useChoices(path: string, enabled: boolean): Choices {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [choices, setChoices] = useState<Choices>(LOADING);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setChoices(LOADING);
    api
      .get<Choice[]>(path, undefined, { signal: controller.signal })
      .then((items) => setChoices({ items: items.map(({ id, name, color }) => ({ id, name, color })), status: 'ready' }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setChoices(UNAVAILABLE);
        if (!(err instanceof ApiError && err.status === 404)) void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [path, enabled, message, t]);

  return choices;
}
