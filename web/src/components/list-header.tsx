import type { ReactNode } from 'react';
import { Button, Flex, Grid, Input, Typography, theme } from 'antd';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';

export interface ListHeaderProps {
  title: string;
  /** The search box; its placeholder is also its accessible name. */
  search?: { value: string; onChange(value: string): void; placeholder: string };
  /** The primary add button; absent, there is none. `shortLabel` is its text on a phone (the label stays its name). */
  add?: { label: string; shortLabel?: string; onClick(): void };
  /** More buttons, before the add button; they widen the tools and wrap them under the search box on a phone. */
  extra?: ReactNode;
}

/** A list page's header: its title, then the search box and the add button (the tools take the whole row on a phone). */
export function ListHeader({ title, search, add, extra }: ListHeaderProps) {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const wide = extra !== undefined;

  const addButton = add ? (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={add.onClick}
      aria-label={add.shortLabel === undefined ? undefined : add.label}
      style={wide && compact ? { flex: 1 } : undefined}
    >
      {compact && add.shortLabel !== undefined ? add.shortLabel : add.label}
    </Button>
  ) : null;

  const searchBox = search ? (
    <Input
      allowClear
      prefix={<SearchOutlined style={{ color: token.colorTextTertiary }} />}
      placeholder={search.placeholder}
      value={search.value}
      onChange={(e) => search.onChange(e.target.value)}
      aria-label={search.placeholder}
      style={{ flex: wide && compact ? '1 1 100%' : 1, minWidth: 0 }}
    />
  ) : null;

  let tools: ReactNode = addButton;
  if (searchBox && wide) {
    tools = (
      <Flex wrap gap={8} style={{ flex: compact ? '1 1 100%' : '0 1 640px' }}>
        {searchBox}
        <Flex gap={8} style={{ flex: compact ? '1 1 100%' : 'none' }}>
          {extra}
          {addButton}
        </Flex>
      </Flex>
    );
  } else if (searchBox) {
    tools = (
      <Flex gap={8} style={{ flex: compact ? '1 1 100%' : '0 1 420px' }}>
        {searchBox}
        {addButton}
      </Flex>
    );
  }

  return (
    <Flex wrap align="center" gap={12} justify="space-between">
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {tools}
    </Flex>
  );
}
