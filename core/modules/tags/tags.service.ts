import type { Knex } from 'knex';
import type objection from 'objection';
import type { Infrastructure } from '../../infrastructure.js';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import { visibleTicket } from '../tickets/ticket-access.js';
import { Ticket } from '../tickets/ticket.model.js';
import { isPostgres } from '../../db/database.js';
import { Tag } from './tag.model.js';
import { TAGS_PAGE_SIZE, type CreateTagInput, type SyncTagsInput, type UpdateTagInput } from './tags.schema.js';
import { likePattern } from '../../db/like-pattern.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { TagView } from '../../contract/views.js';

type TagRow = Tag & { ticketsCount?: number | string };

function toView(tag: TagRow): TagView {
  return {
    id: tag.id,
    companyId: tag.companyId,
    name: tag.name,
    color: tag.color,
    kanban: tag.kanban,
    userId: tag.userId,
    // PostgreSQL answers count(*) as a string (bigint).
    ticketsCount: Number(tag.ticketsCount ?? 0),
    createdAt: tag.createdAt,
    updatedAt: tag.updatedAt,
  };
}

/** A ticket's tags after a change, and their ids before and after (for the ticket's own announcement: tickets.publish). */
export interface Retagged {
  ticketId: number;
  tags: TagView[];
  tagIds: { before: number[]; after: number[] };
}

/** The ticket's row, locked until the transaction ends on PostgreSQL (SQLite has one writer anyway). */
async function lockedTicket(db: Knex, companyId: number, id: number): Promise<Ticket | undefined> {
  const query = Ticket.query(db).findOne({ id, companyId });
  return isPostgres(db) ? query.forUpdate() : query;
}

/** The spec (§6): only admins and supervisors see the Kanban switch; the server holds the same line. */
export function maySetKanban(actor: AuthUser): boolean {
  return isAdmin(actor) || actor.profile === 'supervisor';
}

/**
 * Tags of a company. Every user of the company creates and edits them (the Tags page is in the
 * main section); only admins delete; the kanban flag is for admins and supervisors.
 */
export class TagsService {
  constructor(private readonly infra: Pick<Infrastructure, 'db' | 'realtime'>) {}

  /** GET /tags: by name, 20 a page, each with its tickets count. */
  async list(actor: AuthUser, query: { searchParam: string; pageNumber: number }): Promise<{ tags: TagView[]; count: number; hasMore: boolean }> {
    const filtered = () => {
      const q = Tag.query(this.infra.db).where('tags.companyId', actor.companyId);
      if (query.searchParam) q.whereRaw("lower(??) like ? escape '!'", ['tags.name', likePattern(query.searchParam)]);
      return q;
    };
    const offset = (query.pageNumber - 1) * TAGS_PAGE_SIZE;
    const [tags, count] = await Promise.all([
      this.withCount(filtered()).orderBy('tags.name').orderBy('tags.id').limit(TAGS_PAGE_SIZE).offset(offset),
      filtered().resultSize(),
    ]);
    return { tags: tags.map(toView), count, hasMore: offset + tags.length < count };
  }

  /** GET /tags/list: every tag of the company, by name, for selects and the kanban lanes. */
  async listAll(actor: AuthUser): Promise<TagView[]> {
    const tags = await this.withCount(Tag.query(this.infra.db).where('tags.companyId', actor.companyId)).orderBy('tags.name').orderBy('tags.id');
    return tags.map(toView);
  }

  async show(actor: AuthUser, id: number): Promise<TagView> {
    return this.view(this.infra.db, actor.companyId, id);
  }

  async create(actor: AuthUser, input: CreateTagInput): Promise<TagView> {
    if (input.kanban === 1 && !maySetKanban(actor)) throw new ForbiddenError();
    const tag = await Tag.query(this.infra.db).insert({
      companyId: actor.companyId,
      name: input.name,
      color: input.color,
      kanban: input.kanban ?? 0,
      userId: actor.id,
    });
    const view = toView(tag);
    this.publish(actor.companyId, { action: 'create', tag: view });
    return view;
  }

  async update(actor: AuthUser, id: number, input: UpdateTagInput): Promise<TagView> {
    const view = await this.infra.db.transaction(async (trx) => {
      const tag = await this.find(trx, actor.companyId, id);
      if (input.kanban !== undefined && input.kanban !== tag.kanban && !maySetKanban(actor)) throw new ForbiddenError();
      await tag.$query(trx).patch({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.color !== undefined && { color: input.color }),
        ...(input.kanban !== undefined && { kanban: input.kanban }),
      });
      return this.view(trx, actor.companyId, id);
    });
    this.publish(actor.companyId, { action: 'update', tag: view });
    return view;
  }

  /** DELETE /tags/:id (admins): the tag leaves every ticket with it (ticket_tags cascades). */
  async remove(actor: AuthUser, id: number): Promise<void> {
    if (!isAdmin(actor)) throw new ForbiddenError();
    const deleted = await Tag.query(this.infra.db).where({ id, companyId: actor.companyId }).delete();
    if (deleted === 0) throw new NotFoundError(ErrorCode.ERR_NO_TAG_FOUND);
    this.publish(actor.companyId, { action: 'delete', tagId: id });
  }

  /**
   * POST /tags/sync: replaces a ticket's tags with `tags`. The ticket must be one the caller may
   * see, and every tag the caller's company's. Tags whose tickets count changed are announced with the new count.
   * `tagIds`: the ticket's tag ids before and after (for the ticket's own announcement).
   */
  async sync(actor: AuthUser, input: SyncTagsInput): Promise<Retagged> {
    return this.retag(actor, input.ticketId, async (trx) => {
      if (input.tags.length > 0) {
        const found = await Tag.query(trx).where('companyId', actor.companyId).whereIn('id', input.tags).resultSize();
        if (found !== input.tags.length) throw new NotFoundError(ErrorCode.ERR_NO_TAG_FOUND);
      }
      return input.tags;
    });
  }

  /**
   * A ticket's kanban lane: its kanban tags replaced by `tagId` (a kanban tag of the caller's
   * company, else 404), or taken off with null, in one transaction; its other tags stay, and a
   * ticket never ends with two lanes. The same checks, answer and announcements as sync.
   */
  async setKanbanTag(actor: AuthUser, ticketId: number, tagId: number | null): Promise<Retagged> {
    return this.retag(actor, ticketId, async (trx, before) => {
      if (tagId !== null) {
        const tag = await Tag.query(trx).findOne({ id: tagId, companyId: actor.companyId, kanban: 1 });
        if (!tag) throw new NotFoundError(ErrorCode.ERR_NO_TAG_FOUND, 'No kanban tag with this id');
      }
      const kanban = new Set(
        before.length === 0 ? [] : (await Tag.query(trx).whereIn('id', before).where('kanban', 1).select('id')).map((tag) => tag.id),
      );
      return [...before.filter((id) => !kanban.has(id)), ...(tagId === null ? [] : [tagId])];
    });
  }

  /**
   * Replaces a ticket's tags with what `next` answers from the current ones, in one transaction
   * that holds the ticket's row (PostgreSQL), so two changes of one ticket never interleave.
   */
  private async retag(actor: AuthUser, ticketId: number, next: (trx: Knex.Transaction, before: number[]) => Promise<number[]>): Promise<Retagged> {
    const { tags, changed, before, after } = await this.infra.db.transaction(async (trx) => {
      await visibleTicket(trx, actor, ticketId, lockedTicket);
      const before = (await trx('ticketTags').where({ ticketId }).select('tagId')).map((row: { tagId: number }) => row.tagId);
      const after = [...new Set(await next(trx, before))];
      const removed = before.filter((id) => !after.includes(id));
      const added = after.filter((id) => !before.includes(id));
      if (removed.length > 0) await trx('ticketTags').where({ ticketId }).whereIn('tagId', removed).delete();
      if (added.length > 0) await trx('ticketTags').insert(added.map((tagId) => ({ ticketId, tagId })));
      const load = (ids: number[]) =>
        ids.length === 0 ? Promise.resolve([]) : this.withCount(Tag.query(trx).where('tags.companyId', actor.companyId).whereIn('tags.id', ids)).orderBy('tags.name').orderBy('tags.id');
      return { tags: (await load(after)).map(toView), changed: (await load([...removed, ...added])).map(toView), before, after };
    });
    for (const tag of changed) this.publish(actor.companyId, { action: 'update', tag });
    return { ticketId, tags, tagIds: { before, after } };
  }

  // ---- helpers ------------------------------------------------------------------------------

  private withCount(query: objection.QueryBuilder<Tag, Tag[]>): objection.QueryBuilder<Tag, TagRow[]> {
    const count = this.infra.db('ticketTags').count('*').where('ticketTags.tagId', this.infra.db.ref('tags.id'));
    return query.select('tags.*', count.as('ticketsCount')) as objection.QueryBuilder<Tag, TagRow[]>;
  }

  private async find(db: Knex, companyId: number, id: number): Promise<Tag> {
    const tag = await Tag.query(db).findOne({ id, companyId });
    if (!tag) throw new NotFoundError(ErrorCode.ERR_NO_TAG_FOUND);
    return tag;
  }

  private async view(db: Knex, companyId: number, id: number): Promise<TagView> {
    const [tag] = await this.withCount(Tag.query(db).where({ 'tags.id': id, 'tags.companyId': companyId }));
    if (!tag) throw new NotFoundError(ErrorCode.ERR_NO_TAG_FOUND);
    return toView(tag);
  }

  private publish(companyId: number, data: { action: 'create' | 'update'; tag: TagView } | { action: 'delete'; tagId: number }): void {
    this.infra.realtime.publish(companyId, `company-${companyId}-tag`, data);
  }
}
