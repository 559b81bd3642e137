import { useState } from 'react';
import { App, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, ErrorCode, errorText } from 'atende/web';

const NUMBER_RULE = /^\d+$/;

/** The server's own address: the examples and the test forms call it. */
const endpoint = () => `${window.location.origin}/api/messages/send`;

function curlExample(): string {
  return `curl -X POST ${endpoint()} \\\n  -H "Authorization: Bearer SEU_TOKEN" \\\n  -H "Content-Type: application/json" \\\n  -d '{"number":"5511999999999","body":"Olá"}'\n\ncurl -X POST ${endpoint()} \\\n  -H "Authorization: Bearer SEU_TOKEN" \\\n  -F number=5511999999999 -F medias=@arquivo.pdf`;
}

function fetchExample(): string {
  return `await fetch('${endpoint()}', {\n  method: 'POST',\n  headers: { Authorization: 'Bearer SEU_TOKEN', 'Content-Type': 'application/json' },\n  body: JSON.stringify({ number: '5511999999999', body: 'Olá' }),\n});`;
}

async function post(token: string, body: FormData | string): Promise<void> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token.trim()}` };
  if (typeof body === 'string') headers['Content-Type'] = 'application/json';
  const res = await fetch(endpoint(), { method: 'POST', headers, body });
  if (res.ok) return;
  const answer = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
  throw new ApiError(res.status, answer.error ?? ErrorCode.ERR_SENDING_WAPP_MSG, answer.message ?? res.statusText);
}

interface TextValues {
  token: string;
  number: string;
  body: string;
}

interface MediaValues {
  token: string;
  number: string;
}

/** /messages-api (spec §2): how to call the external messages API, and two forms to try it. */
export default function MessagesApiPage() {
  const { t } = useTranslation('messages-api');
  const { message } = App.useApp();
  const [textForm] = Form.useForm<TextValues>();
  const [mediaForm] = Form.useForm<MediaValues>();
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState<'text' | 'media' | null>(null);

  const run = async (kind: 'text' | 'media', work: () => Promise<void>) => {
    setSending(kind);
    try {
      await work();
      void message.success(t('page.sent'));
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setSending(null);
    }
  };
  const sendText = (values: TextValues) => run('text', () => post(values.token, JSON.stringify({ number: values.number, body: values.body })));
  const sendMedia = (values: MediaValues) =>
    run('media', async () => {
      const form = new FormData();
      form.set('number', values.number);
      form.append('medias', file!, file!.name);
      await post(values.token, form);
    });

  const tokenItem = <Form.Item name="token" label={t('page.token')} rules={[{ required: true, whitespace: true, message: t('page.required') }]}><Input.Password autoComplete="off" /></Form.Item>;
  const numberItem = (
    <Form.Item name="number" label={t('page.number')} extra={t('page.numberHelp')} rules={[{ required: true, message: t('page.required') }, { pattern: NUMBER_RULE, message: t('page.digitsOnly') }]}>
      <Input inputMode="numeric" placeholder="5511999999999" />
    </Form.Item>
  );

  return (
    <Flex vertical gap={16} style={{ maxWidth: 960 }}>
      <Typography.Title level={3} style={{ margin: 0 }}>{t('page.title')}</Typography.Title>
      <Card title={t('page.docsTitle')}>
        <Typography.Paragraph>{t('page.docs')}</Typography.Paragraph>
        <Typography.Paragraph><Typography.Text code copyable>{`POST ${endpoint()}`}</Typography.Text></Typography.Paragraph>
        <Typography.Title level={5}>curl</Typography.Title>
        <Typography.Paragraph copyable={{ text: curlExample() }}><pre style={{ whiteSpace: 'pre-wrap' }}>{curlExample()}</pre></Typography.Paragraph>
        <Typography.Title level={5}>JavaScript (fetch)</Typography.Title>
        <Typography.Paragraph copyable={{ text: fetchExample() }}><pre style={{ whiteSpace: 'pre-wrap' }}>{fetchExample()}</pre></Typography.Paragraph>
      </Card>
      <Flex gap={16} wrap>
        <Card title={t('page.textTitle')} style={{ flex: '1 1 360px' }}>
          <Form<TextValues> form={textForm} name="messages-api-text" layout="vertical" onFinish={sendText} requiredMark={false}>
            {tokenItem}
            {numberItem}
            <Form.Item name="body" label={t('page.body')} rules={[{ required: true, whitespace: true, message: t('page.required') }]}>
              <Input.TextArea rows={3} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={sending === 'text'}>{t('page.send')}</Button>
          </Form>
        </Card>
        <Card title={t('page.mediaTitle')} style={{ flex: '1 1 360px' }}>
          <Form<MediaValues> form={mediaForm} name="messages-api-media" layout="vertical" onFinish={sendMedia} requiredMark={false}>
            {tokenItem}
            {numberItem}
            <Form.Item label={t('page.file')} htmlFor="messages-api-file" required>
              <input id="messages-api-file" type="file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={sending === 'media'} disabled={file === null}>{t('page.send')}</Button>
          </Form>
        </Card>
      </Flex>
    </Flex>
  );
}
