import { useState } from 'react';
import { App, type FormInstance } from 'antd';
import { api, ApiError } from '../api/client';
import { ErrorCode } from '../api/errors';
import { useSubmitGuard } from './use-submit-guard';

/** The file of a record's attachment field, sent to `<path>/<id>/media-upload` once the record is saved. */
export interface PendingAttachment {
  /** A file chosen to upload, or null. */
  file: File | null;
  /** The stored file was removed: it is deleted when no new file replaces it. */
  removeStored: boolean;
  /** Form fields sent before the file (the quick messages' `typeArch`). */
  fields?: Record<string, string>;
}

export interface SaveRecordOptions<T> {
  /** The collection: POST `path` creates, PUT `path/<id>` updates. */
  path: string;
  form: FormInstance;
  /** The form's fields a 400 ERR_VALIDATION may name: its issues about them show under them, not as a toast. */
  fields?: readonly string[];
  /** The record being edited when the dialog mounts (null creates). */
  recordId?: number | null;
  /** A failure's toast text. */
  errorText(err: unknown): string;
  /** The toast once everything is saved. */
  savedText: string;
  /** After the toast (usually closing the dialog). */
  onSaved(record: T): void;
}

export interface SaveOptions<T> {
  attachment?: PendingAttachment;
  /** Another step once the record is saved (another kind of upload); its answer is the record saved. */
  afterSave?(saved: T): Promise<T>;
}

export interface SaveRecord<T> {
  /** Busy at least SUBMIT_GUARD_MS (useSubmitGuard). */
  saving: boolean;
  /** Starts over on opening: the record shown, or null so the next save creates. */
  startFrom(recordId: number | null): void;
  /** Creates or updates the record with `body`, then its attachment or `afterSave`. */
  submit(body: object, options?: SaveOptions<T>): Promise<void>;
}

/** A 400 ERR_VALIDATION about the given fields, as a form's field errors (null for any other failure). */
function fieldErrors(err: unknown, fields: readonly string[]): { name: string; errors: string[] }[] | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.ERR_VALIDATION) return null;
  const issues = (err.details?.issues ?? []) as { path: string; message: string }[];
  const known = issues.filter((i) => fields.includes(i.path));
  return known.length > 0 ? known.map((i) => ({ name: i.path, errors: [i.message] })) : null;
}

/**
 * The save of a dialog whose record has an attachment: POST or PUT the record, then upload (or
 * delete) its file. The saved id is kept, so when the upload fails after creating, saving again
 * updates that record instead of making a copy. One place for what every such dialog does alike.
 */
export function useSaveRecord<T extends { id: number; mediaName?: string | null }>(options: SaveRecordOptions<T>): SaveRecord<T> {
  const { path, form, fields = [], errorText, savedText, onSaved } = options;
  const { message } = App.useApp();
  const [savedId, setSavedId] = useState<number | null>(options.recordId ?? null);
  const { saving, guard } = useSubmitGuard(errorText);

  const save = async (body: object, { attachment, afterSave }: SaveOptions<T>): Promise<T | null> => {
    let saved: T;
    try {
      saved = savedId === null ? await api.post<T>(path, body) : await api.put<T>(`${path}/${savedId}`, body);
    } catch (err) {
      const errors = fieldErrors(err, fields);
      if (!errors) throw err;
      form.setFields(errors);
      return null;
    }
    setSavedId(saved.id);
    if (afterSave) return afterSave(saved);
    if (attachment?.file) {
      const data = new FormData();
      for (const [name, value] of Object.entries(attachment.fields ?? {})) data.set(name, value);
      data.set('file', attachment.file);
      return api.post<T>(`${path}/${saved.id}/media-upload`, data);
    }
    if (attachment?.removeStored && saved.mediaName) return api.delete<T>(`${path}/${saved.id}/media-upload`);
    return saved;
  };

  const submit = (body: object, saveOptions: SaveOptions<T> = {}) =>
    guard(
      () => save(body, saveOptions),
      (saved) => {
        // null: the server's validation errors are under their fields; the dialog stays open.
        if (!saved) return;
        void message.success(savedText);
        onSaved(saved);
      },
    );

  return { saving, startFrom: setSavedId, submit };
}
