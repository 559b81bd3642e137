import { useEffect, useRef } from 'react';
import { theme, Typography } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../../hooks/use-api-query';
import { pickerLabel, type QuickReply } from './compose-text';

const NO_REPLIES: QuickReply[] = [];

export const PICKER_ID = 'composer-quick-replies';
export const optionId = (index: number) => `${PICKER_ID}-${index}`;

/** The caller's quick replies, fetched again each time the picker opens (they change on another page). */
export function useQuickReplies(open: boolean): QuickReply[] {
  return useApiQuery<QuickReply[]>('/quick-messages/list', { enabled: open }).data ?? NO_REPLIES;
}

interface PickerProps {
  replies: QuickReply[];
  active: number;
  onActive(index: number): void;
  onPick(reply: QuickReply): void;
}

/** The list '/' opens above the input; the input keeps the focus and drives it with the arrow keys. */
export function QuickReplyPicker({ replies, active, onActive, onPick }: PickerProps) {
  const { t } = useTranslation('composer');
  const { token } = theme.useToken();
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    list.current?.querySelector(`#${optionId(active)}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  return (
    <div
      ref={list}
      id={PICKER_ID}
      role="listbox"
      aria-label={t('quickReplies')}
      style={{
        position: 'absolute',
        insetInline: 0,
        bottom: '100%',
        marginBottom: 4,
        maxHeight: 240,
        overflowY: 'auto',
        padding: 4,
        zIndex: token.zIndexPopupBase,
        background: token.colorBgElevated,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowSecondary,
      }}
    >
      {replies.map((reply, index) => (
        <div
          key={reply.id}
          id={optionId(index)}
          role="option"
          aria-selected={index === active}
          // Keeps the focus in the input, so typing goes on after a click.
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => onActive(index)}
          onClick={() => onPick(reply)}
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            padding: '5px 12px',
            cursor: 'pointer',
            borderRadius: token.borderRadiusSM,
            background: index === active ? token.controlItemBgActive : undefined,
          }}
        >
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
            {pickerLabel(reply)}
          </Typography.Text>
          {reply.mediaPath && (
            <Typography.Text type="secondary" ellipsis style={{ maxWidth: '40%', fontSize: token.fontSizeSM }}>
              <PaperClipOutlined style={{ marginInlineEnd: 4 }} />
              {reply.mediaName}
            </Typography.Text>
          )}
        </div>
      ))}
    </div>
  );
}
