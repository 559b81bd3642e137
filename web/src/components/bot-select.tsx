import { Form, Select } from 'antd';

export interface BotSelectProps {
  /** The form field (`promptId`, `integrationId`) the core's form loads and sends. */
  name: string;
  label: string;
  hint: string;
  /** The placeholder when no bot is chosen. */
  none: string;
  /** The list's text when the company has no bot of this kind. */
  empty: string;
  options: { value: number; label: string }[];
  loading: boolean;
  /** A list searched on the server (a long, paged one); absent, the options are all there. */
  onSearch?(text: string): void;
  /** The list scrolled near its end: load its next page. */
  onEndReached?(): void;
  testId: string;
}

/**
 * Which bot answers on a connection or in a queue: the field bot plugins add to the core's forms
 * (`formFields`), cleared to none. One look for every kind of bot (AI prompts, queue integrations).
 */
export function BotSelect({ name, label, hint, none, empty, options, loading, onSearch, onEndReached, testId }: BotSelectProps) {
  return (
    <Form.Item name={name} label={label} extra={hint}>
      <Select
        allowClear
        showSearch={onSearch ? { filterOption: false, onSearch } : { optionFilterProp: 'label' }}
        loading={loading}
        placeholder={none}
        notFoundContent={empty}
        options={options}
        onPopupScroll={(e) => {
          const el = e.currentTarget;
          if (onEndReached && el.scrollTop + el.clientHeight >= el.scrollHeight - 40) onEndReached();
        }}
        data-testid={testId}
        aria-label={label}
      />
    </Form.Item>
  );
}
