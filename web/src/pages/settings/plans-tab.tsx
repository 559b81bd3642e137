import { useEffect } from 'react';
import { Col, Divider, Form, Input, InputNumber, Row, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useApiQuery } from '../../hooks/use-api-query';
import type { Plan, PlanCatalogue, PlanCreateBody, PlanLabel } from '../../api/types';
import { FormActions, FormHeading } from './form-actions';
import { RecordsTable } from './records-table';
import { useRecordForm } from './use-record-form';
import { useLiveRecords } from '../../hooks/use-live-records';

/** The form sends the flags and limits as `features` and `limits`, whatever the installation has. */
type PlanForm = Pick<Plan, 'name' | 'users' | 'connections' | 'queues' | 'value' | 'features' | 'limits'>;

/** Prices are in reais, written the Brazilian way (1.234,56) whatever the interface language. */
const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const decimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function parseDecimal(text: string | undefined): number {
  const number = Number((text ?? '').replace(/\./g, '').replace(',', '.').replace(/[^\d.]/g, ''));
  return Number.isFinite(number) ? number : 0;
}

const EMPTY_CATALOGUE: PlanCatalogue = { features: [], limits: [] };
const byId = (a: Plan, b: Plan) => a.id - b.id;

/** A new plan: every flag on and every limit at its declared default, as the server would make it. */
function blank(catalogue: PlanCatalogue): PlanForm {
  return {
    name: '',
    users: 1,
    connections: 1,
    queues: 1,
    value: 0,
    features: Object.fromEntries(catalogue.features.map((f) => [f.key, true])),
    limits: Object.fromEntries(catalogue.limits.map((l) => [l.key, l.default])),
  };
}

/** The installation's flags and limits (the spec's and the plugins'), read once per visit. */
function usePlanCatalogue(): PlanCatalogue {
  return useApiQuery<PlanCatalogue>('/plans/features').data ?? EMPTY_CATALOGUE;
}

/** Planos (super users): the plan form and the table of plans. */
export function PlansTab() {
  const { t, i18n } = useTranslation('settings');
  const catalogue = usePlanCatalogue();
  const labelOf = (label: PlanLabel) => label[i18n.language as keyof PlanLabel] ?? label['pt-BR'];
  const [form] = Form.useForm<PlanForm>();
  const plans = useLiveRecords<Plan>({ path: '/plans/all', channel: 'plan', entityKey: 'plan', compare: byId });
  const { editing, busy, clear, select, save, remove } = useRecordForm<Plan, PlanForm>({ form, records: plans, path: '/plans', blank: () => blank(catalogue) });
  // When the catalogue arrives, a new plan starts from it; an edit in progress keeps its values.
  useEffect(() => {
    if (!editing) form.setFieldsValue(blank(catalogue));
  }, [catalogue, editing, form]);

  // The form only holds the installation's flags and limits: unknown keys never reach the server.
  const submit = (values: PlanForm) =>
    save((plan) => {
      const body = values satisfies PlanCreateBody;
      return plan ? api.put<Plan>(`/plans/${plan.id}`, body) : api.post<Plan>('/plans', body);
    });

  const required = { required: true, message: t('form.required') };
  const counts = ['users', 'connections', 'queues'] as const;

  const columns: ColumnsType<Plan> = [
    { key: 'name', title: t('plans.name'), dataIndex: 'name' },
    ...counts.map((key) => ({ key, title: t(`plans.${key}`), dataIndex: key, align: 'right' as const })),
    { key: 'value', title: t('plans.value'), align: 'right', render: (_, p) => brl.format(Number(p.value)) },
    {
      key: 'features',
      title: t('plans.features'),
      render: (_, p) => {
        const enabled = catalogue.features.filter((flag) => p.features?.[flag.key]);
        if (enabled.length === 0) return <Typography.Text type="secondary">{t('plans.noFeatures')}</Typography.Text>;
        return (
          <Space size={[4, 4]} wrap style={{ maxWidth: 420 }}>
            {enabled.map((flag) => (
              <Tag key={flag.key}>{labelOf(flag.label)}</Tag>
            ))}
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <FormHeading name={editing?.name ?? null} />
      <Form<PlanForm> form={form} layout="vertical" onFinish={submit} data-testid="plan-form">
        <Row gutter={[16, 0]}>
          <Col xs={24} lg={8}>
            <Form.Item name="name" label={t('plans.name')} rules={[required, { max: 100 }]}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          {counts.map((key) => (
            <Col key={key} xs={8} lg={4}>
              <Form.Item name={key} label={t(`plans.${key}`)} rules={[required]}>
                <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          ))}
          <Col xs={24} sm={12} lg={4}>
            <Form.Item name="value" label={t('plans.value')} rules={[required]}>
              <InputNumber<number>
                min={0}
                max={9_999_999_999}
                precision={2}
                prefix={t('plans.currency')}
                style={{ width: '100%' }}
                inputMode="decimal"
                formatter={(value, info) => (info.userTyping ? info.input : value === undefined ? '' : decimal.format(Number(value)))}
                parser={parseDecimal}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={[16, 0]}>
          {catalogue.features.map((flag) => (
            <Col key={flag.key} xs={12} sm={8} lg={6} xl={3}>
              <Form.Item name={['features', flag.key]} label={labelOf(flag.label)} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          ))}
        </Row>
        {catalogue.limits.length > 0 && (
          <Row gutter={[16, 0]} data-testid="plan-limits">
            {catalogue.limits.map((limit) => (
              <Col key={limit.key} xs={12} sm={8} lg={6}>
                <Form.Item name={['limits', limit.key]} label={labelOf(limit.label)} rules={[required]}>
                  <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        )}
        <FormActions editing={editing !== null} busy={busy} onClear={clear} onDelete={() => void remove()} />
      </Form>
      <Divider />
      <RecordsTable<Plan> records={plans.items} loading={plans.loading} columns={columns} emptyText={t('plans.empty')} onSelect={select} testId="plans-table" />
    </>
  );
}
