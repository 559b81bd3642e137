import { useEffect, useState } from 'react';
import { App, Button, Form, Result, Skeleton, Typography } from 'antd';
import { ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { CompanySchedulesBody } from '../../api/types';
import { fromWeekRows, toWeekRows, WeekHoursFields, type DayHours } from '../../components/week-hours-fields';
import type { Company } from './settings.types';
import { useAction } from './use-action';

/** Horários: the company's working hours, one start and end time per weekday. */
export function SchedulesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ days: DayHours[] }>();
  const [initial, setInitial] = useState<DayHours[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const { busy, run } = useAction();

  useEffect(() => {
    const controller = new AbortController();
    setFailure(null);
    api
      .get<Company>(`/companies/${companyId}`, undefined, { signal: controller.signal })
      .then((company) => setInitial(toWeekRows(company.schedules ?? [])))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setFailure(errorText(err, t));
      });
    return () => controller.abort();
  }, [companyId, generation, t]);

  const save = ({ days }: { days: DayHours[] }) =>
    run('save', async () => {
      const company = await api.put<Company>(`/companies/${companyId}/schedules`, { schedules: fromWeekRows(days) } satisfies CompanySchedulesBody);
      form.setFieldsValue({ days: toWeekRows(company.schedules) });
      void message.success(t('schedules.updated'));
    });

  if (failure) {
    return (
      <Result
        status="warning"
        title={failure}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => setGeneration((g) => g + 1)}>
            {t('common:actions.reload')}
          </Button>
        }
      />
    );
  }
  if (!initial) return <Skeleton active paragraph={{ rows: 7 }} />;

  return (
    <>
      <Typography.Paragraph type="secondary">{t('schedules.intro')}</Typography.Paragraph>
      <Form
        form={form}
        initialValues={{ days: initial }}
        onFinish={save}
        disabled={busy !== null}
        data-testid="schedules-form"
      >
        <WeekHoursFields name="days" />
        <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={busy === 'save'}>
            {t('form.save')}
          </Button>
        </div>
      </Form>
    </>
  );
}
