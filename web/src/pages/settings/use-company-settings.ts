import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import type { Setting, SettingUpdateBody } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';
import { useLoadError } from '../../hooks/use-load-error';

export interface CompanySettings {
  /** key → value, as GET /api/settings answers them. */
  values: Record<string, string>;
  /** True until the first answer arrives. */
  loading: boolean;
  /** The key being written, or null. */
  saving: string | null;
  reload(): void;
  /** Writes one setting at once and confirms with the spec's toast. */
  update(key: string, value: string): Promise<void>;
}

/** The company's settings, kept current with the changes other admins make. */
export function useCompanySettings(): CompanySettings {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const companyId = user?.companyId;
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState<string | null>(null);
  const query = useQuery({
    queryKey: queryKeys.records('/settings'),
    queryFn: ({ signal }) => api.get<Setting[]>('/settings', undefined, { signal }),
  });
  useLoadError(query.error, (err) => errorText(err, t));
  const values = useMemo(() => Object.fromEntries((query.data ?? []).map((s) => [s.key, s.value])), [query.data]);

  /** Puts a saved setting in place of the one listed. */
  const put = useCallback(
    (setting: Setting) =>
      queryClient.setQueryData<Setting[]>(queryKeys.records('/settings'), (list) =>
        list ? [...list.filter((s) => s.key !== setting.key), setting] : list,
      ),
    [queryClient],
  );

  useEffect(() => {
    if (companyId === undefined) return;
    return realtime.on(`company-${companyId}-settings`, (data) => {
      const frame = data as { action?: string; setting?: Setting };
      if (frame.action === 'update' && frame.setting) put(frame.setting);
    });
  }, [companyId, realtime, put]);

  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);

  const update = useCallback(
    async (key: string, value: string) => {
      setSaving(key);
      try {
        put(await api.put<Setting>(`/settings/${key}`, { value } satisfies SettingUpdateBody));
        void message.success(t('options.updated'));
      } catch (err) {
        void message.error(errorText(err, t));
      } finally {
        setSaving(null);
      }
    },
    [message, t, put],
  );

  return { values, loading: query.isPending, saving, reload, update };
}
