import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Choices } from '../users/use-user-choices';
import { ColorChip } from '../../components/color-chip';

interface QueueFieldProps {
  name: 'queueIds' | 'transferQueueId';
  label: string;
  queues: Choices;
  multiple?: boolean;
  placeholder?: string;
}

/**
 * A select of the company's queues. While they load, or on a server without queues (404), an empty
 * disabled select stands in and the form keeps the value it had.
 */
export function QueueField({ name, label, queues, multiple, placeholder }: QueueFieldProps) {
  const { t } = useTranslation('connections');
  const ready = queues.status === 'ready';
  const colorOf = (id: unknown) => queues.items.find((q) => q.id === id)?.color;
  return (
    <>
      <Form.Item name={name} label={label} hidden={!ready}>
        <Select
          mode={multiple ? 'multiple' : undefined}
          allowClear
          placeholder={placeholder}
          optionFilterProp="label"
          options={queues.items.map((q) => ({ value: q.id, label: q.name }))}
          tagRender={({ value, label: text, onClose, closable }) => (
            <ColorChip color={colorOf(value)} closable={closable} onClose={onClose} style={{ marginInlineEnd: 4 }}>
              {text}
            </ColorChip>
          )}
        />
      </Form.Item>
      {ready ? null : (
        <Form.Item label={label}>
          <Select
            disabled
            mode={multiple ? 'multiple' : undefined}
            loading={queues.status === 'loading'}
            placeholder={queues.status === 'unavailable' ? t('modal.unavailable') : undefined}
            aria-label={label}
          />
        </Form.Item>
      )}
    </>
  );
}
