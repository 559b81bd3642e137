import type { HTMLAttributes } from 'react';
import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';

export interface RecordsTableProps<R> {
  records: R[];
  loading: boolean;
  columns: ColumnsType<R>;
  emptyText: string;
  onSelect(record: R): void;
  testId: string;
  /** More of a row's attributes (the companies' due-date colour). */
  rowProps?(record: R): HTMLAttributes<HTMLElement>;
}

/** The table under a super tab's record form: ten a page, a click loads the row into the form. */
export function RecordsTable<R extends { id: number }>({ records, loading, columns, emptyText, onSelect, testId, rowProps }: RecordsTableProps<R>) {
  return (
    <Table<R>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={records}
      loading={loading}
      scroll={{ x: 'max-content' }}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      locale={{ emptyText }}
      onRow={(record) => {
        const extra = rowProps?.(record);
        return { ...extra, onClick: () => onSelect(record), style: { cursor: 'pointer', ...extra?.style } };
      }}
      data-testid={testId}
    />
  );
}
