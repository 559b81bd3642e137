import type { Knex } from 'knex';
import type { Infrastructure } from '../../../infrastructure.js';
import type { Contact } from '../../contacts/contact.model.js';
import type { OutboundService } from '../../messages/outbound.service.js';
import { renderTemplate } from '../../tickets/templates.js';
import { ticketBefore, type TicketEvents } from '../../tickets/ticket-events.js';
import { Ticket } from '../../tickets/ticket.model.js';
import { tracking } from '../../tickets/tracking.js';
import { GroupCommit } from '../group-commit.js';
import { Cooldowns } from '../memo.js';
import { isWithinSchedule, OUT_OF_HOURS_REPEAT_MS } from '../out-of-hours.js';
import type { BotQueue, CompanySettings, ConnectionProfile, PipelineCache } from '../pipeline-cache.js';
import type { TicketGraphs } from '../ticket-graph.js';
import { BACK_KEY, childrenOf, MAIN_MENU_KEY, optionMenuText, queueMenuText, queueOptionsText } from './menus.js';

/** An agent took the ticket, or someone moved it to another queue, while the bot was answering: the bot's step is undone. */
class TakenMeanwhile extends Error {}

/** A customer message the bot answers: the ticket as it stands after the message was stored. */
export interface BotTurn {
  ticket: Ticket;
  contact: Contact;
  connectionId: number;
  text: string;
  /** The message opened this ticket. */
  firstMessage: boolean;
}

/** A step's writes, as apply decided them: its non-empty messages and its patch (empty: none). */
interface BotWrite extends Pick<Step, 'queued' | 'chatbotStarted'> {
  ticket: Ticket;
  contact: Contact;
  timeZone: string;
  say: string[];
  patch: BotPatch;
}

type BotPatch = Partial<Pick<Ticket, 'queueId' | 'chatbot' | 'queueOptionId' | 'amountUsedBotQueues'>>;

interface Step {
  /** The ticket's changes; applied only while it is still pending without an agent. */
  patch?: BotPatch;
  /** Automatic messages, in order; empty ones are skipped. */
  say: string[];
  /** The ticket entered (or left) a queue: the attendance's wait starts now. */
  queued?: boolean;
  /** The bot started handling the ticket (menu or options sent). */
  chatbotStarted?: boolean;
}

/**
 * The automatic side of a pending ticket nobody has taken (whaticket-behaviour §5, with its bugs
 * fixed): out-of-hours replies, the connection's greeting, the queue menu and each queue's options
 * tree. Each step changes the ticket and queues its messages in one transaction (shared with the
 * steps of other tickets ready at the same moment); the messages go out through the durable send
 * queue.
 */
export class Chatbot {
  private readonly cooldowns = new Cooldowns();
  private readonly commits: GroupCommit<BotWrite, Ticket | undefined>;

  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { cache: PipelineCache; graphs: TicketGraphs; outbound: OutboundService; events: TicketEvents },
  ) {
    this.commits = new GroupCommit(infra.db, (trx, writes) => this.writeAll(trx, writes));
  }

  async handle(turn: BotTurn, now = new Date()): Promise<void> {
    const { ticket } = turn;
    const [settings, profile] = await Promise.all([this.deps.cache.companySettings(ticket.companyId), this.deps.cache.connection(turn.connectionId)]);
    if (!profile) return;
    const timeZone = settings.timezone;

    if (settings.scheduleType === 'company') {
      const schedules = await this.deps.cache.companySchedules(ticket.companyId);
      if (!isWithinSchedule(schedules, now, timeZone)) return this.outOfHours(turn, profile.whatsapp.outOfHoursMessage, settings);
    }
    if (ticket.queueId !== null) {
      const current = await this.deps.cache.queue(profile, ticket.queueId);
      if (!current) return;
      if (settings.scheduleType === 'queue' && !isWithinSchedule(current.queue.schedules, now, timeZone)) {
        return this.outOfHours(turn, current.queue.outOfHoursMessage, settings);
      }
      if (ticket.chatbot) await this.optionsTree(turn, profile, current, settings, now);
      return;
    }
    await this.chooseQueue(turn, profile, settings, now, false);
  }

  // ---- the queue menu -------------------------------------------------------------------------

  /**
   * A ticket without queue: the greeting (no queues), the one queue taken at once, or the menu of
   * two or more queues and the customer's choice. `restart`: the customer asked for the main menu
   * ('#'), so the ticket leaves its queue and the menu starts over.
   */
  private async chooseQueue(turn: BotTurn, profile: ConnectionProfile, settings: CompanySettings, now: Date, restart: boolean): Promise<void> {
    const { ticket } = turn;
    const { whatsapp, queues } = profile;
    const reset: BotPatch = restart ? { queueId: null, queueOptionId: null, chatbot: false, amountUsedBotQueues: 0 } : {};

    if (queues.length === 0) {
      if (restart) await this.apply(turn, settings, { patch: reset, say: [], queued: true });
      else if (turn.firstMessage) await this.apply(turn, settings, { say: [whatsapp.greetingMessage] });
      return;
    }
    if (queues.length === 1) {
      const greeting = settings.sendGreetingMessageOneQueues === 'enabled' ? whatsapp.greetingMessage : '';
      await this.enterQueue(turn, queues[0]!, settings, now, greeting);
      return;
    }

    const menuSent = !restart && ticket.amountUsedBotQueues > 0;
    const choice = menuSent ? this.menuChoice(turn.text, queues) : undefined;
    if (choice) {
      await this.enterQueue(turn, choice, settings, now, '');
      return;
    }
    if (menuSent && !this.mayResendMenu(ticket, whatsapp.maxUseBotQueues, whatsapp.timeUseBotQueues)) {
      // The bot gives up: the ticket waits without queue for an agent (or the automatic transfer).
      if (ticket.chatbot && whatsapp.maxUseBotQueues > 0 && ticket.amountUsedBotQueues >= whatsapp.maxUseBotQueues) {
        await this.apply(turn, settings, { patch: { chatbot: false }, say: [] });
      }
      return;
    }
    if (whatsapp.timeUseBotQueues > 0) this.cooldowns.start(`menu:${ticket.id}`, whatsapp.timeUseBotQueues * 60_000);
    const menu = queueMenuText(whatsapp.greetingMessage, queues.map((q) => q.queue));
    const used = restart ? 0 : ticket.amountUsedBotQueues;
    await this.apply(turn, settings, { patch: { ...reset, chatbot: true, amountUsedBotQueues: used + 1 }, say: [menu], queued: restart, chatbotStarted: true });
  }

  /** The queue whose number (1, 2, …) the customer typed. */
  private menuChoice(text: string, queues: BotQueue[]): BotQueue | undefined {
    const typed = text.trim();
    return /^\d{1,3}$/.test(typed) ? queues[Number(typed) - 1] : undefined;
  }

  /** maxUseBotQueues menus at most (0: no limit), and not again within timeUseBotQueues minutes (0: no wait). */
  private mayResendMenu(ticket: Ticket, maxUses: number, minutes: number): boolean {
    if (maxUses > 0 && ticket.amountUsedBotQueues >= maxUses) return false;
    return !(minutes > 0 && this.cooldowns.active(`menu:${ticket.id}`));
  }

  /**
   * The ticket takes a queue: the queue's greeting, and its options when it has some (the bot goes
   * on with the options tree). A queue out of its hours (scheduleType 'queue') answers with its
   * out-of-hours message instead; the ticket waits in it for the agents.
   */
  private async enterQueue(turn: BotTurn, target: BotQueue, settings: CompanySettings, now: Date, connectionGreeting: string): Promise<void> {
    const { queue } = target;
    const roots = childrenOf(target.options, null);
    const closed = settings.scheduleType === 'queue' && !isWithinSchedule(queue.schedules, now, settings.timezone);
    const chatbot = roots.length > 0 && !closed;
    let answer = roots.length > 0 ? queueOptionsText(queue, roots) : queue.greetingMessage;
    if (closed) {
      this.cooldowns.start(`hours:${turn.ticket.id}`, OUT_OF_HOURS_REPEAT_MS);
      answer = queue.outOfHoursMessage;
    }
    await this.apply(turn, settings, {
      patch: { queueId: queue.id, queueOptionId: null, chatbot },
      say: [connectionGreeting, answer],
      queued: true,
      chatbotStarted: chatbot,
    });
  }

  // ---- a queue's options tree -------------------------------------------------------------------

  /**
   * '#' back to the queue menu, '0' one level up, an option's key one level down (its message and
   * its own options; a leaf only says its message and waits for an agent), anything else repeats
   * the level. At a leaf other texts get no answer: they are for the agent.
   */
  private async optionsTree(turn: BotTurn, profile: ConnectionProfile, current: BotQueue, settings: CompanySettings, now: Date): Promise<void> {
    const { ticket } = turn;
    const typed = turn.text.trim();
    if (typed === MAIN_MENU_KEY) return this.chooseQueue(turn, profile, settings, now, true);

    const { queue, options } = current;
    const at = ticket.queueOptionId === null ? undefined : options.find((o) => o.id === ticket.queueOptionId);
    const levelText = (option: typeof at) => (option ? optionMenuText(option, childrenOf(options, option.id)) : queueOptionsText(queue, childrenOf(options, null)));

    if (typed === BACK_KEY) {
      const parent = at?.parentId ? options.find((o) => o.id === at.parentId) : undefined;
      await this.apply(turn, settings, { patch: { queueOptionId: parent?.id ?? null }, say: [levelText(parent)] });
      return;
    }
    const level = childrenOf(options, at?.id ?? null);
    if (at && level.length === 0) return;
    const chosen = level.find((o) => o.option.trim().toLowerCase() === typed.toLowerCase());
    if (!chosen) {
      await this.apply(turn, settings, { say: [levelText(at)] });
      return;
    }
    const leaf = childrenOf(options, chosen.id).length === 0;
    await this.apply(turn, settings, { patch: { queueOptionId: chosen.id }, say: [leaf ? chosen.message : levelText(chosen)] });
  }

  // ---- out of hours ------------------------------------------------------------------------------

  /** The out-of-hours message, at most once per ticket every OUT_OF_HOURS_REPEAT_MS; nothing else runs. */
  private async outOfHours(turn: BotTurn, text: string, settings: CompanySettings): Promise<void> {
    if (!text.trim() || !this.cooldowns.take(`hours:${turn.ticket.id}`, OUT_OF_HOURS_REPEAT_MS)) return;
    await this.apply(turn, settings, { say: [text] });
  }

  // ---- writing -----------------------------------------------------------------------------------

  /**
   * One bot step: the messages, the attendance, and the ticket's change, which applies only while
   * the ticket is still pending without an agent, in the queue the bot saw: when an agent took it
   * or someone transferred it meanwhile, the whole step is undone and the bot says nothing. Queue,
   * chatbot and option changes are then announced to the ticket's old and new audiences.
   */
  private async apply(turn: BotTurn, settings: CompanySettings, step: Step): Promise<void> {
    const { ticket, contact } = turn;
    const say = step.say.filter((text) => text.trim() !== '');
    const patch = step.patch ?? {};
    if (say.length === 0 && Object.keys(patch).length === 0) return;
    const before = ticketBefore(ticket);
    const visible = (['queueId', 'chatbot', 'queueOptionId'] as const).some((key) => key in patch && patch[key] !== ticket[key]);

    let written: Ticket | undefined;
    try {
      written = await this.commits.submit({ ticket, contact, timeZone: settings.timezone, say, patch, queued: step.queued, chatbotStarted: step.chatbotStarted });
    } catch (err) {
      if (err instanceof TakenMeanwhile) return;
      throw err;
    }
    if (!written || !visible) return;
    const profile = await this.deps.cache.connection(turn.connectionId);
    this.deps.events.updated(await this.deps.graphs.of(written, contact, profile), before);
  }

  /**
   * The steps of many tickets ready at the same moment, by one transaction (group commit): a burst
   * of new chats costs a few commits, not one per chat. A step whose ticket was taken meanwhile
   * fails the batch, and each of its steps is then written by a transaction of its own. The
   * tickets are written in id order, the order in which the pipeline's one UPDATE of a batch of
   * tickets locks them on PostgreSQL: two such transactions never wait for each other in a cycle.
   */
  private async writeAll(trx: Knex.Transaction, writes: BotWrite[]): Promise<(Ticket | undefined)[]> {
    const written: (Ticket | undefined)[] = new Array(writes.length);
    const byTicket = writes.map((_, i) => i).sort((a, b) => writes[a]!.ticket.id - writes[b]!.ticket.id);
    for (const i of byTicket) written[i] = await this.write(trx, writes[i]!);
    return written;
  }

  private async write(trx: Knex.Transaction, { ticket, contact, timeZone, say, patch, queued, chatbotStarted }: BotWrite): Promise<Ticket | undefined> {
    await this.say(trx, ticket, contact, timeZone, say);
    if (Object.keys(patch).length === 0) return undefined;
    // Last, so the row it answers includes what queuing the messages wrote (the last message).
    // A null in the condition is an IS NULL: no agent, and the queue the bot saw (or still none).
    const [row] = (await Ticket.query(trx)
      .patch(patch)
      .where({ id: ticket.id, status: 'pending', userId: null, queueId: ticket.queueId })
      .returning('*')) as unknown as Ticket[];
    if (!row) throw new TakenMeanwhile();
    if (queued) await tracking.queued(trx, row);
    if (chatbotStarted) await tracking.chatbot(trx, row);
    return row;
  }

  private async say(trx: Knex.Transaction, ticket: Ticket, contact: Contact, timeZone: string, texts: string[]): Promise<void> {
    for (const text of texts) {
      const body = renderTemplate(text, { name: contact.name, timeZone, ticketId: ticket.id });
      await this.deps.outbound.enqueue({ companyId: ticket.companyId, ticketId: ticket.id, body, userId: null }, trx);
    }
  }
}
