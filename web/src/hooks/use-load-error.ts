import { useEffect, useRef } from 'react';
import { App } from 'antd';

/** Toasts a query's failure once, when it happens (a retry that fails again is a new failure). */
export function useLoadError(error: unknown, text: (error: unknown) => string, enabled = true): void {
  const { message } = App.useApp();
  const textRef = useRef(text);
  textRef.current = text;
  useEffect(() => {
    if (!error || !enabled) return;
    void message.error(textRef.current(error));
  }, [error, enabled, message]);
}
