import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { errorText } from '../../api/errors';
import { useApiQuery } from '../../hooks/use-api-query';
import { useLoadError } from '../../hooks/use-load-error';

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
  const { data, error, isFetching } = useApiQuery<Choice[]>(path, { enabled });
  const missing = error instanceof ApiError && error.status === 404;
  useLoadError(error, (err) => errorText(err, t), !missing);
  return useMemo(() => {
    if (error) return UNAVAILABLE;
    // Each opening reads the list again; until then it is not ready.
    if (!data || isFetching) return LOADING;
    return { items: data.map(({ id, name, color }) => ({ id, name, color })), status: 'ready' };
  }, [data, error, isFetching]);
}
