import { useTranslation } from 'react-i18next';
import { ImportFileModal } from '../../components/import-file-modal';
import { contactErrorText } from './contact-errors';

export interface ImportModalProps {
  open: boolean;
  onClose(): void;
}

/** Import the company's contacts from a spreadsheet: preview, then confirm. */
export function ImportModal({ open, onClose }: ImportModalProps) {
  const { t } = useTranslation('contacts');
  return (
    <ImportFileModal
      open={open}
      onClose={onClose}
      title={t('importer.title')}
      hint={t('importer.hint')}
      previewPath="/contacts/import/preview"
      applyPath="/contacts/import/file"
      columnTitles={{ name: t('columns.name'), number: t('columns.number'), email: t('columns.email') }}
      errorMessage={(err) => contactErrorText(err, t)}
    />
  );
}
