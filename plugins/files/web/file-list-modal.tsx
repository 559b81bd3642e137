import { App, Button, Flex, Form, Input, Modal, Spin, Tooltip, Typography, theme } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, AttachmentField, errorText, ModalFooter, useLoadOnOpen, useSaveRecord } from 'atende/web';
import { UPLOAD_BATCH, type FileListRecord } from './file-list-record';

export interface FileListModalProps {
  open: boolean;
  /** null adds a list. */
  fileListId: number | null;
  onClose(): void;
}

/** An option's file in the form: the stored one's name, or a file chosen to upload on save. */
interface Attachment {
  mediaName: string | null;
  file?: File;
}

interface OptionValues {
  id?: number;
  name: string;
  attachment: Attachment;
}

interface FormValues {
  name: string;
  message: string;
  options: OptionValues[];
}

const FIELDS = ['name', 'message'] as const;
const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** The chosen files of the saved options, uploaded as the spec's client does, UPLOAD_BATCH a request. */
async function uploadFiles(saved: FileListRecord, options: OptionValues[]): Promise<FileListRecord> {
  const pending = options.flatMap((o, index) => (o.attachment.file ? [{ option: saved.options[index]!, file: o.attachment.file }] : []));
  let latest = saved;
  for (let start = 0; start < pending.length; start += UPLOAD_BATCH) {
    const data = new FormData();
    data.set('fileId', String(saved.id));
    data.set('typeArch', 'fileList');
    for (const { option, file } of pending.slice(start, start + UPLOAD_BATCH)) {
      data.append('files', file);
      data.append('mediaType', file.type);
      data.append('name', option.name);
      data.append('id', String(option.id));
    }
    latest = await api.post<FileListRecord>(`/files/uploadList/${saved.id}`, data);
  }
  return latest;
}

/** Add or edit a file list: its name, its message and its files (each named; add, rename, replace, remove). */
export function FileListModal({ open, fileListId, onClose }: FileListModalProps) {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const [form] = Form.useForm<FormValues>();
  const { saving, startFrom, submit: save } = useSaveRecord<FileListRecord>({
    path: '/files',
    form,
    fields: FIELDS,
    errorText: (err) => errorText(err, t),
    savedText: t('modal.saved'),
    onSaved: onClose,
  });

  const loading = useLoadOnOpen<FileListRecord>({
    open,
    path: fileListId === null ? null : `/files/${fileListId}`,
    onOpen: () => {
      form.resetFields();
      form.setFieldsValue({ name: '', message: '', options: [] });
      startFrom(fileListId);
    },
    onLoad: (list) =>
      form.setFieldsValue({
        name: list.name,
        message: list.message,
        options: list.options.map((o) => ({ id: o.id, name: o.name, attachment: { mediaName: o.mediaName } })),
      }),
    errorText: (err) => errorText(err, t),
    onClose,
  });

  const submit = (values: FormValues) => {
    const options = values.options ?? [];
    const body = {
      name: values.name.trim(),
      message: values.message.trim(),
      options: options.map((o) => ({ ...(o.id !== undefined && { id: o.id }), name: o.name.trim() })),
    };
    return save(body, {
      afterSave: (saved) => {
        // Should an upload fail, saving again keeps these options rather than making new ones.
        saved.options.forEach((o, index) => form.setFieldValue(['options', index, 'id'], o.id));
        return uploadFiles(saved, options);
      },
    });
  };

  return (
    <Modal
      open={open}
      title={t(fileListId === null ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      destroyOnHidden
      width={600}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="fileList" layout="vertical" onFinish={submit} disabled={saving} requiredMark={false}>
          <Form.Item
            name="name"
            label={t('modal.name')}
            rules={[
              { required: true, whitespace: true, message: t('validation.required') },
              { min: 3, transform: trim, message: t('validation.nameTooShort') },
            ]}
          >
            <Input maxLength={100} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="message"
            label={t('modal.message')}
            extra={t('modal.messageHint')}
            rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
          >
            <Input.TextArea rows={4} maxLength={4096} style={{ resize: 'vertical' }} />
          </Form.Item>
          <Typography.Text strong>{t('modal.options')}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {t('modal.optionsHint')}
          </Typography.Paragraph>
          <Form.List name="options">
            {(fields, { add, remove, move }) => (
              <Flex vertical gap={8}>
                {fields.length === 0 ? <Typography.Text type="secondary">{t('modal.noOptions')}</Typography.Text> : null}
                {fields.map((field, index) => (
                  <Flex
                    key={field.key}
                    vertical
                    gap={8}
                    data-testid="file-option"
                    style={{ padding: 8, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }}
                  >
                    <Flex gap={4} align="flex-start">
                      <Form.Item
                        name={[field.name, 'name']}
                        rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
                        style={{ flex: 1, minWidth: 0, marginBottom: 0 }}
                      >
                        <Input placeholder={t('modal.optionPlaceholder')} aria-label={t('modal.optionName', { index: index + 1 })} maxLength={100} />
                      </Form.Item>
                      <Tooltip title={t('modal.moveUp', { index: index + 1 })}>
                        <Button
                          type="text"
                          icon={<ArrowUpOutlined />}
                          aria-label={t('modal.moveUp', { index: index + 1 })}
                          disabled={index === 0}
                          onClick={() => move(index, index - 1)}
                        />
                      </Tooltip>
                      <Tooltip title={t('modal.moveDown', { index: index + 1 })}>
                        <Button
                          type="text"
                          icon={<ArrowDownOutlined />}
                          aria-label={t('modal.moveDown', { index: index + 1 })}
                          disabled={index === fields.length - 1}
                          onClick={() => move(index, index + 1)}
                        />
                      </Tooltip>
                      <Tooltip title={t('modal.removeOption', { index: index + 1 })}>
                        <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('modal.removeOption', { index: index + 1 })} onClick={() => remove(field.name)} />
                      </Tooltip>
                    </Flex>
                    <Form.Item
                      name={[field.name, 'attachment']}
                      rules={[
                        {
                          validator: (_, value?: Attachment) =>
                            value?.file || value?.mediaName ? Promise.resolve() : Promise.reject(new Error(t('validation.required'))),
                        },
                      ]}
                      style={{ marginBottom: 0 }}
                    >
                      <OptionFile
                        onPicked={(file) => {
                          // An option not named yet takes its file's name, without the extension.
                          const path = ['options', field.name, 'name'] as ['options', number, 'name'];
                          if (!String(form.getFieldValue(path) ?? '').trim()) form.setFieldValue(path, file.name.replace(/\.[^.]+$/, '').slice(0, 100));
                        }}
                        onTooLarge={() => void message.error(t('validation.tooLarge'))}
                        disabled={saving}
                      />
                    </Form.Item>
                  </Flex>
                ))}
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', attachment: { mediaName: null } })} block>
                  {t('modal.addOption')}
                </Button>
              </Flex>
            )}
          </Form.List>
        </Form>
      </Spin>
    </Modal>
  );
}

/** An option's file as a form control: the shared attachment field, its value the stored name or a chosen file. */
function OptionFile({
  value,
  onChange,
  onPicked,
  onTooLarge,
  disabled,
}: {
  value?: Attachment;
  onChange?: (value: Attachment) => void;
  onPicked(file: File): void;
  onTooLarge(): void;
  disabled: boolean;
}) {
  const { t } = useTranslation('files');
  return (
    <AttachmentField
      fileName={value?.file?.name ?? value?.mediaName ?? null}
      onPick={(file) => {
        onChange?.({ mediaName: value?.mediaName ?? null, file });
        onPicked(file);
      }}
      onTooLarge={onTooLarge}
      onRemove={() => onChange?.({ mediaName: null })}
      labels={{ attach: t('modal.attach'), replace: t('modal.replace'), remove: t('modal.removeFile') }}
      disabled={disabled}
    />
  );
}
