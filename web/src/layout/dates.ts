import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import type { SessionUser } from '../api/types';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The company's zone when its `timezone` setting is missing (the server's default). */
export const DEFAULT_TIMEZONE = 'America/Sao_Paulo';
/** How a time is written in full: dd/MM/yyyy HH:mm. */
export const DATE_TIME_FORMAT = 'DD/MM/YYYY HH:mm';

/** The spec's date format: dd/MM/yyyy (of a calendar day, which has no zone). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('DD/MM/YYYY') : '';
}

/**
 * The company's `timezone` setting. Every time the app shows or computes (messages, tickets,
 * schedules, the dashboard, the composer's variables) is on this clock, as the server's are,
 * wherever the browser is.
 */
export function companyTimezone(user: SessionUser | null): string {
  return user?.company.settings.find((s) => s.key === 'timezone')?.value || DEFAULT_TIMEZONE;
}

/** An instant as a Dayjs whose fields (day, hour, ...) are the wall clock of `zone`. */
export function zoned(instant: string | Date, zone: string): Dayjs {
  return dayjs(instant).tz(zone);
}

/** An instant written on the wall clock of `zone`, dd/MM/yyyy HH:mm by default; '' for none. */
export function zonedText(instant: string | Date | null | undefined, zone: string, format = DATE_TIME_FORMAT): string {
  if (!instant) return '';
  const date = dayjs(instant);
  return date.isValid() ? date.tz(zone).format(format) : '';
}

/** The day `YYYY-MM-DD` of an instant in `zone`. */
export function zonedDay(instant: string | Date, zone: string): string {
  return zonedText(instant, zone, 'YYYY-MM-DD');
}

/**
 * The wall clock of `zone` as a browser-local Dayjs, for pickers and calendars (they work in the
 * browser's zone): a picker showing 14:00 means 14:00 in `zone`.
 */
export function wallClockOf(instant: string | Date, zone: string): Dayjs {
  return dayjs(zonedText(instant, zone, 'YYYY-MM-DDTHH:mm:ss'));
}

/** Whether `zone`'s clock reads differently from the browser's at `now`. */
export function differsFromBrowser(zone: string, now = new Date()): boolean {
  return dayjs(now).tz(zone).utcOffset() !== dayjs(now).utcOffset();
}
