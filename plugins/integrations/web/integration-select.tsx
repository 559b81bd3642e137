import { useState } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { BotSelect, useApiQuery, type FormFieldProps } from 'atende/web';
import type { IntegrationRecord } from './integration-record';
import { TYPE_LABELS } from './type-logo';
import { useIntegrations } from './use-integrations';

/** The queue integration of a connection (answers while a ticket has no queue) or of a queue: a field of the core's forms. */
export default function IntegrationSelect({ name }: FormFieldProps) {
  const { t } = useTranslation('integrations');
  const [search, setSearch] = useState('');
  const integrations = useIntegrations(search);
  const selected = Form.useWatch(name, Form.useFormInstance()) as number | null | undefined;
  // The linked integration may be beyond the first page: read it so the select shows its name.
  const missing = typeof selected === 'number' && !integrations.items.some((i) => i.id === selected);
  const linked = useApiQuery<IntegrationRecord>(`/queueIntegration/${selected}`, { enabled: missing });
  const items = missing && linked.data ? [linked.data, ...integrations.items] : integrations.items;
  return (
    <BotSelect
      name={name}
      label={t('select.label')}
      hint={t('select.hint')}
      none={t('select.none')}
      empty={t('select.empty')}
      loading={integrations.loading}
      options={items.map((i) => ({ value: i.id, label: `${i.name} (${TYPE_LABELS[i.type]})` }))}
      onSearch={setSearch}
      onEndReached={() => integrations.hasMore && integrations.loadMore()}
      testId="integration-select"
    />
  );
}
