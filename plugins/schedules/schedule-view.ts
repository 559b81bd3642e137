import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import type { PluginRealtime } from 'atende/plugin';
import type { ScheduleEvent, ScheduleView } from './schedule.contract.js';
import { Schedule } from './schedule.model.js';

export type { ScheduleEvent, ScheduleView };

export function isEditable(schedule: Pick<Schedule, 'status'>): boolean {
  return schedule.status === 'PENDENTE' || schedule.status === 'ERRO';
}

/** A schedule with what its view shows of its contact and author (read with the schedule, in one query). */
export type ScheduleRow = Schedule & { contactName: string; contactNumber: string; contactProfilePicUrl: string; userName: string | null };

/** The schedules of a company, joined to their contacts (for the view, and for the list's search). */
export function companySchedules(db: Knex, companyId: number): QueryBuilder<Schedule, Schedule[]> {
  return Schedule.query(db).join('contacts', 'contacts.id', 'schedules.contactId').where('schedules.companyId', companyId);
}

/** The columns a view needs, on a companySchedules query. */
export function withViewColumns(query: QueryBuilder<Schedule, Schedule[]>): QueryBuilder<Schedule, ScheduleRow[]> {
  return query
    .leftJoin('users', 'users.id', 'schedules.userId')
    .select(
      'schedules.*',
      'contacts.name as contactName',
      'contacts.number as contactNumber',
      'contacts.profilePicUrl as contactProfilePicUrl',
      'users.name as userName',
    ) as unknown as QueryBuilder<Schedule, ScheduleRow[]>;
}

export function toScheduleView(s: ScheduleRow): ScheduleView {
  return {
    id: s.id,
    companyId: s.companyId,
    body: s.body,
    sendAt: s.sendAt,
    sentAt: s.sentAt,
    status: s.status,
    error: s.error,
    mediaName: s.mediaName,
    // As the messages module builds it: /api/media serves the caller's company's files by stored name.
    mediaUrl: s.mediaPath ? `/api/media/${encodeURIComponent(s.mediaPath)}` : null,
    contactId: s.contactId,
    contact: { id: s.contactId, name: s.contactName, number: s.contactNumber, profilePicUrl: s.contactProfilePicUrl },
    userId: s.userId,
    user: s.userId !== null && s.userName !== null ? { id: s.userId, name: s.userName } : null,
    ticketId: s.ticketId,
    editable: isEditable(s),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** One schedule of a company as a view, or undefined. */
export async function loadScheduleView(db: Knex, companyId: number, id: number): Promise<ScheduleView | undefined> {
  const [schedule] = await withViewColumns(companySchedules(db, companyId).where('schedules.id', id));
  return schedule && toScheduleView(schedule);
}

/** The spec's channel, to every user of the company (written without a dash after "company"). */
export function publishSchedule(realtime: PluginRealtime, companyId: number, event: ScheduleEvent): void {
  realtime.publish(companyId, `company${companyId}-schedule`, event);
}
