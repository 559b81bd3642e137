import { useTranslation } from 'react-i18next';
import type { Help } from '../../api/types';
import { useLiveRecords } from '../../hooks/use-live-records';

export type { Help };

const byId = (a: Help, b: Help) => a.id - b.id;

/** Every help (GET /api/helps, ordered by id), kept live by the global 'helps' channel. */
export function useHelps(): { helps: Help[]; loading: boolean } {
  const { t } = useTranslation();
  const { items, loading } = useLiveRecords<Help>({
    path: '/helps',
    channel: 'helps',
    entityKey: 'help',
    compare: byId,
    failureText: () => t('toasts.loadFailed'),
  });
  return { helps: items, loading };
}
