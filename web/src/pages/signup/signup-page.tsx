import { useState } from 'react';
import { Alert, App, Button, Descriptions, Form, Input, Select, Spin, Steps, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { ApiError, api } from '../../api/client';
import { errorText } from '../../api/errors';
import { PublicCard } from '../../components/public-card';
import { useApiQuery } from '../../hooks/use-api-query';
import { registerTranslations } from '../../i18n';
import { CardFields, cardOf, type CardFieldValues } from '../../components/card-fields';
import { maskDocument } from '../../components/input-masks';
import { signupTranslations } from './signup.i18n';

registerTranslations('signup', signupTranslations);

interface SignupForm {
  name: string;
  cpf_cnpj: string;
  email: string;
  phone: string;
  password: string;
  planId: number;
  /** A promotion code, optional. */
  code?: string;
  /** The Cartão step's card, when the installation takes cards. */
  card?: CardFieldValues;
}

interface PublicPlan {
  id: number;
  name: string;
  value: number | string;
}

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const COMPANY_FIELDS: (keyof SignupForm)[] = ['name', 'cpf_cnpj', 'email', 'phone', 'password', 'planId', 'code'];
const CARD_FIELDS: (keyof CardFieldValues)[] = ['number', 'holderName', 'expiry', 'ccv', 'holderCpfCnpj', 'holderPhone', 'postalCode', 'addressNumber'];

/** The provider's reasons for refusing a card (each a description), to show beside the error's text. */
function reasons(err: unknown): string[] {
  const errors = err instanceof ApiError ? (err.details as { errors?: { description?: string }[] } | undefined)?.errors : undefined;
  return (errors ?? []).map((e) => e.description).filter((d): d is string => Boolean(d));
}

/** A rule asking the server whether the value can still be used (`{ status }`), with `message` when not. */
function freeOnServer(path: (value: string) => string, message: string): Rule {
  return {
    validator: async (_, value: string | undefined) => {
      if (!value?.trim()) return;
      const { status } = await api.get<{ status: boolean }>(path(value.trim()), undefined, { public: true });
      if (!status) throw new Error(message);
    },
  };
}

/**
 * The spec's signup (/signup): Empresa, Cartão (when the installation takes cards: the card for the
 * plan's subscription after the trial) and Finalizando; no card step while billing is manual. Each
 * field is checked on the server as it is left; the signup's answer says the rest.
 */
export default function SignupPage() {
  const { t } = useTranslation('signup');
  const { message } = App.useApp();
  const [, navigate] = useLocation();
  // The spec's /signup/{planchooseid}/plan, or ?planchooseid= on /signup: a plan chosen beforehand.
  const { planchooseid } = useParams<{ planchooseid?: string }>();
  const chosenPlan = Number(planchooseid ?? new URLSearchParams(useSearch()).get('planchooseid')) || undefined;
  const [form] = Form.useForm<SignupForm>();
  const [step, setStep] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const status = useApiQuery<{ enabled: boolean; card?: boolean }>('/signup/status');
  const plans = useApiQuery<PublicPlan[]>('/plans/list', { enabled: status.data?.enabled === true });

  const planLabel = (plan: PublicPlan) => t('planOption', { name: plan.name, price: brl.format(Number(plan.value)) });

  const withCard = status.data?.card === true;
  const cardStep = withCard ? 1 : -1;
  const finishStep = withCard ? 2 : 1;

  const next = async () => {
    if (step === 0) {
      await form.validateFields(COMPANY_FIELDS);
      // The holder is most often the company itself: its document and phone, to change when not.
      if (withCard && !form.getFieldValue(['card', 'holderCpfCnpj'])) {
        form.setFieldValue(['card', 'holderCpfCnpj'], form.getFieldValue('cpf_cnpj'));
        form.setFieldValue(['card', 'holderPhone'], form.getFieldValue('phone'));
      }
    } else {
      await form.validateFields(CARD_FIELDS.map((field) => ['card', field]));
    }
    setStep(step + 1);
  };

  const submit = async () => {
    setSubmitting(true);
    try {
      const { card, ...company } = form.getFieldsValue(true) as SignupForm;
      await api.post('/companies/cadastro', { ...company, ...(withCard && card ? { card: cardOf(card) } : {}) }, { public: true });
      void message.success(t('success'));
      navigate('/login');
    } catch (err) {
      // A refused card: back to the Cartão step, with the provider's reason.
      if (err instanceof ApiError && err.code === 'ERR_CARD_REFUSED') setStep(cardStep);
      void message.error([errorText(err, t), ...reasons(err)].join(' '));
    } finally {
      setSubmitting(false);
    }
  };

  if (status.isPending) return <PublicCard title={t('title')}><Spin /></PublicCard>;
  if (!status.data?.enabled) {
    return (
      <PublicCard title={t('title')}>
        <Alert type="info" showIcon title={t('off')} data-testid="signup-off" />
        <div style={{ marginTop: 16 }}>
          <Link href="/login">{t('backToLogin')}</Link>
        </div>
      </PublicCard>
    );
  }

  const values = form.getFieldsValue(true) as Partial<SignupForm>;
  const plan = plans.data?.find((p) => p.id === values.planId);
  const sizes = (min: number, max: number): Rule[] => [
    { required: true, whitespace: true, message: t('required') },
    { min, message: t('tooShort') },
    { max, message: t('tooLong') },
  ];

  return (
    <PublicCard title={t('title')}>
      <Steps
        size="small"
        current={step}
        items={[{ title: t('stepCompany') }, ...(withCard ? [{ title: t('stepCard') }] : []), { title: t('stepFinish') }]}
        style={{ marginBottom: 16 }}
        data-testid="signup-steps"
      />
      <Form<SignupForm> form={form} layout="vertical" requiredMark={false} validateTrigger="onBlur" initialValues={{ planId: chosenPlan }} disabled={submitting} style={{ display: step === finishStep ? 'none' : undefined }}>
        <div style={{ display: step === 0 ? undefined : 'none' }}>
          <Form.Item name="name" label={t('name')} validateDebounce={300} rules={[...sizes(2, 50), freeOnServer((v) => `/companies/verify/name/query/params?name=${encodeURIComponent(v)}`, t('nameTaken'))]}>
            <Input autoFocus autoComplete="organization" />
          </Form.Item>
          <Form.Item
            name="cpf_cnpj"
            label={t('document')}
            normalize={maskDocument}
            validateDebounce={300}
            rules={[{ required: true, message: t('required') }, freeOnServer((v) => `/companies/verify/cpfcnpj/query/params?cpfcnpj=${encodeURIComponent(v)}`, `${t('invalidDocument')} / ${t('documentTaken')}`)]}
          >
            <Input inputMode="numeric" />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('email')}
            validateDebounce={300}
            rules={[{ required: true, whitespace: true, message: t('required') }, { type: 'email', message: t('invalidEmail') }, freeOnServer((v) => `/companies/verify/email/${encodeURIComponent(v)}`, t('emailTaken'))]}
          >
            <Input autoComplete="email" inputMode="email" />
          </Form.Item>
          <Form.Item name="phone" label={t('phone')} validateDebounce={300} rules={[...sizes(10, 20), freeOnServer((v) => `/companies/verify/phone/${encodeURIComponent(v)}`, t('phoneTaken'))]}>
            <Input autoComplete="tel" inputMode="tel" />
          </Form.Item>
          <Form.Item name="password" label={t('password')} rules={sizes(5, 50)}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="planId" label={t('plan')} rules={[{ required: true, message: t('required') }]}>
            <Select
              loading={plans.isPending}
              placeholder={plans.isError ? t('plansFailed') : plans.isPending ? t('loadingPlans') : undefined}
              options={(plans.data ?? []).map((p) => ({ value: p.id, label: planLabel(p) }))}
            />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('promotion')}
            validateDebounce={300}
            rules={[freeOnServer((v) => `/companies/promotion/code/exist/valid/${encodeURIComponent(v)}`, t('invalidPromotion'))]}
          >
            <Input autoComplete="off" maxLength={30} />
          </Form.Item>
          <Button type="primary" block onClick={() => void next().catch(() => undefined)}>
            {t('next')}
          </Button>
        </div>
        {withCard ? (
          <div style={{ display: step === cardStep ? undefined : 'none' }} data-testid="signup-card">
            <Typography.Paragraph type="secondary">{t('cardIntro', { days: 3 })}</Typography.Paragraph>
            <CardFields prefix="card" holder />
            <div style={{ display: 'flex', gap: 8 }}>
              <Button onClick={() => setStep(0)}>{t('back')}</Button>
              <Button type="primary" style={{ flex: 1 }} onClick={() => void next().catch(() => undefined)}>
                {t('next')}
              </Button>
            </div>
          </div>
        ) : null}
      </Form>
      {step === finishStep ? (
        <>
          <Typography.Paragraph type="secondary">{t('review')}</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }} data-testid="signup-review">
            <Descriptions.Item label={t('name')}>{values.name}</Descriptions.Item>
            <Descriptions.Item label={t('document')}>{values.cpf_cnpj}</Descriptions.Item>
            <Descriptions.Item label={t('email')}>{values.email}</Descriptions.Item>
            <Descriptions.Item label={t('phone')}>{values.phone}</Descriptions.Item>
            <Descriptions.Item label={t('plan')}>{plan ? planLabel(plan) : ''}</Descriptions.Item>
            {values.code?.trim() ? <Descriptions.Item label={t('promotion')}>{values.code.trim().toUpperCase()}</Descriptions.Item> : null}
            {withCard && values.card?.number ? <Descriptions.Item label={t('card')}>{t('cardEnding', { last4: values.card.number.replace(/\D/g, '').slice(-4) })}</Descriptions.Item> : null}
          </Descriptions>
          <div style={{ display: 'flex', gap: 8 }}>
            <Button onClick={() => setStep(step - 1)} disabled={submitting}>
              {t('back')}
            </Button>
            <Button type="primary" style={{ flex: 1 }} loading={submitting} onClick={() => void submit()}>
              {t('submit')}
            </Button>
          </div>
        </>
      ) : null}
      <div style={{ marginTop: 16 }}>
        <Link href="/login">{t('backToLogin')}</Link>
      </div>
    </PublicCard>
  );
}
