import { useState } from 'react';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery, type FormFieldProps } from 'atende/web';
import type { IntegrationRecord } from './integration-record';
import { TYPE_LABELS } from './type-logo';
import { useIntegrations } from './use-integrations';

/** The queue integration of a connection (answers while a ticket has no queue) or of a queue: a field of the core's forms. */
export default function IntegrationSelect({ name }: FormFieldProps) {
  const { t } = useTranslation('integrations');
  const [search, setSearch] = useState('');
  const integrations = useIntegrations(search);
  const form = Form.useFormInstance();
  const selected = Form.useWatch(name, form) as number | null | undefined;
  // The linked integration may be beyond the first page: read it so the select shows its name.
  const missing = typeof selected === 'number' && !integrations.items.some((i) => i.id === selected);
  const linked = useApiQuery<IntegrationRecord>(`/queueIntegration/${selected}`, { enabled: missing });
  const items = missing && linked.data ? [linked.data, ...integrations.items] : integrations.items;
  return (
    <Form.Item name={name} label={t('select.label')} extra={t('select.hint')}>
      <Select
        allowClear
        showSearch={{ filterOption: false, onSearch: setSearch }}
        loading={integrations.loading}
        placeholder={t('select.none')}
        notFoundContent={t('select.empty')}
        options={items.map((i) => ({ value: i.id, label: `${i.name} (${TYPE_LABELS[i.type]})` }))}
        onPopupScroll={(e) => {
          const el = e.currentTarget;
          if (integrations.hasMore && el.scrollTop + el.clientHeight >= el.scrollHeight - 40) integrations.loadMore();
        }}
        data-testid="integration-select"
        aria-label={t('select.label')}
      />
    </Form.Item>
  );
}
