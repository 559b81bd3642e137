import type { Knex } from 'knex';
import {
  ConflictError,
  displayFileName,
  ErrorCode,
  ForbiddenError,
  isAdmin,
  isPostgres,
  likePattern,
  nextDay,
  NotFoundError,
  ValidationError,
  zonedDayStart,
  type AuthUser,
  type PluginApp,
  type UploadedFile,
} from 'atende/plugin';
import { SCHEDULES_SEND_JOB } from './schedule-sender.js';
import { companySchedules, isEditable, loadScheduleView, publishSchedule, toScheduleView, withViewColumns, type ScheduleView } from './schedule-view.js';
import { Schedule } from './schedule.model.js';
import {
  SCHEDULES_PAGE_SIZE,
  sendAtInstant,
  type CalendarQuery,
  type CreateScheduleInput,
  type ListSchedulesQuery,
  type UpdateScheduleInput,
} from './schedules.schema.js';

/** How far in the past a sendAt may be (the minute the user is typing in). */
const PAST_TOLERANCE_MS = 60_000;

function notFound(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_SCHEDULE_FOUND);
}

/**
 * Scheduled messages of a company (spec: Schedule entity, Schedules page). Every user reads them
 * all and creates their own; the author or an admin changes and deletes one, and only while it is
 * waiting or failed. Each save (re)plans its send job; delivery is ScheduleSender's.
 */
export class SchedulesService {
  constructor(private readonly app: PluginApp) {}

  // ---- reads ----------------------------------------------------------------------------------

  /** GET /schedules: newest sendAt first, 20 a page; the search looks at the text and the contact's name and number. */
  async list(actor: AuthUser, query: ListSchedulesQuery): Promise<{ schedules: ScheduleView[]; count: number; hasMore: boolean }> {
    const filtered = () => {
      const q = companySchedules(this.app.db, actor.companyId);
      if (query.contactId !== undefined) q.where('schedules.contactId', query.contactId);
      if (query.searchParam) {
        const like = likePattern(query.searchParam);
        q.where((w) => {
          w.whereRaw("lower(??) like ? escape '!'", ['schedules.body', like])
            .orWhereRaw("lower(??) like ? escape '!'", ['contacts.name', like])
            .orWhereRaw("?? like ? escape '!'", ['contacts.number', like]);
        });
      }
      return q;
    };
    const offset = (query.pageNumber - 1) * SCHEDULES_PAGE_SIZE;
    const [rows, count] = await Promise.all([
      withViewColumns(filtered())
        .orderBy('schedules.sendAt', 'desc')
        .orderBy('schedules.id', 'desc')
        .limit(SCHEDULES_PAGE_SIZE)
        .offset(offset),
      filtered().resultSize(),
    ]);
    return { schedules: rows.map(toScheduleView), count, hasMore: offset + rows.length < count };
  }

  /** GET /schedules/calendar: the schedules of the company-local days from..to, in time order. */
  async calendar(actor: AuthUser, query: CalendarQuery): Promise<{ schedules: ScheduleView[] }> {
    const timeZone = await this.app.services.settings.get(actor.companyId, 'timezone');
    const rows = await withViewColumns(
      companySchedules(this.app.db, actor.companyId)
        .where('schedules.sendAt', '>=', zonedDayStart(query.from, timeZone))
        .where('schedules.sendAt', '<', zonedDayStart(nextDay(query.to), timeZone)),
    )
      .orderBy('schedules.sendAt')
      .orderBy('schedules.id');
    return { schedules: rows.map(toScheduleView) };
  }

  async show(actor: AuthUser, id: number): Promise<ScheduleView> {
    const view = await loadScheduleView(this.app.db, actor.companyId, id);
    if (!view) throw notFound();
    return view;
  }

  // ---- writes ---------------------------------------------------------------------------------

  /** POST /schedules: the caller's, waiting for its time. */
  async create(actor: AuthUser, input: CreateScheduleInput): Promise<ScheduleView> {
    const companyId = actor.companyId;
    await this.findContact(actor, input.contactId);
    const sendAt = await this.futureInstant(companyId, input.sendAt);
    const schedule = await Schedule.query(this.app.db).insert({
      companyId,
      contactId: input.contactId,
      userId: actor.id,
      ticketId: null,
      messageId: null,
      body: input.body,
      sendAt,
      sentAt: null,
      status: 'PENDENTE',
      error: null,
      mediaPath: null,
      mediaName: null,
    });
    await this.plan(companyId, schedule.id, sendAt);
    return this.announce(companyId, schedule.id, 'create');
  }

  /**
   * PUT /schedules/:id: a waiting or failed schedule; a failed one waits again (for its new time,
   * or is sent at once when its time is kept). A new time must be in the future.
   */
  async update(actor: AuthUser, id: number, input: UpdateScheduleInput): Promise<ScheduleView> {
    const companyId = actor.companyId;
    if (input.contactId !== undefined) await this.findContact(actor, input.contactId);
    const asked = input.sendAt === undefined ? undefined : sendAtInstant(input.sendAt, await this.timeZone(companyId));
    const sendAt = await this.app.db.transaction(async (trx) => {
      const schedule = await this.editable(trx, actor, id);
      if (asked !== undefined && asked !== schedule.sendAt) assertFuture(asked);
      const next = await Schedule.query(trx).patchAndFetchById(id, {
        ...(input.body !== undefined && { body: input.body }),
        ...(input.contactId !== undefined && { contactId: input.contactId }),
        ...(asked !== undefined && { sendAt: asked }),
        status: 'PENDENTE',
        error: null,
        // A failed attempt's ticket and message are history; the next attempt sets its own.
        ticketId: null,
        messageId: null,
      });
      return next.sendAt;
    });
    await this.plan(companyId, id, sendAt);
    return this.announce(companyId, id, 'update');
  }

  /** DELETE /schedules/:id: its job and its file go with it (a message already made keeps its own copy). */
  async remove(actor: AuthUser, id: number): Promise<void> {
    const companyId = actor.companyId;
    const schedule = await this.app.db.transaction(async (trx) => {
      const found = await this.mine(trx, actor, id);
      await Schedule.query(trx).deleteById(id);
      return found;
    });
    await this.unplan(id);
    if (schedule.mediaPath) await this.discard(companyId, schedule.mediaPath);
    publishSchedule(this.app.realtime, companyId, { action: 'delete', scheduleId: id });
  }

  /** POST /schedules/:id/media-upload: the file sent with the text (replacing the one it had). */
  async attach(actor: AuthUser, id: number, file: UploadedFile): Promise<ScheduleView> {
    const companyId = actor.companyId;
    // Checked before the file is written, and again with the row locked.
    await this.app.db.transaction((trx) => this.editable(trx, actor, id));
    const stored = await this.app.services.media.save(companyId, file.name, file);
    try {
      return await this.replaceMedia(actor, id, { mediaPath: stored.name, mediaName: displayFileName(file.name) });
    } catch (err) {
      await this.discard(companyId, stored.name);
      throw err;
    }
  }

  /** DELETE /schedules/:id/media-upload */
  async detach(actor: AuthUser, id: number): Promise<ScheduleView> {
    return this.replaceMedia(actor, id, { mediaPath: null, mediaName: null });
  }

  // ---- helpers ------------------------------------------------------------------------------

  private async replaceMedia(actor: AuthUser, id: number, media: Pick<Schedule, 'mediaPath' | 'mediaName'>): Promise<ScheduleView> {
    const previous = await this.app.db.transaction(async (trx) => {
      const schedule = await this.editable(trx, actor, id);
      await Schedule.query(trx).findById(id).patch(media);
      return schedule.mediaPath;
    });
    if (previous) await this.discard(actor.companyId, previous);
    return this.announce(actor.companyId, id, 'update');
  }

  /** The schedule, locked, if the caller may change it: its author or an admin (403), of the company (404). */
  private async mine(trx: Knex.Transaction, actor: AuthUser, id: number): Promise<Schedule> {
    const query = Schedule.query(trx).findOne({ id, companyId: actor.companyId });
    const schedule = await (isPostgres(trx) ? query.forUpdate() : query);
    if (!schedule) throw notFound();
    if (schedule.userId !== actor.id && !isAdmin(actor)) throw new ForbiddenError();
    return schedule;
  }

  /** As mine(), and still waiting or failed (409 once it went to the send queue). */
  private async editable(trx: Knex.Transaction, actor: AuthUser, id: number): Promise<Schedule> {
    const schedule = await this.mine(trx, actor, id);
    if (!isEditable(schedule)) throw new ConflictError(ErrorCode.ERR_SCHEDULE_ALREADY_SENT, 'This message was already sent to the send queue');
    return schedule;
  }

  /** A contact of the caller's company, or 404 ERR_NO_CONTACT_FOUND. */
  private async findContact(actor: AuthUser, contactId: number): Promise<void> {
    await this.app.services.contacts.show(actor, contactId);
  }

  private timeZone(companyId: number): Promise<string> {
    return this.app.services.settings.get(companyId, 'timezone');
  }

  private async futureInstant(companyId: number, sendAt: string): Promise<string> {
    const instant = sendAtInstant(sendAt, await this.timeZone(companyId));
    assertFuture(instant);
    return instant;
  }

  /**
   * The send job at sendAt, replacing any earlier one. Should the job store fail, the row still
   * waits and the sweep sends it: the save is not undone for that.
   */
  private async plan(companyId: number, id: number, sendAt: string): Promise<void> {
    try {
      await this.unplan(id);
      await this.app.jobs.schedule(new Date(sendAt), SCHEDULES_SEND_JOB, { companyId, scheduleId: id });
    } catch (err) {
      this.app.log.error({ err, scheduleId: id }, 'send job not scheduled; the sweep will send it');
    }
  }

  /** Removes the schedule's send jobs; a stale one left behind finds nothing to do. */
  private async unplan(id: number): Promise<void> {
    await this.app.jobs.cancel({ name: SCHEDULES_SEND_JOB, data: { scheduleId: id } }).catch((err: unknown) => {
      this.app.log.warn({ err, scheduleId: id }, 'send job not cancelled');
    });
  }

  private async discard(companyId: number, stored: string): Promise<void> {
    await this.app.services.media.remove(companyId, stored).catch((err: unknown) => this.app.log.warn({ err, stored }, 'schedule media not removed'));
  }

  private async announce(companyId: number, id: number, action: 'create' | 'update'): Promise<ScheduleView> {
    const schedule = await loadScheduleView(this.app.db, companyId, id);
    if (!schedule) throw notFound();
    publishSchedule(this.app.realtime, companyId, { action, schedule });
    return schedule;
  }
}

function assertFuture(instant: string): void {
  if (Date.parse(instant) < Date.now() - PAST_TOLERANCE_MS) throw new ValidationError('sendAt: Must be in the future');
}
