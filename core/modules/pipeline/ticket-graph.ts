import type { Knex } from 'knex';
import type { Contact } from '../contacts/contact.model.js';
import type { Queue } from '../queues/queue.model.js';
import type { Tag } from '../tags/tag.model.js';
import type { Ticket } from '../tickets/ticket.model.js';
import type { User } from '../users/user.model.js';
import type { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { TtlCache, TurnBatch } from './memo.js';
import { PIPELINE_CACHE_MS, type ConnectionProfile, type PipelineCache } from './pipeline-cache.js';

/**
 * The ticket with the graph live events carry (the shape of ticketViews in ticket-view.ts),
 * assembled from what the pipeline already holds: the ticket and contact it just wrote, the
 * connection and its queues from the cache. Only the tags (and an agent's name, cached briefly)
 * are read, instead of one query per relation: the pipeline does this for every message. The tags
 * asked for in one turn of the event loop (a stored batch's tickets) are read by one query.
 */
type TagSummary = Pick<Tag, 'id' | 'name' | 'color'>;

/** Tickets whose tags one query reads. */
const TAGS_CHUNK = 500;

export class TicketGraphs {
  private readonly users = new TtlCache<number, Pick<User, 'id' | 'name'> | null>(PIPELINE_CACHE_MS);
  /** The tags of the tickets asked for in one turn, by one query. */
  private readonly tagReads = new TurnBatch<number, TagSummary[]>((ticketIds) => this.readTags(ticketIds));

  constructor(
    private readonly db: Knex,
    private readonly cache: PipelineCache,
  ) {}

  /** `created`: the ticket was created by this write, so it has no tags yet. */
  async of(ticket: Ticket, contact: Contact, profile: ConnectionProfile | undefined, created = false): Promise<Ticket> {
    const [tags, user, queue] = await Promise.all([
      created ? [] : this.tags(ticket.id),
      ticket.userId === null ? null : this.user(ticket.userId),
      ticket.queueId === null || !profile ? null : this.cache.queue(profile, ticket.queueId),
    ]);
    const whatsapp: Pick<Whatsapp, 'id' | 'name'> | null = profile && ticket.whatsappId === profile.whatsapp.id ? { id: profile.whatsapp.id, name: profile.whatsapp.name } : null;
    const summary = queue ? ({ id: queue.queue.id, name: queue.queue.name, color: queue.queue.color } as Queue) : null;
    return Object.assign(ticket, {
      contact: {
        id: contact.id,
        uuid: contact.uuid,
        name: contact.name,
        number: contact.number,
        email: contact.email,
        profilePicUrl: contact.profilePicUrl,
        isGroup: contact.isGroup,
      } as Contact,
      queue: summary,
      user: user as User | null,
      whatsapp: whatsapp as Whatsapp | null,
      tags: tags as Tag[],
    });
  }

  private async tags(ticketId: number): Promise<TagSummary[]> {
    return (await this.tagReads.get(ticketId)) ?? [];
  }

  private async readTags(ticketIds: number[]): Promise<Map<number, TagSummary[]>> {
    const byTicket = new Map<number, TagSummary[]>();
    for (let i = 0; i < ticketIds.length; i += TAGS_CHUNK) {
      const rows: (TagSummary & { ticketId: number })[] = await this.db('tags')
        .join('ticketTags', 'ticketTags.tagId', 'tags.id')
        .whereIn('ticketTags.ticketId', ticketIds.slice(i, i + TAGS_CHUNK))
        .select('ticketTags.ticketId', 'tags.id', 'tags.name', 'tags.color');
      for (const { ticketId, ...tag } of rows) byTicket.set(ticketId, [...(byTicket.get(ticketId) ?? []), tag]);
    }
    return byTicket;
  }

  private user(id: number): Promise<Pick<User, 'id' | 'name'> | null> {
    return this.users.get(id, async () => ((await this.db('users').where({ id }).first('id', 'name')) as Pick<User, 'id' | 'name'> | undefined) ?? null);
  }
}
