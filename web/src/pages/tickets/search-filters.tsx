import { Flex, Input, Select } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useChoices } from './use-choices';
import { ColorChip } from '../../components/color-chip';

export interface SearchFiltersValue {
  text: string;
  tags: number[];
  users: number[];
}

export interface SearchFiltersProps {
  value: SearchFiltersValue;
  onChange(value: SearchFiltersValue): void;
  /** Admins also filter by user. */
  byUser: boolean;
}

const pickUsers = (answer: unknown) => (answer as { users: { id: number; name: string }[] }).users;

/** The search tab's text box, tag filter and (admins) user filter. */
export function SearchFilters({ value, onChange, byUser }: SearchFiltersProps) {
  const { t } = useTranslation('tickets');
  const tags = useChoices('/tags/list', true);
  const users = useChoices('/users/list', byUser, pickUsers);

  return (
    <Flex vertical gap={8} style={{ padding: '8px 12px 0' }}>
      <Input
        autoFocus
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('searchPlaceholder')}
        aria-label={t('searchPlaceholder')}
        value={value.text}
        onChange={(e) => onChange({ ...value, text: e.target.value })}
      />
      <Flex gap={8} wrap>
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          placeholder={t('tagsFilter')}
          aria-label={t('tagsFilter')}
          loading={!tags.ready}
          value={value.tags}
          onChange={(ids: number[]) => onChange({ ...value, tags: ids })}
          options={tags.items.map((tag) => ({ value: tag.id, label: tag.name, color: tag.color }))}
          optionRender={(option) => <ColorChip color={option.data.color}>{option.data.label}</ColorChip>}
          showSearch={{ optionFilterProp: 'label' }}
          style={{ flex: '1 1 160px', minWidth: 0 }}
        />
        {byUser ? (
          <Select
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            placeholder={t('usersFilter')}
            aria-label={t('usersFilter')}
            loading={!users.ready}
            value={value.users}
            onChange={(ids: number[]) => onChange({ ...value, users: ids })}
            options={users.items.map((user) => ({ value: user.id, label: user.name }))}
            showSearch={{ optionFilterProp: 'label' }}
            style={{ flex: '1 1 160px', minWidth: 0 }}
          />
        ) : null}
      </Flex>
    </Flex>
  );
}
