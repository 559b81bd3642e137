import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FormFieldProps } from 'atende/web';
import { usePrompts } from './use-prompts';

/** The AI prompt of a connection (answers while a ticket has no queue) or of a queue: a field of the core's forms. */
export default function PromptSelect({ name }: FormFieldProps) {
  const { t } = useTranslation('prompts');
  const prompts = usePrompts();
  return (
    <Form.Item name={name} label={t('select.label')} extra={t('select.hint')}>
      <Select
        allowClear
        loading={prompts.loading}
        placeholder={t('select.none')}
        notFoundContent={t('select.empty')}
        options={prompts.items.map((p) => ({ value: p.id, label: p.name }))}
        data-testid="prompt-select"
        aria-label={t('select.label')}
      />
    </Form.Item>
  );
}
