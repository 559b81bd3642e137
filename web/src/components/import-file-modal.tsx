import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Col, Flex, Modal, Row, Spin, Statistic, Table, Tag, Typography, Upload, theme } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { errorText } from '../api/errors';
import type { ImportReportView } from '../api/types';
import { registerTranslations } from '../i18n';
import { importFileTranslations } from './import-file-modal.i18n';

registerTranslations('importFile', importFileTranslations);

type ImportAction = ImportReportView['rows'][number]['action'];

/** What an import answers, as a preview and once applied (the core's ImportReportView and its plugins' like it). */
export interface ImportFileReport {
  create: number;
  update: number;
  unchanged: number;
  rejected: { row: number; reason: string; firstRow?: number }[];
  rows: ImportReportView['rows'];
}

export interface ImportFileModalProps {
  open: boolean;
  onClose(): void;
  title: string;
  /** Under the drop zone: which files and columns are read. */
  hint: string;
  /** POSTed the file to read it without writing; answers the preview. */
  previewPath: string;
  /** POSTed the same file on confirmation; answers what was written. */
  applyPath: string;
  /** The preview's name, number and e-mail column titles, as the page names them. */
  columnTitles: { name: string; number: string; email: string };
  /** An error's toast; the app's shared rule by default. */
  errorMessage?(err: unknown): string;
  /** Shown below the drop zone (a sample spreadsheet's link). */
  extra?: ReactNode;
}

const ACTION_COLORS: Record<ImportAction, string | undefined> = { create: 'green', update: 'blue', unchanged: undefined, rejected: 'red' };

function formOf(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/**
 * Import contacts from a spreadsheet: pick a file, read the server's preview (what would be
 * created, updated and rejected, and why), then confirm to import it in one go.
 */
export function ImportFileModal({ open, onClose, title, hint, previewPath, applyPath, columnTitles, errorMessage, extra }: ImportFileModalProps) {
  const { t } = useTranslation('importFile');
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportFileReport | null>(null);
  const [busy, setBusy] = useState<'reading' | 'importing' | null>(null);
  const failed = (err: unknown) => void message.error(errorMessage ? errorMessage(err) : errorText(err, t));

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
      setReport(await api.post<ImportFileReport>(previewPath, formOf(picked)));
    } catch (err) {
      failed(err);
      setFile(null);
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    if (!file) return;
    setBusy('importing');
    try {
      const done = await api.post<ImportFileReport>(applyPath, formOf(file));
      void message.success(t('done', { created: done.create, updated: done.update, rejected: done.rejected.length }));
      close();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(null);
    }
  };

  const writes = report ? report.create + report.update : 0;

  // A count shows its colour only when it is not zero.
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
      title={title}
      onCancel={close}
      width={760}
      destroyOnHidden
      footer={
        report
          ? [
              <Button key="another" onClick={reset} disabled={busy !== null}>
                {t('another')}
              </Button>,
              <Button key="confirm" type="primary" loading={busy === 'importing'} disabled={writes === 0} onClick={() => void confirm()}>
                {t('confirm')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('common:actions.cancel')}
              </Button>,
            ]
      }
    >
      {report ? (
        <Flex vertical gap={16} data-testid="import-report">
          <Typography.Text type="secondary">{t('file', { name: file?.name ?? '' })}</Typography.Text>
          <Row gutter={[12, 12]}>
            {counts.map(({ key, value, color }) => (
              <Col key={key} xs={12} sm={6}>
                <Card size="small">
                  <Statistic title={t(key)} value={value} styles={{ content: { color } }} />
                </Card>
              </Col>
            ))}
          </Row>
          {writes === 0 ? <Alert type="warning" showIcon title={t('nothing')} /> : null}
          <div>
            <Typography.Title level={5}>{t('rejectedRows')}</Typography.Title>
            {report.rejected.length === 0 ? (
              <Typography.Text type="secondary">{t('noneRejected')}</Typography.Text>
            ) : (
              <Table
                size="small"
                rowKey="row"
                pagination={false}
                scroll={{ y: 180 }}
                dataSource={report.rejected}
                data-testid="import-rejected"
                columns={[
                  { title: t('row'), dataIndex: 'row', width: 80 },
                  { title: t('reason'), key: 'reason', render: (_, r) => t(`reasons.${r.reason}`, { firstRow: r.firstRow }) },
                ]}
              />
            )}
          </div>
          <div>
            <Typography.Title level={5}>{t('firstRows')}</Typography.Title>
            <Table
              size="small"
              rowKey="row"
              pagination={false}
              scroll={{ x: 560, y: 220 }}
              dataSource={report.rows}
              columns={[
                { title: t('row'), dataIndex: 'row', width: 64 },
                { title: columnTitles.name, dataIndex: 'name', ellipsis: true },
                { title: columnTitles.number, dataIndex: 'number', ellipsis: true },
                { title: columnTitles.email, dataIndex: 'email', ellipsis: true },
                {
                  title: t('action'),
                  dataIndex: 'action',
                  width: 130,
                  render: (action: ImportAction) => <Tag color={ACTION_COLORS[action]}>{t(`actions.${action}`)}</Tag>,
                },
              ]}
            />
          </div>
        </Flex>
      ) : (
        <Flex vertical gap={12}>
          <Spin spinning={busy === 'reading'} description={t('reading')}>
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
              <p className="ant-upload-text">{t('drop')}</p>
              <p className="ant-upload-hint">{hint}</p>
            </Upload.Dragger>
          </Spin>
          {extra}
        </Flex>
      )}
    </Modal>
  );
}
