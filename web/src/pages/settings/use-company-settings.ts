import { useCallback, useEffect, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { Setting } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';

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
  const [values, setValues] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<Setting[]>('/settings', undefined, { signal: controller.signal })
      .then((list) => {
        setValues(Object.fromEntries(list.map((s) => [s.key, s.value])));
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [generation, message, t]);

  useEffect(() => {
    if (companyId === undefined) return;
    return realtime.on(`company-${companyId}-settings`, (data) => {
      const frame = data as { action?: string; setting?: Setting };
      const setting = frame.setting;
      if (frame.action === 'update' && setting) setValues((current) => ({ ...current, [setting.key]: setting.value }));
    });
  }, [companyId, realtime]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  const update = useCallback(
    async (key: string, value: string) => {
      setSaving(key);
      try {
        const saved = await api.put<Setting>(`/settings/${key}`, { value });
        setValues((current) => ({ ...current, [saved.key]: saved.value }));
        void message.success(t('options.updated'));
      } catch (err) {
        void message.error(errorText(err, t));
      } finally {
        setSaving(null);
      }
    },
    [message, t],
  );

  return { values, loading, saving, reload, update };
}
