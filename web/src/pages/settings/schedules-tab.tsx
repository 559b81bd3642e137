import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Result, Skeleton, Typography } from 'antd';
import { ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import type { CompanySchedulesBody } from '../../api/types';
import { fromWeekRows, toWeekRows, WeekHoursFields, type DayHours } from '../../components/week-hours-fields';
import { useApiQuery } from '../../hooks/use-api-query';
import type { Company } from './settings.types';
import { useAction } from './use-action';

/** Horários: the company's working hours, one start and end time per weekday. */
export function SchedulesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ days: DayHours[] }>();
  const queryClient = useQueryClient();
  const path = `/companies/${companyId}`;
  const company = useApiQuery<Company>(path);
  const { busy, run } = useAction();

  const save = ({ days }: { days: DayHours[] }) =>
    run('save', async () => {
      const saved = await api.put<Company>(`${path}/schedules`, { schedules: fromWeekRows(days) } satisfies CompanySchedulesBody);
      queryClient.setQueryData(queryKeys.records(path), saved);
      form.setFieldsValue({ days: toWeekRows(saved.schedules) });
      void message.success(t('schedules.updated'));
    });

  if (!company.data) {
    if (!company.isError) return <Skeleton active paragraph={{ rows: 7 }} />;
    return (
      <Result
        status="warning"
        title={errorText(company.error, t)}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void company.refetch()}>
            {t('common:actions.reload')}
          </Button>
        }
      />
    );
  }

  return (
    <>
      <Typography.Paragraph type="secondary">{t('schedules.intro')}</Typography.Paragraph>
      {/* The form takes the hours once; a later refetch (after a reconnect) does not undo the admin's edits. */}
      <Form
        form={form}
        initialValues={{ days: toWeekRows(company.data.schedules) }}
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
