import { useState } from 'react';
import { Alert, App, Button, Col, Flex, Form, Input, InputNumber, Modal, Row, Select, Space, Spin, Typography } from 'antd';
import { ExperimentOutlined, KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, errorText, useLoadOnOpen, useSubmitGuard } from 'atende/web';
import { INTEGRATION_DEFAULTS, INTEGRATION_LANGUAGES, INTEGRATION_TYPES, type IntegrationType, type TestSessionResult } from '../integration.contract';
import type { IntegrationRecord } from './integration-record';
import { TYPE_LABELS, TypeLogo } from './type-logo';

export interface IntegrationModalProps {
  open: boolean;
  /** null adds an integration. */
  integrationId: number | null;
  onClose(): void;
}

interface FormValues {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotDelayMessage: number;
  typebotRestartMessage: string;
}

const DEFAULTS: FormValues = {
  type: 'typebot',
  name: '',
  projectName: '',
  jsonContent: '',
  language: INTEGRATION_DEFAULTS.language,
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: INTEGRATION_DEFAULTS.typebotExpires,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotUnknownMessage: '',
  typebotDelayMessage: INTEGRATION_DEFAULTS.typebotDelayMessage,
  typebotRestartMessage: '',
};

function toForm(i: IntegrationRecord): FormValues {
  const { type, name, projectName, jsonContent, language, urlN8N, typebotSlug, typebotExpires, typebotKeywordFinish, typebotKeywordRestart, typebotUnknownMessage, typebotDelayMessage, typebotRestartMessage } = i;
  return { type, name, projectName, jsonContent, language, urlN8N, typebotSlug, typebotExpires, typebotKeywordFinish, typebotKeywordRestart, typebotUnknownMessage, typebotDelayMessage, typebotRestartMessage };
}

/** The test-bot answer: what the customer would get, or the service's error. */
function TestResult({ result }: { result: TestSessionResult }) {
  const { t } = useTranslation('integrations');
  if (!result.ok) return <Alert type="error" showIcon message={t('test.failed')} description={result.error} data-testid="integration-test-result" />;
  const lines = result.messages.map((m) => ('text' in m ? m.text : [m.caption, m.mediaUrl].filter(Boolean).join(' — ')));
  return (
    <Alert
      type="success"
      showIcon
      message={t('test.answered')}
      data-testid="integration-test-result"
      description={
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          {lines.length === 0 ? <Typography.Text type="secondary">{t('test.nothing')}</Typography.Text> : null}
          {lines.map((line, index) => (
            <Typography.Paragraph key={index} style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
              {line}
            </Typography.Paragraph>
          ))}
          {result.handoff ? <Typography.Text type="secondary">{t('test.handoff')}</Typography.Text> : null}
        </Space>
      }
    />
  );
}

/** Add or edit an integration: the spec's fields by type (§3, §9), the webhook key, and the test-bot button. */
export function IntegrationModal({ open, integrationId, onClose }: IntegrationModalProps) {
  const { t } = useTranslation('integrations');
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const type = Form.useWatch('type', form) ?? DEFAULTS.type;
  const creating = integrationId === null;
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestSessionResult | null>(null);

  const loading = useLoadOnOpen<IntegrationRecord>({
    open,
    path: integrationId === null ? null : `/queueIntegration/${integrationId}`,
    onOpen: () => {
      form.resetFields();
      form.setFieldsValue(DEFAULTS);
      setResult(null);
    },
    onLoad: (i) => form.setFieldsValue(toForm(i)),
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  /** The key in full, once: the answer that made it is the only one that has it. */
  const showSecret = (secret: string) =>
    modal.info({
      title: t('secret.title'),
      width: 560,
      content: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('secret.once')}</Typography.Text>
          <Typography.Text code copyable data-testid="integration-secret">
            {secret}
          </Typography.Text>
        </Space>
      ),
    });

  const submit = (values: FormValues) =>
    guard(
      () => (creating ? api.post<IntegrationRecord>('/queueIntegration', values) : api.put<IntegrationRecord>(`/queueIntegration/${integrationId}`, values)),
      (saved) => {
        void message.success(t('modal.saved'));
        onClose();
        if (creating && (saved.type === 'webhook' || saved.type === 'n8n')) showSecret(saved.webhookSecret);
      },
    );

  const renewSecret = () =>
    guard(
      () => api.put<IntegrationRecord>(`/queueIntegration/${integrationId}`, { newWebhookSecret: true }),
      (saved) => showSecret(saved.webhookSecret),
    );

  const test = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setTesting(true);
    setResult(null);
    try {
      setResult(await api.post<TestSessionResult>('/queueIntegration/testSession', { ...values, ...(integrationId !== null && { id: integrationId }) }));
    } catch (err) {
      setResult({ ok: false, error: errorText(err, t) });
    } finally {
      setTesting(false);
    }
  };

  const required = { required: true, whitespace: true, message: t('validation.required') };
  const half = { xs: 24, sm: 12 };
  const url = { type: 'url' as const, message: t('validation.url') };
  const hooked = type === 'n8n' || type === 'webhook';

  return (
    <Modal
      open={open}
      title={t(creating ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={720}
      footer={
        <Flex>
          <Button icon={<ExperimentOutlined />} onClick={() => void test()} loading={testing} disabled={loading || saving} data-testid="integration-test">
            {t('test.button')}
          </Button>
          <span style={{ flex: 1 }} />
          <Button onClick={onClose} disabled={saving}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="primary" loading={saving} disabled={loading} onClick={() => form.submit()}>
            {t('common:actions.save')}
          </Button>
        </Flex>
      }
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="queueIntegration" layout="vertical" initialValues={DEFAULTS} onFinish={submit} disabled={saving} requiredMark={false} onValuesChange={() => setResult(null)}>
          <Row gutter={16}>
            <Col {...half}>
              <Form.Item name="type" label={t('modal.type')}>
                <Select
                  aria-label={t('modal.type')}
                  options={INTEGRATION_TYPES.map((value) => ({
                    value,
                    label: (
                      <Space size={8}>
                        <TypeLogo type={value} size={20} />
                        {TYPE_LABELS[value]}
                      </Space>
                    ),
                  }))}
                />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="name" label={t('modal.name')} rules={[required, { min: 2, message: t('validation.tooShort') }, { max: 50, message: t('validation.tooLong') }]}>
                <Input autoFocus autoComplete="off" />
              </Form.Item>
            </Col>
          </Row>

          {hooked ? (
            <>
              <Form.Item name="urlN8N" label={t(type === 'n8n' ? 'modal.urlN8N' : 'modal.urlWebhook')} extra={t('modal.webhookHint')} rules={[required, url]}>
                <Input autoComplete="off" inputMode="url" placeholder="https://" />
              </Form.Item>
              {creating ? (
                <Typography.Paragraph type="secondary">{t('secret.created')}</Typography.Paragraph>
              ) : (
                <Form.Item label={t('secret.label')} extra={t('secret.hint')}>
                  <Space.Compact style={{ width: '100%' }}>
                    <Input value="••••" disabled aria-label={t('secret.label')} />
                    <Button icon={<KeyOutlined />} onClick={renewSecret}>
                      {t('secret.renew')}
                    </Button>
                  </Space.Compact>
                </Form.Item>
              )}
            </>
          ) : null}

          {type === 'typebot' ? (
            <>
              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="urlN8N" label={t('modal.urlTypebot')} extra={t('modal.urlTypebotHint')} rules={[required, url]}>
                    <Input autoComplete="off" inputMode="url" placeholder="https://" />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="typebotSlug" label={t('modal.typebotSlug')} rules={[required]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
              </Row>
              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="typebotExpires" label={t('modal.typebotExpires')} extra={t('modal.typebotExpiresHint')}>
                    <InputNumber min={0} max={10080} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="typebotDelayMessage" label={t('modal.typebotDelayMessage')}>
                    <InputNumber min={0} max={20000} step={100} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              </Row>
              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="typebotKeywordFinish" label={t('modal.typebotKeywordFinish')}>
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="typebotKeywordRestart" label={t('modal.typebotKeywordRestart')}>
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
              </Row>
              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="typebotUnknownMessage" label={t('modal.typebotUnknownMessage')}>
                    <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="typebotRestartMessage" label={t('modal.typebotRestartMessage')}>
                    <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
                  </Form.Item>
                </Col>
              </Row>
            </>
          ) : null}

          {type === 'dialogflow' ? (
            <>
              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="projectName" label={t('modal.projectName')} rules={[required]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="language" label={t('modal.language')}>
                    <Select aria-label={t('modal.language')} options={INTEGRATION_LANGUAGES.map((value) => ({ value, label: t(`languages.${value}`) }))} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name="jsonContent" label={t('modal.jsonContent')} extra={t(creating ? 'modal.jsonContentHint' : 'modal.jsonContentKept')} rules={[required]}>
                <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} spellCheck={false} />
              </Form.Item>
            </>
          ) : null}

          {result ? <TestResult result={result} /> : null}
        </Form>
      </Spin>
    </Modal>
  );
}
