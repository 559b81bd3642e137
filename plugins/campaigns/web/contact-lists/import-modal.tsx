import { Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ImportFileModal } from 'atende/web';
import { downloadSample } from './contact-list-record';

export interface ImportModalProps {
  open: boolean;
  contactListId: number;
  listName: string;
  onClose(): void;
}

/**
 * Import a spreadsheet into a list: the file is read by the server with ?dryRun=true (what would be
 * created, updated and rejected, and why; nothing changes), then applied on confirmation.
 */
export function ImportModal({ open, contactListId, listName, onClose }: ImportModalProps) {
  const { t } = useTranslation('campaigns');
  const path = `/contact-lists/${contactListId}/upload`;
  return (
    <ImportFileModal
      open={open}
      onClose={onClose}
      title={t('importer.title', { name: listName })}
      hint={t('importer.hint')}
      previewPath={`${path}?dryRun=true`}
      applyPath={path}
      columnTitles={{ name: t('items.columns.name'), number: t('items.columns.number'), email: t('items.columns.email') }}
      extra={
        <Button type="link" icon={<DownloadOutlined />} onClick={() => downloadSample(t('lists.sampleFile'))} style={{ alignSelf: 'flex-start', paddingInline: 0 }}>
          {t('importer.sample')}
        </Button>
      }
    />
  );
}
