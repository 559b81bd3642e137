import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Card, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../i18n';
import { useCompanyClock } from '../../layout/use-company-clock';
import { AttendantsTable } from './attendants-table';
import { CounterCards } from './counter-cards';
import { DashboardFilters, DEFAULT_DAYS } from './dashboard-filters';
import { dashboardTranslations } from './dashboard.i18n';
import type { DashboardAnswer } from './dashboard.types';
import { useReport, type ReportRequest } from './use-report';

const TicketCharts = lazy(() => import('./ticket-charts'));

registerTranslations('dashboard', dashboardTranslations);

/** /dashboard (admins): the period's counters and attendants, and two charts with their own days. */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const clock = useCompanyClock();
  // The company's today (the API counts its days), as a date picker value.
  const today = useMemo(() => clock.wallClock().startOf('day'), [clock]);
  const [request, setRequest] = useState<ReportRequest>({ query: { days: DEFAULT_DAYS } });
  const { data, loading, failed } = useReport<DashboardAnswer>('/dashboard', request);

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('title')}
      </Typography.Title>
      <DashboardFilters loading={loading} onApply={(query) => setRequest({ query })} />
      {failed && !data ? (
        <Alert
          type="error"
          showIcon
          title={t('loadFailed')}
          action={
            <Button size="small" onClick={() => setRequest({ ...request })}>
              {t('retry')}
            </Button>
          }
        />
      ) : (
        <>
          <CounterCards counters={data?.counters ?? null} />
          <AttendantsTable attendants={data?.attendants ?? []} loading={loading} />
        </>
      )}
      <Suspense
        fallback={
          <Card>
            <Skeleton active paragraph={{ rows: 6 }} />
          </Card>
        }
      >
        <TicketCharts today={today} />
      </Suspense>
    </Flex>
  );
}
