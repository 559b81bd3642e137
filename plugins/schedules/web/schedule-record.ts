import type { SessionUser } from '../../../web/src/api/types';

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

/** The wall-clock format the API takes for sendAt (the company's clock). */
export const WALL_CLOCK = 'YYYY-MM-DDTHH:mm';

/** The author and admins may change or delete a schedule (the server answers 403 to others). */
export function mayChange(schedule: ScheduleRecord, user: SessionUser | null): boolean {
  return Boolean(user && (user.profile === 'admin' || user.super || schedule.userId === user.id));
}

/** The server's order (newest sendAt first), for live records. */
export const byNewestSendAt = (a: ScheduleRecord, b: ScheduleRecord) => b.sendAt.localeCompare(a.sendAt) || b.id - a.id;
