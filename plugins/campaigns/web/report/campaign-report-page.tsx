import { useEffect, useRef } from 'react';
import { Alert, App, Button, Card, Col, Empty, Flex, Progress, Row, Skeleton, Statistic, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, PauseCircleOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { api, companyTimezone, errorText, useApiQuery, useAuth, useSubmitGuard, zonedText } from 'atende/web';
import type { CampaignReport, ShippingStateName } from '../../dispatch/dispatch.contract';

/** Spec §9: the report reads itself again 5 s after a live event of a FINALIZADA campaign. */
const FINISHED_REFETCH_MS = 5_000;
const STATUS_COLORS: Record<CampaignReport['campaign']['status'], string> = {
  INATIVA: 'default',
  PROGRAMADA: 'blue',
  EM_ANDAMENTO: 'processing',
  CANCELADA: 'red',
  FINALIZADA: 'green',
};
const STATES: ShippingStateName[] = ['pending', 'queued', 'awaiting', 'sent', 'delivered', 'read', 'failed', 'skipped'];

/** /campaign/:id/report: the campaign's progress, live on company-{id}-campaign. */
export default function CampaignReportPage() {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const { id } = useParams<{ id: string }>();
  const { user, realtime } = useAuth();
  const zone = companyTimezone(user);
  const path = `/campaigns/${id}/report`;
  const report = useApiQuery<CampaignReport>(path, { keepPrevious: true });
  const { refetch } = report;
  const later = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  useEffect(() => {
    if (!user) return;
    const off = realtime.on(`company-${user.companyId}-campaign`, (data) => {
      const { record } = data as { record?: { id: number; status: string } };
      if (record?.id !== Number(id)) return;
      void refetch();
      if (record.status === 'FINALIZADA') {
        clearTimeout(later.current);
        later.current = setTimeout(() => void refetch(), FINISHED_REFETCH_MS);
      }
    });
    return () => {
      off();
      clearTimeout(later.current);
    };
  }, [user, realtime, id, refetch]);

  const act = (action: 'cancel' | 'restart') =>
    guard(
      () => api.post(`/campaigns/${id}/${action}`),
      () => {
        void message.success(t(`report.${action}ed`));
        void refetch();
      },
    );

  if (report.isError && !report.data) return <Alert type="error" showIcon title={errorText(report.error, t)} />;
  if (!report.data) return <Skeleton active paragraph={{ rows: 8 }} />;

  const r = report.data;
  const c = r.campaign;
  const when = (value: string | null, fallback: string) => (value ? zonedText(value, zone) : fallback);
  const card = (title: string, value: React.ReactNode, testId: string) => (
    <Col xs={12} md={8} lg={6}>
      <Card size="small" data-testid={testId}>
        <Statistic title={title} value={value as string} />
      </Card>
    </Col>
  );

  return (
    <Flex vertical gap={12} style={{ maxWidth: 1100 }}>
      <Flex align="center" gap={8} wrap>
        <Button href="/campaigns" icon={<ArrowLeftOutlined />} aria-label={t('report.back')} />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('report.title', { name: c.name })}
        </Typography.Title>
        <Tag color={STATUS_COLORS[c.status]} data-testid="campaign-status">
          {t(`report.status.${c.status}`)}
        </Tag>
        <Flex gap={8} style={{ marginInlineStart: 'auto' }}>
          {c.status === 'EM_ANDAMENTO' || c.status === 'PROGRAMADA' ? (
            <Button danger icon={<StopOutlined />} loading={saving} onClick={() => act('cancel')}>
              {t('report.cancel')}
            </Button>
          ) : null}
          {c.status === 'CANCELADA' ? (
            <Button type="primary" icon={<ReloadOutlined />} loading={saving} onClick={() => act('restart')}>
              {t('report.restart')}
            </Button>
          ) : null}
        </Flex>
      </Flex>

      <Card size="small">
        <Typography.Text data-testid="campaign-progress-text">
          {t('report.progress', { status: t(`report.status.${c.status}`), delivered: r.delivered, valid: r.validContacts })}
        </Typography.Text>
        <Progress percent={r.deliveredPercent} status={c.status === 'EM_ANDAMENTO' ? 'active' : c.status === 'CANCELADA' ? 'exception' : undefined} aria-label={t('report.progressLabel')} />
      </Card>

      {r.pauseReason ? (
        <Alert
          type="warning"
          showIcon
          icon={<PauseCircleOutlined />}
          data-testid="campaign-pause"
          title={t(`report.pause.${r.pauseReason}`, { defaultValue: r.pauseReason })}
          description={r.resumeAt ? t('report.resumeAt', { time: zonedText(r.resumeAt, zone) }) : undefined}
        />
      ) : null}

      <Row gutter={[12, 12]}>
        {card(t('report.validContacts'), r.validContacts, 'card-valid')}
        {c.confirmation ? card(t('report.confirmationsRequested'), r.confirmationsRequested, 'card-requested') : null}
        {c.confirmation ? card(t('report.confirmations'), r.confirmations, 'card-confirmed') : null}
        {card(t('report.delivered'), r.delivered, 'card-delivered')}
        {card(t('report.connection'), c.whatsapp?.name ?? t('report.notDefined'), 'card-connection')}
        {card(t('report.contactList'), c.contactList?.name ?? t('report.notDefined'), 'card-list')}
        {card(t('report.scheduledAt'), when(c.scheduledAt, t('report.noSchedule')), 'card-scheduled')}
        {card(t('report.completedAt'), when(c.completedAt, t('report.notCompleted')), 'card-completed')}
        {card(t('report.eta'), when(r.estimatedCompletionAt, '—'), 'card-eta')}
        {card(t('report.optOuts'), r.optOuts, 'card-optouts')}
      </Row>

      <Card size="small" title={t('report.states')}>
        <Row gutter={[12, 12]}>
          {STATES.map((state) => (
            <Col xs={12} sm={6} key={state}>
              <Statistic title={t(`report.state.${state}`)} value={r.counts[state]} data-testid={`state-${state}`} />
            </Col>
          ))}
        </Row>
      </Card>

      <Card size="small" title={t('report.failures', { count: r.counts.failed })}>
        <Table
          size="small"
          rowKey="number"
          pagination={false}
          dataSource={r.failures}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.noFailures')} /> }}
          columns={[
            { title: t('report.columns.name'), dataIndex: 'name', ellipsis: true },
            { title: t('report.columns.number'), dataIndex: 'number' },
            { title: t('report.columns.reason'), dataIndex: 'reason', ellipsis: true },
          ]}
        />
      </Card>
    </Flex>
  );
}
