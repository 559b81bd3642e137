import type { CSSProperties, ReactNode } from 'react';
import { Badge, Button, Flex, Popover, Tooltip, type PopoverProps } from 'antd';
import type { GlobalToken } from 'antd';

export interface TopBarPopoverProps {
  /** The button's icon; it carries the count's test hooks. */
  icon: ReactNode;
  /** The button's tooltip, and its accessible name unless `label` says more (an unread count). */
  name: string;
  label?: string;
  /** The pop-over's heading. */
  title: string;
  count: number;
  open: boolean;
  onOpenChange(open: boolean): void;
  placement?: PopoverProps['placement'];
  width: number;
  testId: string;
  /** The list (or its empty and loading states). */
  children: ReactNode;
}

/**
 * A top-bar button with a count badge that opens a list in a pop-over (the notifications bell,
 * a plugin's header item). No tooltip over its own open list; narrow screens get a narrower list.
 */
export function TopBarPopover({ icon, name, label = name, title, count, open, onOpenChange, placement = 'bottomRight', width, testId, children }: TopBarPopoverProps) {
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={onOpenChange}
      placement={placement}
      title={title}
      content={<div style={{ width: `min(${width}px, calc(100vw - 44px))` }}>{children}</div>}
    >
      <Tooltip title={open ? null : name}>
        <Button type="text" aria-label={label} data-testid={testId}>
          <Badge count={count} size="small" overflowCount={99}>
            {icon}
          </Badge>
        </Button>
      </Tooltip>
    </Popover>
  );
}

/** The scrolling list inside a top-bar pop-over. */
export function TopBarList({ maxHeight, testId, children }: { maxHeight: CSSProperties['maxHeight']; testId: string; children: ReactNode }) {
  return (
    <Flex vertical style={{ maxHeight, overflowY: 'auto', marginInline: -4 }} data-testid={testId}>
      {children}
    </Flex>
  );
}

/** One row of a top-bar list, a button or a link reset to look like a list item. */
export function topBarRowStyle(token: GlobalToken, padding: string): CSSProperties {
  return {
    display: 'flex',
    gap: 10,
    padding,
    width: '100%',
    background: 'none',
    border: 'none',
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
    color: 'inherit',
    font: 'inherit',
    textAlign: 'start',
    cursor: 'pointer',
  };
}
