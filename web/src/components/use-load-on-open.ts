import { useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { api } from '../api/client';

export interface LoadOnOpenOptions<T> {
  open: boolean;
  /** The record's API path, e.g. `/tags/3`; null (a new record) loads nothing. */
  path: string | null;
  /** Called each time the modal opens, before loading (reset the form here). */
  onOpen(): void;
  /** The loaded record, to put in the form. */
  onLoad(record: T): void;
  /** The failure's toast text; the modal then closes. */
  errorText(err: unknown): string;
  onClose(): void;
}

/**
 * An edit modal's record, fetched each time it opens (the request is dropped if it closes first);
 * answers whether it is loading. The callbacks may change on every render.
 */
export function useLoadOnOpen<T>({ open, path, ...callbacks }: LoadOnOpenOptions<T>): boolean {
  const { message } = App.useApp();
  const [loading, setLoading] = useState(false);
  const ref = useRef(callbacks);
  ref.current = callbacks;

  useEffect(() => {
    if (!open) return;
    ref.current.onOpen();
    if (path === null) return;
    const controller = new AbortController();
    setLoading(true);
    api
      .get<T>(path, undefined, { signal: controller.signal })
      .then((record) => ref.current.onLoad(record))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        void message.error(ref.current.errorText(err));
        ref.current.onClose();
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [open, path, message]);

  return loading;
}
