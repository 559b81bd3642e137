import { actorOf, type AuthUser, type PluginApp } from 'atende/plugin';
import type { KanbanLane, TicketTagsAnswer } from './kanban.contract.js';

/**
 * The board (spec: Kanban): its lanes are the company's kanban tags, its cards the open and
 * pending tickets the caller may see; moving a card puts the ticket in another lane. The rules
 * (visibility, one lane per ticket, the announcements) are the core's, through its services.
 */
export class KanbanService {
  constructor(private readonly app: PluginApp) {}

  /** The company's kanban tags, by name. */
  async lanes(actor: AuthUser): Promise<KanbanLane[]> {
    const tags = await this.app.services.tags.listAll(actor);
    return tags.filter((tag) => tag.kanban === 1).map(({ id, name, color }) => ({ id, name, color }));
  }

  /** The cards: open and pending tickets in the caller's sight, narrowed to `queueIds`. */
  async cards(actor: AuthUser, queueIds: number[] | undefined) {
    return this.app.services.tickets.cards(actor, { queueIds });
  }

  /**
   * Puts a ticket in the lane of `tagId`, or back in 'Em aberto' with null: its kanban tag
   * replaced in one transaction, then the ticket announced to whoever may see it (the core's
   * company-{id}-ticket frame and ticket.updated), which is what moves the card on other boards.
   */
  async move(actor: AuthUser, ticketId: number, tagId: number | null): Promise<TicketTagsAnswer> {
    const { tags, tagIds } = await this.app.services.tags.setKanbanTag(actor, ticketId, tagId);
    await this.app.services.tickets.publish(actor.companyId, ticketId, tagIds, actorOf(actor));
    return { ticketId, tags: tags.map(({ id, name, color, kanban }) => ({ id, name, color, kanban })) };
  }
}

const built = new WeakMap<PluginApp, KanbanService>();

/** The plugin's service, built once for its app (a test process may run several servers). */
export function kanbanOf(app: PluginApp): KanbanService {
  let service = built.get(app);
  if (!service) {
    service = new KanbanService(app);
    built.set(app, service);
  }
  return service;
}
