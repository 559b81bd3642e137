import { useCallback, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';

export interface Action {
  /** The name of the action under way (e.g. 'save', 'delete'), or null. */
  busy: string | null;
  /** Runs `work`, shows a failure through the spec's error rule, answers whether it succeeded. */
  run(name: string, work: () => Promise<void>): Promise<boolean>;
}

/** One write at a time per form, with its failure shown as a toast. */
export function useAction(): Action {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const run = useCallback(
    async (name: string, work: () => Promise<void>) => {
      setBusy(name);
      try {
        await work();
        return true;
      } catch (err) {
        void message.error(errorText(err, t));
        return false;
      } finally {
        setBusy(null);
      }
    },
    [message, t],
  );
  return { busy, run };
}
