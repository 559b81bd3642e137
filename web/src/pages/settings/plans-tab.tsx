import { useState } from 'react';
import { App, Col, Divider, Form, Input, InputNumber, Row, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { PLAN_FLAGS, type Plan, type PlanFlag } from '../../api/types';
import { FormActions, FormHeading } from './form-actions';
import { useAction } from './use-action';
import { useLiveRecords } from './use-live-records';

type PlanForm = Omit<Plan, 'id'>;

/** Prices are in reais, written the Brazilian way (1.234,56) whatever the interface language. */
const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const decimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function parseDecimal(text: string | undefined): number {
  const number = Number((text ?? '').replace(/\./g, '').replace(',', '.').replace(/[^\d.]/g, ''));
  return Number.isFinite(number) ? number : 0;
}

const flagsOn = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])) as Record<PlanFlag, boolean>;
const BLANK: PlanForm = { name: '', users: 1, connections: 1, queues: 1, value: 0, ...flagsOn };
const byId = (a: Plan, b: Plan) => a.id - b.id;

/** Planos (super users): the plan form and the table of plans. */
export function PlansTab() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [form] = Form.useForm<PlanForm>();
  const [editing, setEditing] = useState<Plan | null>(null);
  const plans = useLiveRecords<Plan>({ path: '/plans/all', channel: 'plan', entityKey: 'plan', compare: byId });
  const { busy, run } = useAction();

  const clear = () => {
    setEditing(null);
    form.resetFields();
  };

  const select = (plan: Plan) => {
    setEditing(plan);
    form.resetFields();
    form.setFieldsValue(plan);
  };

  const save = (values: PlanForm) =>
    run('save', async () => {
      const saved = editing ? await api.put<Plan>(`/plans/${editing.id}`, values) : await api.post<Plan>('/plans', values);
      plans.upsert(saved);
      void message.success(t('form.saved'));
      clear();
    });

  const remove = () =>
    run('delete', async () => {
      if (!editing) return;
      await api.delete(`/plans/${editing.id}`);
      plans.drop(editing.id);
      void message.success(t('form.deleted'));
      clear();
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
        const enabled = PLAN_FLAGS.filter((flag) => p[flag]);
        if (enabled.length === 0) return <Typography.Text type="secondary">{t('plans.noFeatures')}</Typography.Text>;
        return (
          <Space size={[4, 4]} wrap style={{ maxWidth: 420 }}>
            {enabled.map((flag) => (
              <Tag key={flag}>{t(`plans.flags.${flag}`)}</Tag>
            ))}
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <FormHeading name={editing?.name ?? null} />
      <Form<PlanForm> form={form} layout="vertical" initialValues={BLANK} onFinish={save} data-testid="plan-form">
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
          {PLAN_FLAGS.map((flag) => (
            <Col key={flag} xs={12} sm={8} lg={6} xl={3}>
              <Form.Item name={flag} label={t(`plans.flags.${flag}`)} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <FormActions editing={editing !== null} busy={busy} onClear={clear} onDelete={() => void remove()} />
      </Form>
      <Divider />
      <Table<Plan>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={plans.items}
        loading={plans.loading}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: t('plans.empty') }}
        onRow={(plan) => ({ onClick: () => select(plan), style: { cursor: 'pointer' } })}
        data-testid="plans-table"
      />
    </>
  );
}
