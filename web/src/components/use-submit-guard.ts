import { useState } from 'react';
import { App } from 'antd';

/** The spec's form submit delay: the button stays busy at least this long. */
export const SUBMIT_GUARD_MS = 400;

const wait = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

export interface SubmitGuard {
  saving: boolean;
  /**
   * Runs `work` while `saving`, for SUBMIT_GUARD_MS at least; then hands its result to `done`, or
   * shows its failure as a toast.
   */
  guard<T>(work: () => Promise<T>, done: (result: T) => void): Promise<void>;
}

/** A form's save: busy at least SUBMIT_GUARD_MS, failures shown through `errorText`. */
export function useSubmitGuard(errorText: (err: unknown) => string): SubmitGuard {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const guard = async <T,>(work: () => Promise<T>, done: (result: T) => void) => {
    setSaving(true);
    try {
      const [result] = await Promise.all([work(), wait(SUBMIT_GUARD_MS)]);
      done(result);
    } catch (err) {
      void message.error(errorText(err));
    } finally {
      setSaving(false);
    }
  };
  return { saving, guard };
}
