import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ModalFooterProps {
  onCancel(): void;
  onSave(): void;
  /** A save under way: Cancel is disabled, Save spins. */
  saving: boolean;
  /** The record still loading: Save waits. */
  loading: boolean;
  /** Save's text; common:actions.save by default. */
  saveLabel?: string;
}

/** A form modal's Cancel and Save buttons. */
export function ModalFooter({ onCancel, onSave, saving, loading, saveLabel }: ModalFooterProps) {
  const { t } = useTranslation();
  return (
    <>
      <Button onClick={onCancel} disabled={saving}>
        {t('common:actions.cancel')}
      </Button>
      <Button type="primary" loading={saving} disabled={loading} onClick={onSave}>
        {saveLabel ?? t('common:actions.save')}
      </Button>
    </>
  );
}
