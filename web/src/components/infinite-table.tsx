import { useEffect, useRef, type CSSProperties } from 'react';
import { Empty, Table, theme, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { nearBottom } from '../hooks/use-paged-list';

/** Room for the top bar, the page header and the padding around the table. */
const TABLE_HEIGHT = 'calc(100dvh - 230px)';

export interface InfiniteTableProps<T> {
  columns: TableColumnsType<T>;
  items: T[];
  loading: boolean;
  /** Small rows (a phone). */
  compact: boolean;
  testId: string;
  /** Shown when there are no rows; common:list.empty by default. */
  emptyText?: string;
  /** Whether the body scrolls inside the page's height (the default) or grows with its rows. */
  scrollBody?: boolean;
  /** Page by page: the next page loads near the bottom, and on until the body scrolls. */
  paging?: { hasMore: boolean; loadMore(): void };
  /** A row's own look (an overdue invoice in red). */
  rowStyle?(item: T): CSSProperties | undefined;
}

/** A bordered, fixed-layout table of records with an id, scrolled within the page and fed page by page when paged. */
export function InfiniteTable<T extends { id: number }>({ columns, items, loading, compact, testId, emptyText, scrollBody = true, paging, rowStyle }: InfiniteTableProps<T>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const wrapper = useRef<HTMLDivElement>(null);
  const hasMore = paging?.hasMore ?? false;
  const loadMore = paging?.loadMore;

  // A tall screen may show the whole first page without a scroll bar: fetch on until it scrolls.
  useEffect(() => {
    const body = wrapper.current?.querySelector('.ant-table-body');
    if (body && loadMore && !loading && hasMore && body.scrollHeight <= body.clientHeight) loadMore();
  }, [items, loading, hasMore, loadMore]);

  const table = (
    <Table<T>
      rowKey="id"
      size={compact ? 'small' : 'middle'}
      columns={columns}
      dataSource={items}
      loading={loading}
      pagination={false}
      tableLayout="fixed"
      scroll={scrollBody ? { y: TABLE_HEIGHT } : undefined}
      onScroll={loadMore ? (e) => nearBottom(e, loadMore) : undefined}
      onRow={rowStyle ? (item) => ({ style: rowStyle(item) }) : undefined}
      locale={{ emptyText: loading ? <div style={{ height: 120 }} /> : <Empty description={emptyText ?? t('common:list.empty')} /> }}
      style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusLG, overflow: 'hidden' }}
      data-testid={testId}
    />
  );
  return paging ? <div ref={wrapper}>{table}</div> : table;
}
