import type { Turn } from '../modules/pipeline/steps/conversation-steps.js';

/** Which of the ticket's bot columns a bot plugin fills: AI prompts or queue integrations. */
export type BotLink = 'promptId' | 'integrationId';

/**
 * A bot plugin's record of the tickets it held in their current attendance (its own table, one
 * row per ticket, removed when the ticket is resolved).
 */
export interface BotSessions {
  /** The bot that took the ticket in this attendance, and whether it still holds it. */
  find(companyId: number, ticketId: number): Promise<{ botId: number; active: boolean } | undefined>;
  /** `botId` takes the ticket. */
  start(companyId: number, ticketId: number, botId: number): Promise<void>;
  /** The bot lets go: it does not take the ticket again in this attendance. */
  stop(companyId: number, ticketId: number): Promise<void>;
}

/**
 * The bot of this kind holding the turn's ticket, after taking it when one is attached where the
 * ticket stands (its connection's while it has no queue, else its queue's); undefined when none
 * does. A bot takes a ticket once per attendance: one that let go (an agent accepted, it handed
 * the ticket over) or another bot holding it means none. `exists` answers whether the attached id
 * is still a bot of the company (a link to a deleted one runs nothing).
 */
export async function botHolding(turn: Turn, link: BotLink, sessions: BotSessions, exists: (botId: number) => Promise<boolean>): Promise<number | undefined> {
  const { ticket, companyId } = turn;
  if (ticket.useIntegration) {
    const session = await sessions.find(companyId, ticket.id);
    return session?.active && ticket[link] === session.botId ? session.botId : undefined;
  }
  // Not held: only an attached bot may take it (the attachment is cached, the session is not).
  const { connection, queue } = await turn.attached();
  const botId = ticket.queueId === null ? connection[link] : (queue?.[link] ?? null);
  if (botId === null || (await sessions.find(companyId, ticket.id)) || !(await exists(botId))) return undefined;
  await sessions.start(companyId, ticket.id, botId);
  await turn.hold({ promptId: null, integrationId: null, [link]: botId });
  return botId;
}

/**
 * The bot lets go of the ticket for this attendance: to `target`'s queue or agent (a queue only:
 * it waits there for a person; the agent alone: in the queue where it stands), or, with no target,
 * it stays where it is without a bot.
 */
export async function botLetsGo(turn: Turn, sessions: BotSessions, target: { queueId?: number | null; userId?: number | null } | null): Promise<void> {
  await sessions.stop(turn.companyId, turn.ticket.id);
  if (target && (target.queueId || target.userId)) await turn.transfer({ queueId: target.queueId ?? turn.ticket.queueId, userId: target.userId ?? null });
  else await turn.hold(null);
}
