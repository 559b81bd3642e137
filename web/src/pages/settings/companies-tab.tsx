import { useState } from 'react';
import { App, Button, Col, DatePicker, Descriptions, Divider, Form, Input, Row, Select, Typography } from 'antd';
import { CalendarOutlined, UserOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { Plan } from '../../api/types';
import { CompaniesTable } from './companies-table';
import { CompanyUsersModal } from './company-users-modal';
import { OFFERED_RECURRENCES, nextDueDate } from './due-date';
import { FormActions, FormHeading } from './form-actions';
import type { Company, CompanyCreated } from './settings.types';
import { useRecordForm } from './use-record-form';
import { useLiveRecords } from '../../hooks/use-live-records';

interface CompanyForm {
  name: string;
  email: string;
  phone?: string;
  planId?: number;
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: Dayjs | null;
  recurrence: string;
  password?: string;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'pt-BR', { sensitivity: 'base' });
const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

/** A new company is active, has campaigns, pays monthly and is due one period from today. */
function blank(): CompanyForm {
  return {
    name: '',
    email: '',
    phone: '',
    status: true,
    campaignsEnabled: true,
    recurrence: 'MENSAL',
    dueDate: nextDueDate(dayjs().startOf('day'), 'MENSAL'),
  };
}

function toForm(company: Company): CompanyForm {
  return {
    name: company.name,
    email: company.email,
    phone: company.phone,
    planId: company.planId ?? undefined,
    status: company.status,
    campaignsEnabled: company.campaignsEnabled,
    dueDate: company.dueDate ? dayjs(company.dueDate) : null,
    recurrence: company.recurrence,
  };
}

/** Empresas (super users): the company form and the table of every company. */
export function CompaniesTab() {
  const { t } = useTranslation('settings');
  const { modal } = App.useApp();
  const [form] = Form.useForm<CompanyForm>();
  const [usersOf, setUsersOf] = useState<Company | null>(null);
  const companies = useLiveRecords<Company>({ path: '/companies', channel: 'company', entityKey: 'company', compare: byName });
  const plans = useLiveRecords<Plan>({ path: '/plans/all', channel: 'plan', entityKey: 'plan', compare: byId });
  const { editing, busy, clear, select, save, remove } = useRecordForm<Company, CompanyForm>({ form, records: companies, path: '/companies', toForm });
  const dueDate = Form.useWatch('dueDate', form);
  const recurrence = Form.useWatch('recurrence', form);

  const showCredentials = ({ admin }: CompanyCreated) =>
    modal.success({
      title: t('companies.createdTitle'),
      content: (
        <div data-testid="company-credentials">
          <Typography.Paragraph>{t('companies.createdText')}</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('companies.login')}>
              <Typography.Text copyable data-testid="credentials-email">
                {admin.email}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('companyUsers.newPassword')}>
              <Typography.Text copyable code data-testid="credentials-password">
                {admin.password}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </div>
      ),
    });

  const submit = (values: CompanyForm) =>
    save(async (company) => {
      const body = {
        name: values.name,
        email: values.email,
        phone: values.phone ?? '',
        planId: values.planId,
        status: values.status,
        campaignsEnabled: values.campaignsEnabled,
        recurrence: values.recurrence,
        // An empty (or unreadable) due date means the company never expires.
        dueDate: values.dueDate?.isValid() ? values.dueDate.format('YYYY-MM-DD') : null,
      };
      if (company) return api.put<Company>(`/companies/${company.id}`, body);
      const created = await api.post<CompanyCreated>('/companies', { ...body, ...(values.password ? { password: values.password } : {}) });
      if (created.admin.password) showCredentials(created);
      return created.company;
    });

  const addDueDate = () => {
    if (dueDate?.isValid()) form.setFieldValue('dueDate', nextDueDate(dueDate, recurrence ?? 'MENSAL'));
  };

  const recurrences = [...new Set([...OFFERED_RECURRENCES, ...(editing ? [editing.recurrence] : [])])];
  const required = { required: true, message: t('form.required') };

  return (
    <>
      <FormHeading name={editing?.name ?? null} />
      <Form<CompanyForm> form={form} layout="vertical" initialValues={blank()} onFinish={submit} data-testid="company-form">
        <Row gutter={[16, 0]}>
          <Col xs={24} sm={12} lg={8}>
            <Form.Item name="name" label={t('companies.name')} rules={[required, { min: 2, max: 50 }]}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={8}>
            <Form.Item name="email" label={t('companies.email')} rules={[required, { type: 'email', message: t('form.invalidEmail') }]}>
              <Input inputMode="email" autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={8}>
            <Form.Item name="phone" label={t('companies.phone')}>
              <Input inputMode="tel" maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={8}>
            <Form.Item name="planId" label={t('companies.plan')} rules={[required]}>
              <Select loading={plans.loading} options={plans.items.map((p) => ({ value: p.id, label: p.name }))} />
            </Form.Item>
          </Col>
          <Col xs={12} lg={4}>
            <Form.Item name="status" label={t('companies.status')}>
              <Select
                options={[
                  { value: true, label: t('form.yes') },
                  { value: false, label: t('form.no') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={12} lg={4}>
            <Form.Item name="campaignsEnabled" label={t('companies.campaigns')}>
              <Select
                options={[
                  { value: true, label: t('companies.campaignsEnabled') },
                  { value: false, label: t('companies.campaignsDisabled') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={12} lg={8}>
            <Form.Item name="dueDate" label={t('companies.dueDate')}>
              <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={12} lg={8}>
            <Form.Item name="recurrence" label={t('companies.recurrence')}>
              <Select options={recurrences.map((r) => ({ value: r, label: t(`companies.recurrences.${r}`, { defaultValue: r }) }))} />
            </Form.Item>
          </Col>
          {editing ? null : (
            <Col xs={24} sm={12} lg={8}>
              <Form.Item
                name="password"
                label={t('companies.password')}
                extra={t('companies.passwordHint')}
                rules={[{ min: 5, max: 50, message: t('companyUsers.passwordLength') }]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          )}
        </Row>
        <FormActions editing={editing !== null} busy={busy} onClear={clear} onDelete={() => void remove()}>
          <Button icon={<CalendarOutlined />} onClick={addDueDate} disabled={!dueDate || busy !== null}>
            {t('companies.addDueDate')}
          </Button>
          <Button icon={<UserOutlined />} onClick={() => setUsersOf(editing)} disabled={!editing || busy !== null}>
            {t('companies.user')}
          </Button>
        </FormActions>
      </Form>
      <Divider />
      <CompaniesTable companies={companies.items} loading={companies.loading} onSelect={select} />
      <CompanyUsersModal company={usersOf} onClose={() => setUsersOf(null)} />
    </>
  );
}
