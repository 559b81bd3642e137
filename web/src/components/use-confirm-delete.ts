import { App } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ConfirmDeleteOptions {
  /** The record's name, in the title "Excluir {{name}}?". */
  name: string;
  /** The page's own warning. */
  content: string;
  /** The request (and whatever follows it, e.g. dropping the row). */
  remove(): Promise<unknown>;
  /** The failure's toast text. */
  errorText(err: unknown): string;
  /** The success toast; common:toasts.success by default. */
  successText?: string;
}

/** Asks before deleting (a danger OK button), then deletes and says how it went in a toast. */
export function useConfirmDelete(): (options: ConfirmDeleteOptions) => void {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  return ({ name, content, remove, errorText, successText }) => {
    modal.confirm({
      title: t('common:confirm.deleteTitle', { name }),
      content,
      okText: t('common:actions.delete'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await remove();
          void message.success(successText ?? t('common:toasts.success'));
        } catch (err) {
          void message.error(errorText(err));
        }
      },
    });
  };
}
