import { useState } from 'react';
import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { LiveRecords } from '../../hooks/use-live-records';
import { useAction } from './use-action';

export interface RecordFormOptions<R extends { id: number }, F> {
  form: FormInstance<F>;
  records: LiveRecords<R>;
  /** The records' REST path (`/plans`): DELETE goes to `${path}/${id}`. */
  path: string;
  /** The form's values of a record picked in the table (the record itself by default). */
  toForm?(record: R): Partial<F>;
  /** What a cleared form holds besides its initial values (a new plan's flags). */
  blank?(): Partial<F>;
}

export interface RecordForm<R> {
  /** The record picked in the table, or null while the form creates one. */
  editing: R | null;
  busy: string | null;
  clear(): void;
  select(record: R): void;
  /** Runs `write` (the POST or PUT of the form), keeps its answer in the table, says 'saved' and clears. */
  save(write: (editing: R | null) => Promise<R>): Promise<boolean>;
  /** Deletes the record being edited, after the form's own confirmation. */
  remove(): Promise<boolean>;
}

/**
 * The super tabs' record form beside its table (Planos, Ajuda, Empresas): pick a row to edit it,
 * Limpar to create, Salvar and Excluir with their toasts, the table kept in step.
 */
export function useRecordForm<R extends { id: number }, F>({ form, records, path, toForm, blank }: RecordFormOptions<R, F>): RecordForm<R> {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [editing, setEditing] = useState<R | null>(null);
  const { busy, run } = useAction();

  const clear = () => {
    setEditing(null);
    form.resetFields();
    if (blank) form.setFieldsValue(blank() as Parameters<typeof form.setFieldsValue>[0]);
  };

  const select = (record: R) => {
    setEditing(record);
    form.resetFields();
    form.setFieldsValue((toForm ? toForm(record) : record) as Parameters<typeof form.setFieldsValue>[0]);
  };

  const save = (write: (editing: R | null) => Promise<R>) =>
    run('save', async () => {
      records.upsert(await write(editing));
      void message.success(t('form.saved'));
      clear();
    });

  const remove = () =>
    run('delete', async () => {
      if (!editing) return;
      await api.delete(`${path}/${editing.id}`);
      records.drop(editing.id);
      void message.success(t('form.deleted'));
      clear();
    });

  return { editing, busy, clear, select, save, remove };
}
