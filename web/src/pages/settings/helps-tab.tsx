import { Col, Divider, Form, Input, Row, Typography } from 'antd';
import { YoutubeOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { FormActions, FormHeading } from './form-actions';
import type { HelpCreateBody } from '../../api/types';
import type { Help } from './settings.types';
import { RecordsTable } from './records-table';
import { useRecordForm } from './use-record-form';
import { useLiveRecords } from '../../hooks/use-live-records';

type HelpForm = Pick<Help, 'title' | 'description' | 'video' | 'link'>;

const BLANK: HelpForm = { title: '', description: '', video: '', link: '' };
const byId = (a: Help, b: Help) => a.id - b.id;

/** Ajuda (super users): the help-video form and the table of helps every user sees on /helps. */
export function HelpsTab() {
  const { t } = useTranslation('settings');
  const [form] = Form.useForm<HelpForm>();
  const helps = useLiveRecords<Help>({ path: '/helps', channel: 'helps', entityKey: 'help', compare: byId });
  const { editing, busy, clear, select, save, remove } = useRecordForm<Help, HelpForm>({ form, records: helps, path: '/helps' });

  const submit = (values: HelpForm) =>
    save((help) => {
      const body = { ...values, description: values.description ?? '', link: values.link ?? '' } satisfies HelpCreateBody;
      return help ? api.put<Help>(`/helps/${help.id}`, body) : api.post<Help>('/helps', body);
    });

  const required = { required: true, whitespace: true, message: t('form.required') };

  const columns: ColumnsType<Help> = [
    { key: 'title', title: t('helps.title'), dataIndex: 'title' },
    {
      key: 'description',
      title: t('helps.description'),
      render: (_, h) => (
        <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 0, maxWidth: 420 }}>
          {h.description}
        </Typography.Paragraph>
      ),
    },
    {
      key: 'video',
      title: t('helps.video'),
      render: (_, h) => (
        <Typography.Link
          href={`https://www.youtube.com/watch?v=${encodeURIComponent(h.video)}`}
          target="_blank"
          rel="noreferrer"
          onClick={(event) => event.stopPropagation()}
        >
          <YoutubeOutlined /> {h.video}
        </Typography.Link>
      ),
    },
  ];

  return (
    <>
      <FormHeading name={editing?.title ?? null} />
      <Form<HelpForm> form={form} layout="vertical" initialValues={BLANK} onFinish={submit} data-testid="help-form">
        <Row gutter={[16, 0]}>
          <Col xs={24} md={12}>
            <Form.Item name="title" label={t('helps.title')} rules={[required, { max: 255 }]}>
              <Input maxLength={255} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="video" label={t('helps.video')} rules={[required]} extra={t('helps.videoHint')}>
              <Input prefix={<YoutubeOutlined />} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="description" label={t('helps.description')} rules={[{ max: 5000 }]}>
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={5000} />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item
              name="link"
              label={t('helps.link')}
              extra={t('helps.linkHint')}
              rules={[{ pattern: /^(https?:\/\/\S+)?$/i, message: t('helps.invalidLink') }]}
            >
              <Input inputMode="url" autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
        <FormActions editing={editing !== null} busy={busy} onClear={clear} onDelete={() => void remove()} />
      </Form>
      <Divider />
      <RecordsTable<Help> records={helps.items} loading={helps.loading} columns={columns} emptyText={t('helps.empty')} onSelect={select} testId="helps-table" />
    </>
  );
}
