import { useState } from 'react';
import { Alert, App, Button, Card, Col, Flex, Modal, Row, Spin, Statistic, Table, Tag, Typography, Upload, theme } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, errorText } from 'atende/web';
import { downloadSample, type ContactListImportReport } from './contact-list-record';

export interface ImportModalProps {
  open: boolean;
  contactListId: number;
  listName: string;
  onClose(): void;
}

type Action = ContactListImportReport['rows'][number]['action'];
const ACTION_COLORS: Record<Action, string | undefined> = { create: 'green', update: 'blue', unchanged: undefined, rejected: 'red' };

function formOf(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/**
 * Import a spreadsheet into a list: the file is read by the server with ?dryRun=true (what would be
 * created, updated and rejected, and why; nothing changes), then applied on confirmation.
 */
export function ImportModal({ open, contactListId, listName, onClose }: ImportModalProps) {
  const { t } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ContactListImportReport | null>(null);
  const [busy, setBusy] = useState<'reading' | 'importing' | null>(null);
  const path = `/contact-lists/${contactListId}/upload`;

  const reset = () => {
    setFile(null);
    setReport(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const preview = async (picked: File) => {
    setFile(picked);
    setReport(null);
    setBusy('reading');
    try {
      setReport(await api.post<ContactListImportReport>(`${path}?dryRun=true`, formOf(picked)));
    } catch (err) {
      void message.error(errorText(err, t));
      setFile(null);
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    if (!file) return;
    setBusy('importing');
    try {
      const done = await api.post<ContactListImportReport>(path, formOf(file));
      void message.success(t('importer.done', { created: done.create, updated: done.update, rejected: done.rejected.length }));
      close();
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(null);
    }
  };

  const writes = report ? report.create + report.update : 0;
  const counts = report
    ? (
        [
          ['create', report.create, token.colorSuccess],
          ['update', report.update, token.colorPrimary],
          ['unchanged', report.unchanged, token.colorTextSecondary],
          ['rejected', report.rejected.length, token.colorError],
        ] as const
      ).map(([key, value, color]) => ({ key, value, color: value > 0 ? color : token.colorTextSecondary }))
    : [];

  return (
    <Modal
      open={open}
      title={t('importer.title', { name: listName })}
      onCancel={close}
      width={760}
      destroyOnHidden
      footer={
        report
          ? [
              <Button key="another" onClick={reset} disabled={busy !== null}>
                {t('importer.another')}
              </Button>,
              <Button key="confirm" type="primary" loading={busy === 'importing'} disabled={writes === 0} onClick={() => void confirm()}>
                {t('importer.confirm')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('importer.cancel')}
              </Button>,
            ]
      }
    >
      {report ? (
        <Flex vertical gap={16} data-testid="import-report">
          <Typography.Text type="secondary">{t('importer.file', { name: file?.name ?? '' })}</Typography.Text>
          <Row gutter={[12, 12]}>
            {counts.map(({ key, value, color }) => (
              <Col key={key} xs={12} sm={6}>
                <Card size="small">
                  <Statistic title={t(`importer.${key}`)} value={value} styles={{ content: { color } }} />
                </Card>
              </Col>
            ))}
          </Row>
          {writes === 0 ? <Alert type="warning" showIcon title={t('importer.nothing')} /> : null}
          <div>
            <Typography.Title level={5}>{t('importer.rejectedRows')}</Typography.Title>
            {report.rejected.length === 0 ? (
              <Typography.Text type="secondary">{t('importer.noneRejected')}</Typography.Text>
            ) : (
              <Table
                size="small"
                rowKey="row"
                pagination={false}
                scroll={{ y: 180 }}
                dataSource={report.rejected}
                data-testid="import-rejected"
                columns={[
                  { title: t('importer.row'), dataIndex: 'row', width: 80 },
                  { title: t('importer.reason'), key: 'reason', render: (_, r) => t(`importer.reasons.${r.reason}`, { firstRow: r.firstRow }) },
                ]}
              />
            )}
          </div>
          <div>
            <Typography.Title level={5}>{t('importer.firstRows')}</Typography.Title>
            <Table
              size="small"
              rowKey="row"
              pagination={false}
              scroll={{ x: 560, y: 220 }}
              dataSource={report.rows}
              columns={[
                { title: t('importer.row'), dataIndex: 'row', width: 64 },
                { title: t('items.columns.name'), dataIndex: 'name', ellipsis: true },
                { title: t('items.columns.number'), dataIndex: 'number', ellipsis: true },
                { title: t('items.columns.email'), dataIndex: 'email', ellipsis: true },
                {
                  title: t('importer.action'),
                  dataIndex: 'action',
                  width: 130,
                  render: (action: Action) => <Tag color={ACTION_COLORS[action]}>{t(`importer.actions.${action}`)}</Tag>,
                },
              ]}
            />
          </div>
        </Flex>
      ) : (
        <Flex vertical gap={12}>
          <Spin spinning={busy === 'reading'} description={t('importer.reading')}>
            <Upload.Dragger
              accept=".xlsx,.xls,.csv"
              multiple={false}
              showUploadList={false}
              beforeUpload={(picked) => {
                void preview(picked);
                return false;
              }}
              data-testid="import-dropzone"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t('importer.drop')}</p>
              <p className="ant-upload-hint">{t('importer.hint')}</p>
            </Upload.Dragger>
          </Spin>
          <Button type="link" icon={<DownloadOutlined />} onClick={() => downloadSample(t('lists.sampleFile'))} style={{ alignSelf: 'flex-start', paddingInline: 0 }}>
            {t('importer.sample')}
          </Button>
        </Flex>
      )}
    </Modal>
  );
}
