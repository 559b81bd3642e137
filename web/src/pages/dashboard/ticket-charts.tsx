import { useState, type ReactNode } from 'react';
import { App, Button, Card, Col, Empty, Flex, Form, Row, Skeleton, Typography, theme } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { apiDay } from './dashboard-format';
import { DateRangeFields, type DateRange } from './date-range-fields';
import type { TicketsPerTime, TicketsPerUser } from './dashboard.types';
import { useReport, type ReportRequest } from './use-report';
import { ErrorCode, errorCodeText } from '../../api/errors';

const CHART_HEIGHT = 280;
const BAR_ROW = 36;

type Applied = { from: Dayjs; to: Dayjs };

const requestOf = ({ from, to }: Applied): ReportRequest => ({ query: { initialDate: apiDay(from), finalDate: apiDay(to) } });

/** Axes, grid, tooltip and bars in the theme's colours (light or dark). */
function useChartStyle() {
  const { token } = theme.useToken();
  return {
    tick: { fill: token.colorTextSecondary, fontSize: 12 },
    grid: token.colorBorderSecondary,
    bar: token.colorPrimary,
    cursor: { fill: token.colorFillTertiary },
    tooltip: {
      contentStyle: { background: token.colorBgElevated, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, color: token.colorText },
      labelStyle: { color: token.colorText },
      itemStyle: { color: token.colorText },
    },
  };
}

interface ChartCardProps<T extends { count: number }> {
  testId: string;
  path: string;
  /** The first range loaded (the company's today for both charts). */
  initial: Applied;
  title(applied: Applied): string;
  chart(data: T): ReactNode;
}

/** A chart of attendances with its own start and end days, applied by its Filtrar, and the total of the range. */
function ChartCard<T extends { count: number }>({ testId, path, initial, title, chart }: ChartCardProps<T>) {
  const { t } = useTranslation('dashboard');
  const { message } = App.useApp();
  const [range, setRange] = useState<DateRange>(initial);
  const [applied, setApplied] = useState(initial);
  const [request, setRequest] = useState(() => requestOf(initial));
  const { data, loading } = useReport<T>(path, request);

  const apply = () => {
    if (!range.from || !range.to) {
      void message.warning(errorCodeText(ErrorCode.ERR_DASHBOARD_FILTER, t));
      return;
    }
    const next = { from: range.from, to: range.to };
    setApplied(next);
    setRequest(requestOf(next));
  };

  let body: ReactNode;
  if (!data) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (data.count === 0) body = <Empty description={t('charts.empty')} style={{ paddingBlock: 48 }} />;
  else body = chart(data);

  return (
    <Card
      title={title(applied)}
      extra={data ? <Typography.Text strong data-testid={`${testId}-total`}>{t('charts.total', { count: data.count })}</Typography.Text> : null}
      styles={{ header: { flexWrap: 'wrap', columnGap: 8 }, title: { whiteSpace: 'normal' } }}
      data-testid={testId}
    >
      <Flex vertical gap={16}>
        <Form layout="vertical" component="div">
          <Flex wrap gap={12} align="flex-end">
            <DateRangeFields idPrefix={testId} value={range} onChange={setRange} />
            <Button icon={<FilterOutlined />} loading={loading} onClick={apply}>
              {t('filters.apply')}
            </Button>
          </Flex>
        </Form>
        <div aria-busy={loading} style={{ opacity: loading && data ? 0.5 : 1, transition: 'opacity 0.2s' }}>
          {body}
        </div>
      </Flex>
    </Card>
  );
}

/** 'Total de Conversas por Usuários': one horizontal bar per user, the busiest first. */
function TicketsPerUserChart({ today }: { today: Dayjs }) {
  const { t } = useTranslation('dashboard');
  const style = useChartStyle();
  return (
    <ChartCard<TicketsPerUser>
      testId="chart-users"
      path="/dashboard/ticketsUsers"
      initial={{ from: today, to: today }}
      title={() => t('charts.byUser')}
      chart={({ data }) => (
        <ResponsiveContainer width="100%" height={Math.max(CHART_HEIGHT, data.length * BAR_ROW + 40)}>
          <BarChart data={data} layout="vertical" margin={{ left: 8, right: 16 }}>
            <CartesianGrid horizontal={false} stroke={style.grid} />
            <XAxis type="number" allowDecimals={false} tick={style.tick} stroke={style.grid} />
            <YAxis type="category" dataKey="nome" width={110} tick={style.tick} stroke={style.grid} />
            <Tooltip cursor={style.cursor} {...style.tooltip} />
            <Bar dataKey="quantidade" name={t('charts.conversations')} fill={style.bar} radius={[0, 4, 4, 0]} maxBarSize={24} />
          </BarChart>
        </ResponsiveContainer>
      )}
    />
  );
}

/** Attendances per hour of one day, or per day of a longer range (the API picks by the range). */
function TicketsPerTimeChart({ today }: { today: Dayjs }) {
  const { t } = useTranslation('dashboard');
  const style = useChartStyle();
  return (
    <ChartCard<TicketsPerTime>
      testId="chart-time"
      path="/dashboard/ticketsDay"
      initial={{ from: today, to: today }}
      title={({ from, to }) => t(from.isSame(to, 'day') ? 'charts.byHour' : 'charts.byDay')}
      chart={({ data }) => (
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart data={data.map((point) => ({ label: 'horario' in point ? `${point.horario}h` : dayjs(point.data).format('DD/MM'), total: point.total }))} margin={{ right: 8 }}>
            <CartesianGrid vertical={false} stroke={style.grid} />
            <XAxis dataKey="label" interval="preserveStart" tick={style.tick} stroke={style.grid} />
            <YAxis allowDecimals={false} width={32} tick={style.tick} stroke={style.grid} />
            <Tooltip cursor={style.cursor} {...style.tooltip} />
            <Bar dataKey="total" name={t('charts.conversations')} fill={style.bar} radius={[4, 4, 0, 0]} maxBarSize={32} />
          </BarChart>
        </ResponsiveContainer>
      )}
    />
  );
}

/** Both charts side by side on a wide screen, one above the other below it; loaded apart from the page (the chart library is most of its weight). */
export default function TicketCharts({ today }: { today: Dayjs }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <TicketsPerUserChart today={today} />
      </Col>
      <Col xs={24} xl={12}>
        <TicketsPerTimeChart today={today} />
      </Col>
    </Row>
  );
}
