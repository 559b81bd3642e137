import { App, Col, Form, Input, InputNumber, Modal, Row, Select, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, errorText, ModalFooter, useApiQuery, useLoadOnOpen, useSubmitGuard, type Queue } from 'atende/web';
import { PROMPT_DEFAULTS, PROMPT_VOICES } from '../prompt.contract';
import type { PromptRecord } from './prompt-record';

export interface PromptModalProps {
  open: boolean;
  /** null adds a prompt. */
  promptId: number | null;
  onClose(): void;
  onSaved(prompt: PromptRecord): void;
}

interface FormValues {
  name: string;
  prompt: string;
  queueId?: number;
  baseUrl: string;
  model: string;
  transcriptionModel: string;
  apiKey: string;
  maxMessages: number;
  maxTokens: number;
  temperature: number;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  voiceEndpoint: string;
}

const DEFAULTS: FormValues = {
  name: '',
  prompt: '',
  baseUrl: PROMPT_DEFAULTS.baseUrl,
  model: PROMPT_DEFAULTS.model,
  transcriptionModel: PROMPT_DEFAULTS.transcriptionModel,
  apiKey: '',
  maxMessages: PROMPT_DEFAULTS.maxMessages,
  maxTokens: PROMPT_DEFAULTS.maxTokens,
  temperature: PROMPT_DEFAULTS.temperature,
  voice: PROMPT_DEFAULTS.voice,
  voiceKey: '',
  voiceRegion: '',
  voiceEndpoint: '',
};

function toForm(p: PromptRecord): FormValues {
  return {
    name: p.name,
    prompt: p.prompt,
    queueId: p.queueId ?? undefined,
    baseUrl: p.baseUrl,
    model: p.model,
    transcriptionModel: p.transcriptionModel,
    apiKey: p.apiKey,
    maxMessages: p.maxMessages,
    maxTokens: p.maxTokens,
    temperature: p.temperature,
    voice: p.voice,
    voiceKey: p.voiceKey,
    voiceRegion: p.voiceRegion,
    voiceEndpoint: p.voiceEndpoint,
  };
}

/** Add or edit a prompt: the spec's fields (§3) and defaults (§9), plus the server's address and model. */
export function PromptModal({ open, promptId, onClose, onSaved }: PromptModalProps) {
  const { t } = useTranslation('prompts');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const queues = useApiQuery<Queue[]>('/queue', { enabled: open });
  const creating = promptId === null;
  // The speech service's fields matter only once a voice speaks the answers.
  const speaks = Form.useWatch('voice', form) !== PROMPT_DEFAULTS.voice;

  const loading = useLoadOnOpen<PromptRecord>({
    open,
    path: promptId === null ? null : `/prompt/${promptId}`,
    onOpen: () => {
      form.resetFields();
      form.setFieldsValue(DEFAULTS);
    },
    onLoad: (p) => form.setFieldsValue(toForm(p)),
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const submit = (values: FormValues) =>
    guard(
      () => (creating ? api.post<PromptRecord>('/prompt', values) : api.put<PromptRecord>(`/prompt/${promptId}`, values)),
      (saved) => {
        void message.success(t('modal.saved'));
        onSaved(saved);
        onClose();
      },
    );

  const required = { required: true, whitespace: true, message: t('validation.required') };
  const half = { xs: 24, sm: 12 };
  const third = { xs: 24, sm: 8 };

  return (
    <Modal
      open={open}
      title={t(creating ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={720}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="prompt" layout="vertical" initialValues={DEFAULTS} onFinish={submit} disabled={saving} requiredMark={false}>
          <Form.Item name="name" label={t('modal.name')} rules={[required, { max: 100, message: t('validation.tooLong') }]}>
            <Input autoFocus autoComplete="off" />
          </Form.Item>
          <Form.Item name="prompt" label={t('modal.prompt')} extra={t('modal.promptHint')} rules={[required]}>
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} />
          </Form.Item>
          <Form.Item name="queueId" label={t('modal.queue')} extra={t('modal.queueHint')} rules={[{ required: true, message: t('validation.queue') }]}>
            <Select
              loading={queues.isPending}
              placeholder={t('modal.queuePlaceholder')}
              options={(queues.data ?? []).map((q) => ({ value: q.id, label: q.name }))}
              aria-label={t('modal.queue')}
            />
          </Form.Item>
          <Form.Item name="baseUrl" label={t('modal.baseUrl')} extra={t('modal.baseUrlHint')} rules={[required, { type: 'url', message: t('validation.url') }]}>
            <Input autoComplete="off" inputMode="url" />
          </Form.Item>
          <Row gutter={16}>
            <Col {...half}>
              <Form.Item name="model" label={t('modal.model')} rules={[required]}>
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="transcriptionModel" label={t('modal.transcriptionModel')} extra={t('modal.transcriptionHint')} rules={[required]}>
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="apiKey" label={t('modal.apiKey')} extra={creating ? t('modal.apiKeyHint') : t('modal.apiKeyKept')}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Row gutter={16}>
            <Col {...third}>
              <Form.Item name="maxMessages" label={t('modal.maxMessages')} rules={[{ required: true, message: t('validation.required') }]}>
                <InputNumber min={0} max={100} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="maxTokens" label={t('modal.maxTokens')} rules={[{ required: true, message: t('validation.required') }]}>
                <InputNumber min={1} max={100000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="temperature" label={t('modal.temperature')} rules={[{ required: true, message: t('validation.required') }]}>
                <InputNumber min={0} max={2} step={0.1} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col {...third}>
              <Form.Item name="voice" label={t('modal.voice')}>
                <Select options={PROMPT_VOICES.map((v) => ({ value: v, label: v === 'texto' ? t('modal.voiceText') : v.replace(/^pt-BR-|Neural$/g, '') }))} aria-label={t('modal.voice')} />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="voiceKey" label={t('modal.voiceKey')}>
                <Input.Password autoComplete="new-password" disabled={!speaks} />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item
                name="voiceRegion"
                label={t('modal.voiceRegion')}
                rules={[{ pattern: /^[A-Za-z0-9]*$/, message: t('modal.voiceInvalidRegion') }]}
              >
                <Input autoComplete="off" placeholder={t('modal.voiceRegionHint')} disabled={!speaks} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="voiceEndpoint" label={t('modal.voiceEndpoint')} extra={t('modal.voiceEndpointHint')} rules={[{ type: 'url', message: t('validation.url') }]}>
            <Input autoComplete="off" inputMode="url" disabled={!speaks} />
          </Form.Item>
          <Typography.Text type="secondary">{t('modal.voiceNote')}</Typography.Text>
        </Form>
      </Spin>
    </Modal>
  );
}
