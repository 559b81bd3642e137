import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { useApiQuery } from '../../hooks/use-api-query';

/** What to ask for: a new object asks again, even with the same query (the Filtrar button). */
export interface ReportRequest {
  query: Record<string, string | number>;
}

export interface Report<T> {
  data: T | null;
  loading: boolean;
  failed: boolean;
}

const sameQuery = (a: ReportRequest, b: ReportRequest) => JSON.stringify(a.query) === JSON.stringify(b.query);

/**
 * One report of the dashboard API, fetched for each request; the previous figures stay on screen
 * while the next ones load, and a failure is told in a toast.
 */
export function useReport<T>(path: string, request: ReportRequest): Report<T> {
  const { t } = useTranslation();
  const report = useApiQuery<T>(path, { query: request.query, keepPrevious: true, failureText: (err) => errorText(err, t) });
  const asked = useRef(request);
  const { refetch } = report;

  // A new query loads by itself; the same query asked again is read again.
  useEffect(() => {
    if (asked.current === request) return;
    const again = sameQuery(asked.current, request);
    asked.current = request;
    if (again) void refetch();
  }, [request, refetch]);

  return { data: report.data ?? null, loading: report.isFetching, failed: report.isError };
}
