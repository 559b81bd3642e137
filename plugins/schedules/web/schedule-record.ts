import type { SessionUser } from 'atende/web';
import type { ScheduleEvent, ScheduleStatus, ScheduleView } from '../schedule.contract';

export type { ScheduleStatus };
/** A schedule as the API answers it. */
export type ScheduleRecord = ScheduleView;
/** The frames of company{id}-schedule. */
export type ScheduleFrame = ScheduleEvent;

export const scheduleChannel = (companyId: number) => `company${companyId}-schedule`;

/** antd Tag presets per status. */
export const STATUS_COLORS: Record<ScheduleStatus, string> = { PENDENTE: 'blue', AGENDADA: 'gold', ENVIADA: 'green', ERRO: 'red' };

/** The wall-clock format the API takes for sendAt (the company's clock). */
export const WALL_CLOCK = 'YYYY-MM-DDTHH:mm';

/** The author and admins may change or delete a schedule (the server answers 403 to others). */
export function mayChange(schedule: ScheduleRecord, user: SessionUser | null): boolean {
  return Boolean(user && (user.profile === 'admin' || user.super || schedule.userId === user.id));
}

/** The server's order (newest sendAt first), for live records. */
export const byNewestSendAt = (a: ScheduleRecord, b: ScheduleRecord) => b.sendAt.localeCompare(a.sendAt) || b.id - a.id;
