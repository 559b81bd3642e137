import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import type { SessionUser } from '../../../web/src/api/types';

dayjs.extend(utc);
dayjs.extend(timezone);

export type ScheduleStatus = 'PENDENTE' | 'AGENDADA' | 'ENVIADA' | 'ERRO';

/** A schedule as the API answers it (ScheduleView). */
export interface ScheduleRecord {
  id: number;
  body: string;
  /** UTC ISO instant. */
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatus;
  error: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  contactId: number;
  contact: { id: number; name: string; number: string; profilePicUrl: string | null };
  userId: number | null;
  user: { id: number; name: string } | null;
  /** PENDENTE or ERRO: the only ones the server lets change. */
  editable: boolean;
}

/** The frames of company{id}-schedule (the spec's name, without the dash after "company"). */
export type ScheduleFrame = { action: 'create' | 'update'; schedule: ScheduleRecord } | { action: 'delete'; scheduleId: number };

export const scheduleChannel = (companyId: number) => `company${companyId}-schedule`;

/** antd Tag presets per status. */
export const STATUS_COLORS: Record<ScheduleStatus, string> = { PENDENTE: 'blue', AGENDADA: 'gold', ENVIADA: 'green', ERRO: 'red' };

const DEFAULT_TIMEZONE = 'America/Sao_Paulo';
/** The wall-clock format the API takes for sendAt. */
export const WALL_CLOCK = 'YYYY-MM-DDTHH:mm';
export const DISPLAY_FORMAT = 'DD/MM/YYYY HH:mm';

/** The company's timezone setting: every time on this page is shown and typed in it. */
export function companyTimezone(user: SessionUser | null): string {
  return user?.company.settings.find((s) => s.key === 'timezone')?.value || DEFAULT_TIMEZONE;
}

/** The company-local day of an instant, YYYY-MM-DD. */
export function zonedDay(instant: string, tz: string): string {
  return dayjs(instant).tz(tz).format('YYYY-MM-DD');
}

/** An instant written in the company's timezone, DD/MM/YYYY HH:mm by default. */
export function zonedText(instant: string | null, tz: string, format = DISPLAY_FORMAT): string {
  return instant ? dayjs(instant).tz(tz).format(format) : '';
}

/**
 * The pickers work on browser-local Dayjs values; these carry the company's wall clock instead
 * (a picker showing 14:00 means 14:00 in the company's timezone, wherever the browser is).
 */
export function toWallClock(instant: string, tz: string): Dayjs {
  return dayjs(dayjs(instant).tz(tz).format(WALL_CLOCK));
}

/** The company's wall clock now. */
export function wallClockNow(tz: string): Dayjs {
  return toWallClock(new Date().toISOString(), tz);
}

/** The author and admins may change or delete a schedule (the server answers 403 to others). */
export function mayChange(schedule: ScheduleRecord, user: SessionUser | null): boolean {
  return Boolean(user && (user.profile === 'admin' || user.super || schedule.userId === user.id));
}

/** The server's order (newest sendAt first), for live records. */
export const byNewestSendAt = (a: ScheduleRecord, b: ScheduleRecord) => b.sendAt.localeCompare(a.sendAt) || b.id - a.id;
