import { useEffect, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';

/** What to ask for: a new object asks again, even with the same query (the Filtrar button). */
export interface ReportRequest {
  query: Record<string, string | number>;
}

export interface Report<T> {
  data: T | null;
  loading: boolean;
  failed: boolean;
}

/**
 * One report of the dashboard API, fetched for each request; the previous figures stay on screen
 * while the next ones load, and a failure is told in a toast.
 */
export function useReport<T>(path: string, request: ReportRequest): Report<T> {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [report, setReport] = useState<Report<T>>({ data: null, loading: true, failed: false });

  useEffect(() => {
    const controller = new AbortController();
    setReport((current) => ({ ...current, loading: true }));
    api
      .get<T>(path, request.query, { signal: controller.signal })
      .then((data) => setReport({ data, loading: false, failed: false }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setReport((current) => ({ ...current, loading: false, failed: true }));
        void message.error(errorText(err, t));
      });
    return () => controller.abort();
  }, [path, request, message, t]);

  return report;
}
