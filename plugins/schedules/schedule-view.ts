import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import type { PluginRealtime } from 'atende/plugin';
import type { ScheduleEvent, ScheduleView } from './schedule.contract.js';
import { Schedule } from './schedule.model.js';

export type { ScheduleEvent, ScheduleView };

export function isEditable(schedule: Pick<Schedule, 'status'>): boolean {
  return schedule.status === 'PENDENTE' || schedule.status === 'ERRO';
}

/** The schedules query with what a view needs of its contact and author. */
export function withScheduleGraph<Q extends QueryBuilder<Schedule, Schedule[]> | QueryBuilder<Schedule, Schedule | undefined>>(query: Q): Q {
  return query
    .withGraphFetched('[contact, user]')
    .modifyGraph('contact', (b) => b.select('id', 'name', 'number', 'profilePicUrl'))
    .modifyGraph('user', (b) => b.select('id', 'name')) as Q;
}

export function toScheduleView(s: Schedule): ScheduleView {
  const contact = s.contact!;
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
    contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl },
    userId: s.userId,
    user: s.user ? { id: s.user.id, name: s.user.name } : null,
    ticketId: s.ticketId,
    editable: isEditable(s),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** One schedule of a company as a view, or undefined. */
export async function loadScheduleView(db: Knex, companyId: number, id: number): Promise<ScheduleView | undefined> {
  const schedule = await withScheduleGraph(Schedule.query(db).findOne({ 'schedules.id': id, 'schedules.companyId': companyId }));
  return schedule && toScheduleView(schedule);
}

/** The spec's channel, to every user of the company (written without a dash after "company"). */
export function publishSchedule(realtime: PluginRealtime, companyId: number, event: ScheduleEvent): void {
  realtime.publish(companyId, `company${companyId}-schedule`, event);
}
