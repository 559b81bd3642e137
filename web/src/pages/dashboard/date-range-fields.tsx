import { DatePicker, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATE_FORMAT } from './dashboard-format';

export interface DateRange {
  from: Dayjs | null;
  to: Dayjs | null;
}

/** Start and end day pickers (DD/MM/YYYY); neither lets the range turn backwards. */
export function DateRangeFields({ idPrefix, value, onChange }: { idPrefix: string; value: DateRange; onChange(value: DateRange): void }) {
  const { t } = useTranslation('dashboard');
  return (
    <>
      <Form.Item label={t('filters.from')} htmlFor={`${idPrefix}-from`} style={{ marginBottom: 0 }}>
        <DatePicker
          id={`${idPrefix}-from`}
          format={DATE_FORMAT}
          value={value.from}
          onChange={(from: Dayjs | null) => onChange({ ...value, from })}
          disabledDate={(day) => Boolean(value.to && day.isAfter(value.to, 'day'))}
          style={{ width: 150 }}
        />
      </Form.Item>
      <Form.Item label={t('filters.to')} htmlFor={`${idPrefix}-to`} style={{ marginBottom: 0 }}>
        <DatePicker
          id={`${idPrefix}-to`}
          format={DATE_FORMAT}
          value={value.to}
          onChange={(to: Dayjs | null) => onChange({ ...value, to })}
          disabledDate={(day) => Boolean(value.from && day.isBefore(value.from, 'day'))}
          style={{ width: 150 }}
        />
      </Form.Item>
    </>
  );
}
