import { useTranslation } from 'react-i18next';
import { useLiveRecords } from '../../hooks/use-live-records';

export interface Help {
  id: number;
  title: string;
  description: string;
  /** YouTube video code. */
  video: string;
  link: string;
}

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
