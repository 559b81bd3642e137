import dayjs from 'dayjs';

/** The spec's date format: dd/MM/yyyy. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('DD/MM/YYYY') : '';
}
