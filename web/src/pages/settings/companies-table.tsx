import { Space, Tag, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../layout/dates';
import { daysToDue, dueTone, dueToneColor, type DueTone } from './due-date';
import { RecordsTable } from './records-table';
import type { Company } from './settings.types';

interface CompaniesTableProps {
  companies: Company[];
  loading: boolean;
  onSelect(company: Company): void;
}

const LEGEND: [DueTone, string][] = [
  ['soon', 'companies.legendSoon'],
  ['near', 'companies.legendNear'],
  ['late', 'companies.legendLate'],
];

/** The companies, coloured by days to their due date; a click loads one into the form. */
export function CompaniesTable({ companies, loading, onSelect }: CompaniesTableProps) {
  const { t } = useTranslation('settings');
  const { token } = theme.useToken();

  const columns: ColumnsType<Company> = [
    { key: 'name', title: t('companies.name'), dataIndex: 'name' },
    { key: 'email', title: t('companies.email'), dataIndex: 'email' },
    { key: 'phone', title: t('companies.phone'), dataIndex: 'phone' },
    { key: 'plan', title: t('companies.plan'), render: (_, c) => c.plan?.name ?? '' },
    {
      key: 'status',
      title: t('companies.status'),
      render: (_, c) => (
        <Space size={4}>
          {c.status ? t('form.yes') : t('form.no')}
          {c.blockedAt ? (
            <Tag color="error" data-testid={`company-blocked-${c.id}`}>
              {t('companies.blocked')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'dueDate',
      title: t('companies.dueDate'),
      render: (_, c) => (c.dueDate ? formatDate(c.dueDate) : <Typography.Text type="secondary">{t('companies.noDueDate')}</Typography.Text>),
    },
    {
      key: 'recurrence',
      title: t('companies.recurrence'),
      render: (_, c) => t(`companies.recurrences.${c.recurrence}`, { defaultValue: c.recurrence }),
    },
  ];

  return (
    <>
      <RecordsTable<Company>
        records={companies}
        loading={loading}
        columns={columns}
        emptyText={t('companies.empty')}
        onSelect={onSelect}
        testId="companies-table"
        rowProps={(company) => {
          const tone = dueTone(daysToDue(company.dueDate));
          return {
            style: tone ? { background: dueToneColor(tone, token) } : undefined,
            'data-testid': `company-row-${company.id}`,
            'data-tone': tone ?? 'none',
          } as React.HTMLAttributes<HTMLElement>;
        }}
      />
      <Space wrap size={[16, 4]} style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">{t('companies.legendTitle')}:</Typography.Text>
        {LEGEND.map(([tone, labelKey]) => (
          <Space key={tone} size={6}>
            <span
              aria-hidden
              style={{
                display: 'inline-block',
                width: 14,
                height: 14,
                borderRadius: token.borderRadiusSM,
                background: dueToneColor(tone, token),
                border: `1px solid ${token.colorBorder}`,
                verticalAlign: 'middle',
              }}
            />
            <Typography.Text type="secondary">{t(labelKey)}</Typography.Text>
          </Space>
        ))}
      </Space>
    </>
  );
}
