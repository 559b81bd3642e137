import { useEffect, useState } from 'react';
import { App, Select, theme } from 'antd';
import { CloseOutlined, TagsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import type { Ticket } from '../../../api/types';
import { ColorChip } from '../../../components/color-chip';
import { useApiQuery } from '../../../hooks/use-api-query';

type TicketTag = Ticket['tags'][number];

/** The ticket's tags, picked from the company's tags (POST /tags/sync sends the whole set). */
export function TagEditor({ ticket, disabled }: { ticket: Ticket; disabled: boolean }) {
  const { t } = useTranslation('conversation');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const [selected, setSelected] = useState<number[]>(() => ticket.tags.map((tag) => tag.id));
  const [saving, setSaving] = useState(false);
  const ticketTags = ticket.tags.map((tag) => tag.id).join(',');

  // A live update of the ticket (another user's edit) replaces the selection.
  useEffect(() => {
    setSelected(ticketTags ? ticketTags.split(',').map(Number) : []);
  }, [ticketTags]);

  const all = useApiQuery<TicketTag[]>('/tags/list', { enabled: !disabled, failureText: (err) => errorText(err, t) }).data ?? [];

  const known = new Map([...ticket.tags, ...all].map((tag) => [tag.id, tag]));

  const change = (ids: number[]) => {
    const before = selected;
    setSelected(ids);
    setSaving(true);
    api
      .post('/tags/sync', { ticketId: ticket.id, tags: ids.map((id) => ({ id })) })
      .catch((err: unknown) => {
        setSelected(before);
        void message.error(errorText(err, t));
      })
      .finally(() => setSaving(false));
  };

  return (
    <div style={{ padding: '6px 12px', borderBottom: `1px solid ${token.colorBorderSecondary}`, background: token.colorBgContainer }}>
      <Select
        mode="multiple"
        value={selected}
        onChange={change}
        disabled={disabled}
        loading={saving}
        variant="borderless"
        prefix={<TagsOutlined style={{ color: token.colorTextTertiary }} />}
        placeholder={t('tags.placeholder')}
        aria-label={t('tags.label')}
        data-testid="tag-editor"
        style={{ width: '100%' }}
        showSearch={{ optionFilterProp: 'label' }}
        options={[...known.values()].map((tag) => ({ value: tag.id, label: tag.name }))}
        optionRender={(option) => <ColorChip color={known.get(Number(option.value))?.color}>{option.label}</ColorChip>}
        tagRender={({ value, closable, onClose }) => {
          const tag = known.get(Number(value));
          return (
            // The close mark takes the chip's own colour: the theme's grey vanishes on a light chip in dark mode.
            <ColorChip
              color={tag?.color}
              closable={closable}
              closeIcon={<CloseOutlined style={{ color: 'inherit' }} />}
              onClose={onClose}
              style={{ marginInlineEnd: 4 }}
            >
              {tag?.name ?? value}
            </ColorChip>
          );
        }}
      />
    </div>
  );
}
