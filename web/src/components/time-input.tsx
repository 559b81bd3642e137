import { Input } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';

/** A valid time of day written HH:MM (00:00 to 23:59). */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Keeps the digits typed or pasted and writes them as HH:MM. */
export function maskTime(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

interface TimeInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  'aria-label'?: string;
}

/** A text field masked HH:MM, as the spec's working-hours editor asks; Form.Item passes value and onChange. */
export function TimeInput({ value, onChange, ...rest }: TimeInputProps) {
  return (
    <Input
      {...rest}
      value={value}
      onChange={(event) => onChange?.(maskTime(event.target.value))}
      placeholder="HH:MM"
      inputMode="numeric"
      maxLength={5}
      autoComplete="off"
      prefix={<ClockCircleOutlined />}
    />
  );
}
