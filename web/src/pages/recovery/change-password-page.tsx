import { App, Button, Form, Input, Typography } from 'antd';
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import { api, ApiError } from '../../api/client';
import { errorText } from '../../api/errors';
import { PublicCard } from '../../components/public-card';
import { useSubmitGuard } from '../../components/use-submit-guard';
import { registerTranslations } from '../../i18n';
import { recoveryTranslations } from './recovery.i18n';

registerTranslations('recovery', recoveryTranslations);

interface ChangeForm {
  password: string;
  confirm: string;
}

/** The router leaves reserved characters (the e-mail's '@' as %40) encoded. */
function decoded(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    return value ?? '';
  }
}

/** The e-mail's link lands here: the new password for that e-mail, with the link's token (hash). */
export default function ChangePasswordPage() {
  const { t } = useTranslation('recovery');
  const { message } = App.useApp();
  const [, navigate] = useLocation();
  const params = useParams<{ email: string; hash: string }>();
  const email = decoded(params.email);
  const hash = decoded(params.hash);
  // A refused link gets the catalogue's text; any other failure the spec's 'Dados não encontrados'.
  const { saving, guard } = useSubmitGuard((err) => (err instanceof ApiError && err.code.startsWith('ERR_') ? errorText(err, t) : t('changeFailed')));

  const submit = ({ password }: ChangeForm) =>
    guard(
      () => api.post('/users/reset/change-password', { email, hash, password }, { public: true }),
      () => {
        void message.success(t('changed'));
        navigate('/login');
      },
    );

  return (
    <PublicCard title={t('changeTitle')}>
      <Typography.Paragraph type="secondary">{t('changeIntro', { email })}</Typography.Paragraph>
      <Form<ChangeForm> layout="vertical" onFinish={submit} requiredMark={false} disabled={saving}>
        <Form.Item label={t('email')} htmlFor="change-password-email">
          <Input id="change-password-email" variant="filled" prefix={<MailOutlined />} value={email} readOnly autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('newPassword')}
          rules={[
            { required: true, message: t('required') },
            { min: 5, message: t('tooShort') },
            { max: 50, message: t('tooLong') },
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('required') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('mismatch'))),
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={saving}>
          {t('change')}
        </Button>
      </Form>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16, gap: 8, flexWrap: 'wrap' }}>
        <Link href="/login">{t('backToLogin')}</Link>
        <Link href="/recovery">{t('newLink')}</Link>
      </div>
    </PublicCard>
  );
}
