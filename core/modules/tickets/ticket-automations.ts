import type { AnyQueryBuilder } from 'objection';
import type { Infrastructure } from '../../infrastructure.js';
import type { OutboundService } from '../messages/outbound.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { Contact } from '../contacts/contact.model.js';
import { Queue } from '../queues/queue.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { renderTemplate } from './templates.js';
import type { TicketEvents } from './ticket-events.js';
import { loadTicket } from './ticket-view.js';
import { Ticket } from './ticket.model.js';
import { tracking } from './tracking.js';

export const TICKETS_EXPIRE_JOB = 'tickets.expire';
export const TICKETS_TRANSFER_JOB = 'tickets.transfer';
const AUTOMATIONS_EVERY_MS = 60_000;
/** Tickets read per query; a run goes on batch after batch until none is left. */
const BATCH = 200;

type Candidate = Pick<Ticket, 'id' | 'companyId' | 'whatsappId' | 'queueId' | 'userId' | 'status' | 'contactId' | 'updatedAt'>;
/** The condition a rule applies to, added to a query on tickets: the batch read and the claiming UPDATE. */
type Eligible = (query: AnyQueryBuilder) => void;
type Connection = Pick<Whatsapp, 'id' | 'companyId' | 'expiresTicket' | 'expiresInactiveMessage' | 'timeToTransfer' | 'transferQueueId'>;

function minutesBefore(now: Date, minutes: number): string {
  return new Date(now.getTime() - minutes * 60_000).toISOString();
}

/**
 * The timed rules of a connection (whaticket-behaviour §5), run every minute for all companies by
 * whichever process takes the job: an open ticket left waiting on the customer for
 * `expiresTicket` minutes is closed with the connection's inactivity message, and a pending ticket
 * without queue for `timeToTransfer` minutes goes to `transferQueueId`. Each ticket changes in its
 * own short transaction whose UPDATE repeats the condition, so an agent or another process acting
 * meanwhile wins and a second run finds nothing left to do.
 */
export class TicketAutomations {
  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { settings: SettingsService; events: TicketEvents; outbound: OutboundService },
  ) {
    infra.jobs.define(TICKETS_EXPIRE_JOB, async () => {
      await this.runExpiry();
    });
    infra.jobs.define(TICKETS_TRANSFER_JOB, async () => {
      await this.runTransfer();
    });
  }

  /** Boot, once jobs run: both rules every minute (one row per job name whatever the process count). */
  async schedule(): Promise<void> {
    await this.infra.jobs.every(AUTOMATIONS_EVERY_MS, TICKETS_EXPIRE_JOB);
    await this.infra.jobs.every(AUTOMATIONS_EVERY_MS, TICKETS_TRANSFER_JOB);
  }

  /** Closes the open tickets expired at `now`; answers how many it closed. */
  async runExpiry(now = new Date()): Promise<number> {
    const connections: Connection[] = await Whatsapp.query(this.infra.db)
      .where('expiresTicket', '>', 0)
      .select('id', 'companyId', 'expiresTicket', 'expiresInactiveMessage', 'timeToTransfer', 'transferQueueId');
    let closed = 0;
    for (const connection of connections) {
      const cutoff = minutesBefore(now, connection.expiresTicket);
      const eligible: Eligible = (q) => {
        q.where({ 'tickets.companyId': connection.companyId, 'tickets.whatsappId': connection.id, 'tickets.status': 'open' })
          .where({ 'tickets.isGroup': false, 'tickets.fromMe': true })
          .where('tickets.updatedAt', '<', cutoff);
      };
      const timeZone = await this.deps.settings.get(connection.companyId, 'timezone');
      closed += await this.eachCandidate(eligible, (ticket) => this.expire(ticket, connection, eligible, timeZone, now));
    }
    return closed;
  }

  /** Moves the queueless pending tickets due at `now` to their connection's transfer queue; answers how many. */
  async runTransfer(now = new Date()): Promise<number> {
    const connections: Connection[] = await Whatsapp.query(this.infra.db)
      .where('timeToTransfer', '>', 0)
      .whereNotNull('transferQueueId')
      // A queue of the connection's own company only.
      .whereExists(Queue.query().whereColumn('queues.id', 'whatsapps.transferQueueId').whereColumn('queues.companyId', 'whatsapps.companyId'))
      .select('id', 'companyId', 'expiresTicket', 'expiresInactiveMessage', 'timeToTransfer', 'transferQueueId');
    let moved = 0;
    for (const connection of connections) {
      const cutoff = minutesBefore(now, connection.timeToTransfer!);
      const eligible: Eligible = (q) => {
        q.where({ 'tickets.companyId': connection.companyId, 'tickets.whatsappId': connection.id, 'tickets.status': 'pending' })
          .whereNull('tickets.queueId')
          .where('tickets.updatedAt', '<', cutoff);
      };
      moved += await this.eachCandidate(eligible, (ticket) => this.transfer(ticket, connection, eligible));
    }
    return moved;
  }

  /**
   * Walks the eligible tickets oldest first in batches, by (updatedAt, id) so a ticket skipped or
   * failed is not read again in this run; one ticket's failure is logged and the rest go on.
   */
  private async eachCandidate(
    eligible: Eligible,
    handle: (ticket: Candidate) => Promise<boolean>,
  ): Promise<number> {
    let done = 0;
    let after: Candidate | undefined;
    for (;;) {
      const query = Ticket.query(this.infra.db).select('id', 'companyId', 'whatsappId', 'queueId', 'userId', 'status', 'contactId', 'updatedAt');
      eligible(query);
      if (after) {
        const { updatedAt, id } = after;
        query.where((q) => q.where('tickets.updatedAt', '>', updatedAt).orWhere((same) => same.where('tickets.updatedAt', updatedAt).where('tickets.id', '>', id)));
      }
      const batch: Candidate[] = await query.orderBy([{ column: 'tickets.updatedAt' }, { column: 'tickets.id' }]).limit(BATCH);
      for (const ticket of batch) {
        try {
          if (await handle(ticket)) done += 1;
        } catch (err) {
          this.infra.log.error({ err, ticketId: ticket.id }, 'ticket automation failed; the next run tries again');
        }
      }
      if (batch.length < BATCH) return done;
      after = batch[batch.length - 1];
    }
  }

  /** Closes one ticket if it still qualifies, sending the inactivity message with the close. */
  private async expire(ticket: Candidate, connection: Connection, eligible: Eligible, timeZone: string, now: Date): Promise<boolean> {
    const changed = await this.infra.db.transaction(async (trx) => {
      const claim = Ticket.query(trx)
        .patch({ status: 'closed', chatbot: false, queueOptionId: null, useIntegration: false, integrationId: null, promptId: null, amountUsedBotQueues: 0 })
        .where('tickets.id', ticket.id);
      eligible(claim);
      if ((await claim) !== 1) return false;
      await tracking.finished(trx, ticket);
      const text = connection.expiresInactiveMessage.trim();
      if (text) {
        const contact = await Contact.query(trx).findById(ticket.contactId).select('name');
        const body = renderTemplate(connection.expiresInactiveMessage, { name: contact?.name ?? '', timeZone, now, ticketId: ticket.id });
        await this.deps.outbound.enqueue({ companyId: ticket.companyId, ticketId: ticket.id, body, userId: null }, trx);
      }
      return true;
    });
    if (changed) await this.announce(ticket);
    return changed;
  }

  /** Moves one ticket to the transfer queue if it is still pending without queue. */
  private async transfer(ticket: Candidate, connection: Connection, eligible: Eligible): Promise<boolean> {
    const queueId = connection.transferQueueId!;
    const changed = await this.infra.db.transaction(async (trx) => {
      const claim = Ticket.query(trx).patch({ queueId, chatbot: false, queueOptionId: null }).where('tickets.id', ticket.id);
      eligible(claim);
      if ((await claim) !== 1) return false;
      await tracking.queued(trx, { ...ticket, queueId });
      return true;
    });
    if (changed) await this.announce(ticket, { transferred: true });
    return changed;
  }

  /** After commit: the ticket's new state to its audience and to the one it had before. */
  private async announce(before: Candidate, options: { transferred?: boolean } = {}): Promise<void> {
    const ticket = await loadTicket(this.infra.db, before.companyId, before.id);
    if (ticket) this.deps.events.updated(ticket, before, options);
  }
}
