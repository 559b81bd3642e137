import { useState } from 'react';
import { App, Button, Flex, Form, Select } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CompanyZoneNote } from '../../components/zoned-time';
import { apiDay } from './dashboard-format';
import { DateRangeFields, type DateRange } from './date-range-fields';
import { ErrorCode, errorCodeText } from '../../api/errors';

type FilterType = 'period' | 'date';

const PERIODS = [3, 7, 15, 30, 60, 90];
/** The period shown and loaded at once, so the admin sees figures without filtering first. */
export const DEFAULT_DAYS = 7;
/** 'Nenhum selecionado' in the period select. */
const NO_PERIOD = 0;

export type DashboardQuery = { days: number } | { date_from: string; date_to: string };

/** The query of the filter as set, or null when it names no period (the API would refuse it). */
function queryOf(type: FilterType, days: number, range: DateRange): DashboardQuery | null {
  if (type === 'period') return days === NO_PERIOD ? null : { days };
  return range.from && range.to ? { date_from: apiDay(range.from), date_to: apiDay(range.to) } : null;
}

/**
 * Filtro por Período (last N days) or Filtro por Data (start and end day), applied by Filtrar;
 * days and hours are the company's, which the note names when the browser's clock differs.
 */
export function DashboardFilters({ loading, onApply }: { loading: boolean; onApply(query: DashboardQuery): void }) {
  const { t } = useTranslation('dashboard');
  const { message } = App.useApp();
  const [type, setType] = useState<FilterType>('period');
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [range, setRange] = useState<DateRange>({ from: null, to: null });

  const apply = () => {
    const query = queryOf(type, days, range);
    if (query) onApply(query);
    else void message.warning(errorCodeText(ErrorCode.ERR_DASHBOARD_FILTER, t));
  };

  return (
    <Form layout="vertical" component="div">
      <Flex wrap gap={12} align="flex-end" data-testid="dashboard-filters">
        <Form.Item label={t('filters.type')} htmlFor="dashboard-filter-type" style={{ marginBottom: 0 }}>
          <Select<FilterType>
            id="dashboard-filter-type"
            value={type}
            onChange={setType}
            options={[
              { value: 'date', label: t('filters.byDate') },
              { value: 'period', label: t('filters.byPeriod') },
            ]}
            style={{ width: 200 }}
          />
        </Form.Item>
        {type === 'period' ? (
          <Form.Item label={t('filters.period')} htmlFor="dashboard-filter-period" style={{ marginBottom: 0 }}>
            <Select<number>
              id="dashboard-filter-period"
              value={days}
              onChange={setDays}
              options={[{ value: NO_PERIOD, label: t('filters.none') }, ...PERIODS.map((n) => ({ value: n, label: t('filters.lastDays', { count: n }) }))]}
              style={{ width: 200 }}
            />
          </Form.Item>
        ) : (
          <DateRangeFields idPrefix="dashboard-filter" value={range} onChange={setRange} />
        )}
        <Button type="primary" icon={<FilterOutlined />} loading={loading} onClick={apply}>
          {t('filters.apply')}
        </Button>
        <CompanyZoneNote />
      </Flex>
    </Form>
  );
}
