import { useState } from 'react';
import { Alert, App, Button, Form, Input } from 'antd';
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ApiError } from '../../api/client';
import { PublicCard } from '../../components/public-card';
import { ErrorCode, errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import { registerTranslations } from '../../i18n';
import { formatDate } from '../../layout/dates';
import { useApiQuery } from '../../hooks/use-api-query';
import { loginTranslations } from './login.i18n';

registerTranslations('login', loginTranslations);

interface LoginForm {
  email: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation('login');
  const { message } = App.useApp();
  const { login } = useAuth();
  const [, navigate] = useLocation();
  const [submitting, setSubmitting] = useState(false);
  const [expired, setExpired] = useState<string | null>(null);
  // The link only where the billing plugin offers self-signup (answers 404 where it is not installed).
  const signup = useApiQuery<{ enabled: boolean }>('/signup/status');

  const submit = async ({ email, password }: LoginForm) => {
    setSubmitting(true);
    setExpired(null);
    try {
      const user = await login(email.trim(), password);
      // A financial user of an expired company may enter, straight to billing.
      const overdue = user.company.dueDate !== null && user.company.dueDate < new Date().toISOString().slice(0, 10);
      if (overdue && user.financial) {
        localStorage.setItem('financeiro', '1');
        navigate('/financeiro');
      } else {
        localStorage.removeItem('financeiro');
        navigate('/');
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.ERR_SUBSCRIPTION_EXPIRED) {
        setExpired(t('common:session.expiredSubscription', { date: formatDate(String(err.details?.dueDate ?? '')) }));
      } else {
        void message.error(errorText(err, t));
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PublicCard>
      {expired ? <Alert type="error" showIcon title={expired} style={{ marginBottom: 16 }} data-testid="expired" /> : null}
      <Form<LoginForm> layout="vertical" onFinish={submit} requiredMark={false} disabled={submitting}>
        <Form.Item
          name="email"
          label={t('email')}
          rules={[
            { required: true, message: t('invalidEmail') },
            { type: 'email', message: t('invalidEmail') },
          ]}
        >
          <Input prefix={<MailOutlined />} autoComplete="email" autoFocus inputMode="email" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password')}
          rules={[
            { required: true, message: t('required') },
            { min: 5, message: t('shortPassword') },
            { max: 20, message: t('longPassword') },
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('submit')}
        </Button>
      </Form>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16, gap: 8, flexWrap: 'wrap' }}>
        <Link href="/recovery">{t('forgot')}</Link>
        {signup.data?.enabled ? <Link href="/signup">{t('signup')}</Link> : null}
      </div>
    </PublicCard>
  );
}
