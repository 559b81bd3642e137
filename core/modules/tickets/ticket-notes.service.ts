import type { QueryBuilder } from 'objection';
import type { Infrastructure } from '../../infrastructure.js';
import type { TicketNoteView } from '../../contract/views.js';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { visibleTicket } from './ticket-access.js';
import { TicketNote } from './ticket-note.model.js';
import type { CreateNoteInput, ListNotesQuery } from './tickets.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';

export type { TicketNoteView };

function toView(note: TicketNote): TicketNoteView {
  return {
    id: note.id,
    note: note.note,
    ticketId: note.ticketId,
    contactId: note.contactId,
    userId: note.userId,
    user: note.user ? { id: note.user.id, name: note.user.name } : null,
    apiToken: note.apiTokenId === null ? null : { id: note.apiTokenId, name: note.apiTokenName ?? '' },
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}

/** Notes about a contact kept on a ticket: written and read by whoever may see the ticket; deleted by their author or an admin who may see it. */
export class TicketNotesService {
  constructor(private readonly infra: Pick<Infrastructure, 'db'>) {}

  async create(actor: AuthUser, input: CreateNoteInput): Promise<TicketNoteView> {
    const ticket = await visibleTicket(this.infra.db, actor, input.ticketId);
    if (ticket.contactId !== input.contactId) throw new ValidationError('contactId: not the contact of this ticket');
    const note = await TicketNote.query(this.infra.db).insert({
      companyId: actor.companyId,
      note: input.note,
      // A token is the author of what it writes, not the admin who made it.
      userId: actor.apiToken ? null : actor.id,
      apiTokenId: actor.apiToken?.id ?? null,
      apiTokenName: actor.apiToken?.name ?? null,
      contactId: ticket.contactId,
      ticketId: ticket.id,
    });
    return this.view(note.id);
  }

  /** GET /ticket-notes/list: newest first. */
  async list(actor: AuthUser, query: ListNotesQuery): Promise<TicketNoteView[]> {
    const ticket = await visibleTicket(this.infra.db, actor, query.ticketId);
    if (ticket.contactId !== query.contactId) return [];
    const notes = await this.withUser(TicketNote.query(this.infra.db).where({ companyId: actor.companyId, ticketId: ticket.id, contactId: ticket.contactId }))
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc');
    return notes.map(toView);
  }

  async remove(actor: AuthUser, id: number): Promise<TicketNoteView> {
    const note = await this.withUser(TicketNote.query(this.infra.db).findOne({ id, companyId: actor.companyId }));
    if (!note) throw new NotFoundError(ErrorCode.ERR_NO_TICKET_NOTE_FOUND);
    await visibleTicket(this.infra.db, actor, note.ticketId);
    if (note.userId !== actor.id && !isAdmin(actor)) throw new ForbiddenError();
    await TicketNote.query(this.infra.db).deleteById(id);
    return toView(note);
  }

  private withUser<Q extends QueryBuilder<TicketNote, TicketNote[]> | QueryBuilder<TicketNote, TicketNote | undefined>>(query: Q): Q {
    return query.withGraphFetched('user').modifyGraph('user', (b) => b.select('id', 'name')) as Q;
  }

  private async view(id: number): Promise<TicketNoteView> {
    return toView((await this.withUser(TicketNote.query(this.infra.db).findById(id)))!);
  }
}
