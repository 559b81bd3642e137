import { useEffect, useState } from 'react';
import { App, Alert, Button, Card, Descriptions, Flex, Form, Input, Modal, QRCode, Radio, Result, Select, Spin, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { api, errorText, formatDate, useApiQuery, useAuth } from 'atende/web';
import type { CheckoutAnswer, CheckoutView } from '../checkout/checkout.contract';
import { brl } from './invoice-record';

interface PublicPlan {
  id: number;
  name: string;
  value: number | string;
  users: number;
  connections: number;
}


interface Details {
  firstName: string;
  address2: string;
  city: string;
  state?: string;
  zipcode: string;
  country: 'BR' | 'usa';
}

const DETAIL_FIELDS: (keyof Details)[] = ['firstName', 'address2', 'city', 'state', 'zipcode', 'country'];

/** The spec's checkout 'Falta pouco!': Dados, Personalizar (plan), Revisar, then the Pix. */
function CheckoutModal({ open, info, onClose }: { open: boolean; info: CheckoutView; onClose(): void }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const [form] = Form.useForm<Details>();
  const [step, setStep] = useState(0);
  const [planId, setPlanId] = useState<number | undefined>(info.plan?.id);
  const [paying, setPaying] = useState(false);
  // Why the server refused the checkout (a plan below the company's users or connections…), until the next try.
  const [refused, setRefused] = useState<string | null>(null);
  const [pix, setPix] = useState<CheckoutAnswer | null>(null);
  const plans = useApiQuery<PublicPlan[]>('/plans/list', { enabled: open });
  const plan = plans.data?.find((p) => p.id === planId);
  const required = (key: string) => [{ required: true, whitespace: true, message: t(`checkout.required.${key}`) }];

  const next = async () => {
    if (step === 0) await form.validateFields(DETAIL_FIELDS);
    setStep((s) => s + 1);
  };

  const back = () => {
    setRefused(null);
    if (step === 0) onClose();
    else setStep(step - 1);
  };

  const pay = async () => {
    setPaying(true);
    setRefused(null);
    try {
      // The price shown is only a preview: the server charges its own.
      const answer = await api.post<CheckoutAnswer>('/subscription', { ...form.getFieldsValue(true), plan: planId });
      setPix(answer);
      void message.success(t('checkout.done'));
    } catch (err) {
      setRefused(errorText(err, t));
    } finally {
      setPaying(false);
    }
  };

  const values = form.getFieldsValue(true) as Details;
  return (
    <Modal open={open} title={t('checkout.title')} onCancel={onClose} footer={null} destroyOnHidden width={560}>
      {pix ? (
        <Flex vertical align="center" gap={12} data-testid="checkout-pix">
          <QRCode value={pix.qrcode.qrcode} size={220} bordered={false} />
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="checkout-price">
            {t('checkout.perMonth', { price: brl.format(Number(pix.valor.original)) })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('pix.copyHint')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: pix.qrcode.qrcode, tooltips: [t('pix.copy'), t('pix.copied')] }} code style={{ wordBreak: 'break-all', width: '100%' }} data-testid="checkout-payload">
            {pix.qrcode.qrcode}
          </Typography.Paragraph>
          <Button onClick={onClose}>{t('pix.close')}</Button>
        </Flex>
      ) : (
        <>
          <Steps size="small" current={step} items={[{ title: t('checkout.steps.data') }, { title: t('checkout.steps.plan') }, { title: t('checkout.steps.review') }]} style={{ marginBottom: 16 }} />
          <Form<Details> form={form} layout="vertical" requiredMark={false} initialValues={{ country: 'BR' }} style={{ display: step === 0 ? undefined : 'none' }}>
            <Form.Item name="firstName" label={t('checkout.fullName')} rules={required('fullName')}>
              <Input maxLength={100} autoComplete="name" />
            </Form.Item>
            <Form.Item name="address2" label={t('checkout.address')} rules={required('address')}>
              <Input maxLength={200} autoComplete="street-address" />
            </Form.Item>
            <Flex gap={12} wrap>
              <Form.Item name="city" label={t('checkout.city')} rules={required('city')} style={{ flex: '1 1 180px' }}>
                <Input maxLength={100} />
              </Form.Item>
              <Form.Item name="state" label={t('checkout.state')} style={{ flex: '0 1 100px' }}>
                <Input maxLength={50} />
              </Form.Item>
            </Flex>
            <Flex gap={12} wrap>
              <Form.Item name="zipcode" label={t('checkout.zipcode')} rules={required('zipcode')} style={{ flex: '1 1 140px' }}>
                <Input maxLength={20} autoComplete="postal-code" />
              </Form.Item>
              <Form.Item name="country" label={t('checkout.country')} rules={[{ required: true, message: t('checkout.required.country') }]} style={{ flex: '1 1 140px' }}>
                <Select options={[{ value: 'BR', label: 'Brasil' }, { value: 'usa', label: 'United States' }]} />
              </Form.Item>
            </Flex>
          </Form>
          {step === 1 ? (
            plans.isPending ? (
              <Spin />
            ) : (
              <Radio.Group value={planId} onChange={(e) => setPlanId(e.target.value as number)} style={{ width: '100%' }} data-testid="checkout-plans">
                <Flex vertical gap={8}>
                  {(plans.data ?? []).map((p) => (
                    <Radio key={p.id} value={p.id}>
                      <strong>{p.name}</strong> — {t('checkout.perMonth', { price: brl.format(Number(p.value)) })}{' '}
                      <Typography.Text type="secondary">{t('checkout.planLimits', { users: p.users, connections: p.connections })}</Typography.Text>
                    </Radio>
                  ))}
                </Flex>
              </Radio.Group>
            )
          ) : null}
          {step === 2 ? (
            <Descriptions column={1} size="small" bordered data-testid="checkout-review">
              <Descriptions.Item label={t('checkout.fullName')}>{values.firstName}</Descriptions.Item>
              <Descriptions.Item label={t('checkout.address')}>{[values.address2, values.city, values.state, values.zipcode, values.country].filter(Boolean).join(', ')}</Descriptions.Item>
              <Descriptions.Item label={t('checkout.email')}>{info.email}</Descriptions.Item>
              <Descriptions.Item label={t('checkout.plan')}>{plan ? `${plan.name} — ${t('checkout.perMonth', { price: brl.format(Number(plan.value)) })}` : ''}</Descriptions.Item>
            </Descriptions>
          ) : null}
          {refused ? <Alert type="error" showIcon message={refused} style={{ marginTop: 16 }} data-testid="checkout-error" /> : null}
          <Flex justify="space-between" style={{ marginTop: 16 }}>
            <Button onClick={back} disabled={paying}>
              {t(step === 0 ? 'cancel' : 'checkout.back')}
            </Button>
            {step < 2 ? (
              <Button type="primary" onClick={() => void next().catch(() => undefined)} disabled={step === 1 && planId === undefined}>
                {t('checkout.next')}
              </Button>
            ) : (
              <Button type="primary" loading={paying} onClick={() => void pay()}>
                {t('checkout.pay')}
              </Button>
            )}
          </Flex>
        </>
      )}
    </Modal>
  );
}

/** /subscription: the trial days left, the billing e-mail and 'Assine Agora!'. */
export default function SubscriptionPage() {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const info = useApiQuery<CheckoutView>('/subscription');

  // The spec: a payment shows the renewal toast, then home after 4 s.
  useEffect(() => {
    if (!user) return;
    return realtime.on(`company-${user.companyId}-payment`, (data) => {
      const frame = data as { action: string; company?: { dueDate: string | null } };
      if (frame.action !== 'CONCLUIDA') return;
      void message.success(t('renewed', { date: formatDate(frame.company?.dueDate ?? null) }));
      const timer = setTimeout(() => navigate('/'), 4000);
      return () => clearTimeout(timer);
    });
  }, [user, realtime, message, t, navigate]);

  if (info.isPending) return <Spin />;
  if (info.isError) {
    return <Result status="info" title={t('off.title')} subTitle={errorText(info.error, t)} data-testid="subscription-off" />;
  }
  const data = info.data;
  return (
    <Flex vertical gap={16} style={{ maxWidth: 640 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('subscription.title')}
      </Typography.Title>
      <Card data-testid="subscription-card">
        {data.trial ? (
          <Alert type={data.trialDaysLeft > 0 ? 'info' : 'warning'} showIcon message={t('subscription.trialLeft', { count: data.trialDaysLeft })} style={{ marginBottom: 16 }} data-testid="trial-left" />
        ) : (
          <Alert type="success" showIcon message={t('subscription.activeUntil', { date: formatDate(data.dueDate) })} style={{ marginBottom: 16 }} />
        )}
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('subscription.company')}>{data.companyName}</Descriptions.Item>
          <Descriptions.Item label={t('checkout.email')}>{data.email}</Descriptions.Item>
          {data.plan ? <Descriptions.Item label={t('checkout.plan')}>{`${data.plan.name} — ${t('checkout.perMonth', { price: brl.format(data.plan.value) })}`}</Descriptions.Item> : null}
        </Descriptions>
        <Button type="primary" size="large" onClick={() => setOpen(true)} style={{ marginTop: 16 }}>
          {t('subscription.subscribe')}
        </Button>
      </Card>
      <CheckoutModal open={open} info={data} onClose={() => setOpen(false)} />
    </Flex>
  );
}
