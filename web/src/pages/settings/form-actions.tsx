import type { ReactNode } from 'react';
import { Button, Popconfirm, Space, Typography } from 'antd';
import { ClearOutlined, DeleteOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface FormActionsProps {
  /** Whether a record from the table is loaded (Excluir needs one). */
  editing: boolean;
  /** The action under way ('save', 'delete', …), or null. */
  busy: string | null;
  onClear(): void;
  onDelete(): void;
  /** Buttons shown between Excluir and Salvar (the company form's '+ Vencimento' and Usuário). */
  children?: ReactNode;
}

/** Limpar, Excluir (after a confirmation) and Salvar, shared by the record forms of the super tabs. */
export function FormActions({ editing, busy, onClear, onDelete, children }: FormActionsProps) {
  const { t } = useTranslation('settings');
  return (
    <Space wrap style={{ width: '100%', justifyContent: 'flex-end' }}>
      <Button icon={<ClearOutlined />} onClick={onClear} disabled={busy !== null}>
        {t('form.clear')}
      </Button>
      <Popconfirm
        title={t('form.deleteConfirm')}
        description={t('form.deleteConfirmHint')}
        okText={t('form.delete')}
        cancelText={t('common:actions.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={onDelete}
        disabled={!editing || busy !== null}
      >
        <Button danger icon={<DeleteOutlined />} disabled={!editing || busy !== null} loading={busy === 'delete'}>
          {t('form.delete')}
        </Button>
      </Popconfirm>
      {children}
      <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={busy === 'save'} disabled={busy !== null && busy !== 'save'}>
        {t('form.save')}
      </Button>
    </Space>
  );
}

/** The line above a record form: which record it edits, or that it creates one. */
export function FormHeading({ name }: { name: string | null }) {
  const { t } = useTranslation('settings');
  return (
    <Typography.Title level={5} style={{ marginTop: 0 }} data-testid="form-heading">
      {name === null ? t('form.creating') : t('form.editing', { name })}
    </Typography.Title>
  );
}
