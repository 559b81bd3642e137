import { useState } from 'react';
import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { api, ApiError } from '../../api/client';
import { ErrorCode, errorText } from '../../api/errors';
import { PublicCard } from '../../components/public-card';
import { registerTranslations } from '../../i18n';
import { recoveryTranslations } from './recovery.i18n';

registerTranslations('recovery', recoveryTranslations);

const SENDING_KEY = 'recovery-sending';

/** The spec's recovery form: an e-mail, answered by a link to /change-password. */
export default function RecoveryPage() {
  const { t, i18n } = useTranslation('recovery');
  const { message } = App.useApp();
  const [, navigate] = useLocation();
  const [sending, setSending] = useState(false);
  const [mailOff, setMailOff] = useState(false);

  const submit = async ({ email }: { email: string }) => {
    setSending(true);
    void message.loading({ content: t('sending'), key: SENDING_KEY, duration: 0 });
    try {
      await api.post('/users/reset/password', { email: email.trim(), language: i18n.language }, { public: true });
      void message.success({ content: t('sent'), key: SENDING_KEY, duration: 3 });
      navigate('/login');
    } catch (err) {
      message.destroy(SENDING_KEY);
      if (err instanceof ApiError && err.code === ErrorCode.ERR_MAIL_NOT_CONFIGURED) setMailOff(true);
      else if (err instanceof ApiError && err.status === 429) void message.error(errorText(err, t));
      else if (err instanceof ApiError) void message.error(t('notFound'));
      else void message.error(t('mailProblem'));
    } finally {
      setSending(false);
    }
  };

  return (
    <PublicCard title={t('title')}>
      {mailOff ? (
        <Alert type="warning" showIcon title={t('mailOffTitle')} description={t('mailOffText')} style={{ marginBottom: 16 }} data-testid="mail-off" />
      ) : (
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      )}
      <Form<{ email: string }> layout="vertical" onFinish={submit} requiredMark={false} disabled={sending || mailOff}>
        <Form.Item
          name="email"
          label={t('email')}
          rules={[
            { required: true, whitespace: true, message: t('emailRequired') },
            { type: 'email', transform: (value: string) => value?.trim(), message: t('invalidEmail') },
          ]}
        >
          <Input prefix={<MailOutlined />} autoComplete="email" autoFocus inputMode="email" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={sending}>
          {t('send')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link href="/login">{t('backToLogin')}</Link>
      </div>
    </PublicCard>
  );
}
