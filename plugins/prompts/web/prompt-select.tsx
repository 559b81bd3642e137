import { useTranslation } from 'react-i18next';
import { BotSelect, type FormFieldProps } from 'atende/web';
import { usePrompts } from './use-prompts';

/** The AI prompt of a connection (answers while a ticket has no queue) or of a queue: a field of the core's forms. */
export default function PromptSelect({ name }: FormFieldProps) {
  const { t } = useTranslation('prompts');
  const prompts = usePrompts();
  return (
    <BotSelect
      name={name}
      label={t('select.label')}
      hint={t('select.hint')}
      none={t('select.none')}
      empty={t('select.empty')}
      loading={prompts.loading}
      options={prompts.items.map((p) => ({ value: p.id, label: p.name }))}
      testId="prompt-select"
    />
  );
}
