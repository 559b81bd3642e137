import type { Knex } from 'knex';
import { AppError, ErrorCode, isPostgres, outgoingMediaKind, renderTemplate, type OutgoingMessage, type PluginApp, type PluginErrorCode } from 'atende/plugin';
import { loadScheduleView, publishSchedule } from './schedule-view.js';
import { Schedule } from './schedule.model.js';

/** Sends one schedule when its time comes: `{ companyId, scheduleId }`. */
export const SCHEDULES_SEND_JOB = 'schedules.send';
/** Every minute: the schedules whose job was lost (a crash, a failed write) are sent anyway. */
export const SCHEDULES_SWEEP_JOB = 'schedules.sweep';
export const SWEEP_EVERY_MS = 60_000;
/** How late a waiting schedule must be before the sweep takes it from its own job. */
const SWEEP_GRACE_MS = 30_000;
/** A job may fire a little early when the clocks of two processes differ. */
const DUE_SLACK_MS = 1000;
const SWEEP_BATCH = 100;

/** Problems that trying again will not fix: the schedule is marked ERRO with the code. */
const REFUSALS = new Set<PluginErrorCode>([ErrorCode.ERR_NO_DEF_WAPP_FOUND, ErrorCode.ERR_NO_MEDIA_FOUND]);

/**
 * Delivery of scheduled messages (whaticket-behaviour §10, with its flaws fixed). The schedule row
 * is the truth: a job at sendAt and a sweep every minute both call send(), which hands the message
 * to the durable send queue in the same transaction that marks the row AGENDADA. A crash before the
 * commit leaves it PENDENTE (sent by the next run), one after it leaves it AGENDADA (skipped): a
 * schedule due while the server was down is sent when it is back, and never twice. The send
 * queue's events then make it ENVIADA or ERRO.
 */
export class ScheduleSender {
  constructor(private readonly app: PluginApp) {}

  /** Sends a schedule that is still PENDENTE and due; answers whether it changed. */
  async send(companyId: number, scheduleId: number): Promise<boolean> {
    const { db, services: { media } } = this.app;
    // The message gets its own copy of the file: the schedule's may be removed with the schedule.
    let copy: string | undefined;
    let result: { ticketId: number | null } | undefined;
    try {
      result = await db.transaction(async (trx) => {
        const schedule = await this.lock(trx, companyId, scheduleId);
        if (!schedule || schedule.status !== 'PENDENTE' || Date.parse(schedule.sendAt) > Date.now() + DUE_SLACK_MS) return undefined;
        try {
          const ticket = await this.app.services.tickets.ticketForOutgoing(trx, companyId, schedule.contactId, schedule.userId);
          const message: OutgoingMessage = { companyId, ticketId: ticket.id, body: await this.render(trx, schedule, ticket.id), userId: schedule.userId };
          if (schedule.mediaPath) {
            const original = await media.open(companyId, schedule.mediaPath);
            copy = (await media.save(companyId, schedule.mediaName ?? schedule.mediaPath, original.stream)).name;
            const { mime, type } = outgoingMediaKind(schedule.mediaName ?? schedule.mediaPath);
            message.media = { path: copy, name: schedule.mediaName ?? schedule.mediaPath, mime, type };
          }
          const sent = await this.app.services.outbound.enqueue(message, trx);
          await Schedule.query(trx).findById(schedule.id).patch({ status: 'AGENDADA', ticketId: ticket.id, messageId: sent.id, error: null });
          return { ticketId: ticket.id };
        } catch (err) {
          if (!(err instanceof AppError && REFUSALS.has(err.code))) throw err;
          if (copy) await media.remove(companyId, copy);
          copy = undefined;
          this.app.log.info({ scheduleId, error: err.code }, 'scheduled message not sent');
          await Schedule.query(trx).findById(schedule.id).patch({ status: 'ERRO', error: err.code });
          return { ticketId: null };
        }
      });
    } catch (err) {
      // The failed write leaves no message to own the copy.
      if (copy) await media.remove(companyId, copy).catch(() => undefined);
      throw err;
    }
    if (!result) return false;
    await this.announce(companyId, scheduleId);
    if (result.ticketId !== null) await this.app.services.tickets.publish(companyId, result.ticketId);
    return true;
  }

  /**
   * The PENDENTE schedules more than SWEEP_GRACE_MS late, of companies whose plan has schedules,
   * are sent; AGENDADA ones whose message the send queue has settled get its outcome (the
   * message.sent hook is durable, this covers a job that was never written).
   */
  async sweep(): Promise<number> {
    const { db } = this.app;
    const cutoff = new Date(Date.now() - SWEEP_GRACE_MS).toISOString();
    const enabled = this.app.services.plans.companiesWith('useSchedules', db);
    await this.settleAll(enabled);
    let sent = 0;
    let afterId = 0;
    for (;;) {
      const batch: Pick<Schedule, 'id' | 'companyId'>[] = await Schedule.query(db)
        .where('status', 'PENDENTE')
        .where('sendAt', '<', cutoff)
        .where('id', '>', afterId)
        .whereIn('companyId', enabled.clone())
        .orderBy('id')
        .limit(SWEEP_BATCH)
        .select('id', 'companyId');
      for (const { id, companyId } of batch) {
        try {
          if (await this.send(companyId, id)) sent += 1;
        } catch (err) {
          this.app.log.error({ err, scheduleId: id }, 'scheduled message not sent; the next sweep tries again');
        }
      }
      if (batch.length < SWEEP_BATCH) return sent;
      afterId = batch[batch.length - 1]!.id;
    }
  }

  /** The send queue's 'message.sent': the schedule of that message was delivered. */
  async delivered(companyId: number, messageId: number): Promise<void> {
    await this.settle(companyId, messageId, { status: 'ENVIADA', sentAt: new Date().toISOString(), error: null });
  }

  /** The send queue's 'message.send_failed': the schedule of that message could not be sent. */
  async failed(companyId: number, messageId: number, error: string): Promise<void> {
    await this.settle(companyId, messageId, { status: 'ERRO', error });
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** AGENDADA schedules whose message is already sent or failed: the outcome the hooks would have written. */
  private async settleAll(enabled: Knex.QueryBuilder): Promise<void> {
    const settled: { companyId: number; messageId: number; sendStatus: 'sent' | 'failed'; sendError: string | null }[] = await this.app
      .db('schedules')
      .join('messages', 'messages.id', 'schedules.messageId')
      .where('schedules.status', 'AGENDADA')
      .whereIn('messages.sendStatus', ['sent', 'failed'])
      .whereIn('schedules.companyId', enabled.clone())
      .limit(SWEEP_BATCH)
      .select('schedules.companyId', 'schedules.messageId', 'messages.sendStatus', 'messages.sendError');
    for (const { companyId, messageId, sendStatus, sendError } of settled) {
      if (sendStatus === 'sent') await this.delivered(companyId, messageId);
      else await this.failed(companyId, messageId, sendError ?? ErrorCode.ERR_SENDING_WAPP_MSG);
    }
  }

  /** Moves the AGENDADA schedule of a message to its outcome (a message of no schedule changes nothing). */
  private async settle(companyId: number, messageId: number, patch: Partial<Pick<Schedule, 'status' | 'sentAt' | 'error'>>): Promise<void> {
    const schedule = await Schedule.query(this.app.db).findOne({ companyId, messageId, status: 'AGENDADA' }).select('id');
    if (!schedule) return;
    const changed = await Schedule.query(this.app.db).patch(patch).where({ id: schedule.id, status: 'AGENDADA' });
    if (changed > 0) await this.announce(companyId, schedule.id);
  }

  /** The row locked for the transaction on PostgreSQL (SQLite has one writer anyway). */
  private async lock(trx: Knex.Transaction, companyId: number, id: number): Promise<Schedule | undefined> {
    const query = Schedule.query(trx).findOne({ id, companyId });
    return isPostgres(trx) ? query.forUpdate() : query;
  }

  /** {{name}}, {{ms}}, {{protocol}}… as in the other automatic texts, at the company's wall clock. */
  private async render(trx: Knex.Transaction, schedule: Schedule, ticketId: number): Promise<string> {
    const [view, timeZone] = await Promise.all([
      loadScheduleView(trx, schedule.companyId, schedule.id),
      this.app.services.settings.get(schedule.companyId, 'timezone', trx),
    ]);
    return renderTemplate(schedule.body, { name: view?.contact.name ?? '', timeZone, ticketId });
  }

  private async announce(companyId: number, id: number): Promise<void> {
    const schedule = await loadScheduleView(this.app.db, companyId, id);
    if (schedule) publishSchedule(this.app.realtime, companyId, { action: 'update', schedule });
  }
}
