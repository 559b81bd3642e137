import type { Infrastructure } from '../../../infrastructure.js';
import { KeyedSerializer } from '../../../keyed-serializer.js';
import type { Readable } from 'node:stream';
import type { Contact } from '../../contacts/contact.model.js';
import { publishMessage } from '../../messages/message-events.js';
import type { MessageView } from '../../messages/message-view.js';
import type { OutboundService } from '../../messages/outbound.service.js';
import { outgoingMediaKind } from '../../messages/outgoing-media.js';
import { Message } from '../../messages/message.model.js';
import type { TicketEvents } from '../../tickets/ticket-events.js';
import { Ticket } from '../../tickets/ticket.model.js';
import { TurnBatch } from '../memo.js';
import type { PipelineCache } from '../pipeline-cache.js';
import type { TicketsService } from '../../tickets/tickets.service.js';

/**
 * One customer message a step may answer: the ticket as it stands when the step runs (pending,
 * without an agent), and what a step may do with it, on the same services the agents use.
 */
export interface Turn {
  ticket: Ticket;
  contact: Contact;
  message: MessageView;
  connectionId: number;
  companyId: number;
  /** The message opened the ticket. */
  firstMessage: boolean;
  /** Aborted when the step's time is over; the actions below then refuse to act. */
  signal: AbortSignal;
  /** Queues a message to the customer (sent by the durable send queue), marked as this step's (`bot`). */
  reply(text: string): Promise<void>;
  /**
   * Queues a voice note to the customer: `file.path` a file already in MediaStorage (Ogg/Opus plays
   * as WhatsApp's own) shown as `file.name`, `transcript` what it says (shown to agents under it and
   * as the ticket's last message, read as its text by `history`). Marked as this step's.
   */
  replyVoice(file: { path: string; name: string }, transcript: string): Promise<void>;
  /** The message's attachment (a voice note, an image…) to read, or null when it has none. */
  media(): Promise<{ name: string; mime: string; size: number; stream: Readable } | null>;
  /** Keeps what the customer's voice note says on the message: agents see it live under the audio, `history` reads it as text. */
  transcribed(text: string): Promise<void>;
  /** To a queue and optionally an agent (none: the ticket waits in the queue). The bot lets go of the ticket. */
  transfer(target: { queueId?: number | null; userId?: number | null }): Promise<void>;
  /**
   * The bots attached where the ticket stands: its connection's prompt and integration (they run
   * while the ticket has no queue) and its queue's (once it is in one); the connection's name too.
   */
  attached(): Promise<{ connection: BotLinks & { name: string }; queue: BotLinks | null }>;
  /**
   * The ticket's last `limit` text messages before this turn's, oldest first (not deleted, not
   * empty; a transcribed voice note as its transcript): what a bot sends as the conversation so far.
   * `fromMe` is ours (agents and bots).
   */
  history(limit: number): Promise<{ fromMe: boolean; body: string; bot: string | null }[]>;
  /**
   * A bot takes the ticket (`useIntegration` on, its prompt or integration id set; the ticket row
   * shows it), or lets go of it with null. Announced to the agents as any ticket change.
   */
  hold(bot: BotLinks | null): Promise<void>;
  /** Resolves the ticket as an agent would (completion message or rating question). */
  close(): Promise<void>;
}

/** Which prompt and integration a connection, a queue or a ticket has. */
export interface BotLinks {
  promptId: number | null;
  integrationId: number | null;
}

/** A conversation step: answers true when it claimed the turn (later steps do not run), false to pass. */
export interface ConversationStep {
  name: string;
  /** Whether the step is for this company at all (a plugin's plan flag); one that is not is skipped without reading the ticket. */
  enabled?(companyId: number): Promise<boolean>;
  run(turn: Turn): Promise<boolean>;
}

/** What the pipeline hands over once a customer's message is stored and committed. */
export interface TurnInput {
  /** The ticket as the pipeline's transaction committed it, pending and without an agent. */
  ticket: Ticket;
  /** `clock()` read before that transaction began: a turn of the ticket that ended later may have changed it. */
  since: number;
  companyId: number;
  connectionId: number;
  contact: Contact;
  message: MessageView;
  firstMessage: boolean;
}

/**
 * When each ticket's last turn ended, on a counter of turn ends. Only the latest entries are kept:
 * a ticket whose entry was dropped counts as ended at the newest dropped one, never earlier.
 */
class TurnEnds {
  private count = 0;
  private floor = 0;
  private readonly ended = new Map<number, number>();

  constructor(private readonly keep: number) {}

  now(): number {
    return this.count;
  }

  record(ticketId: number): void {
    this.count += 1;
    // Deleted first so the map stays in the order of the ends: the first entry is the oldest.
    this.ended.delete(ticketId);
    this.ended.set(ticketId, this.count);
    if (this.ended.size <= this.keep) return;
    const [oldest, at] = this.ended.entries().next().value!;
    this.ended.delete(oldest);
    this.floor = at;
  }

  /** Whether a turn of the ticket ended after `mark` (a `now()` read earlier). */
  after(ticketId: number, mark: number): boolean {
    return (this.ended.get(ticketId) ?? this.floor) > mark;
  }
}

/** Tickets read again by one query. */
const TICKETS_CHUNK = 500;

/** How many tickets' last turn ends are remembered: far more than the turns a burst of messages can end while one is stored. */
const TURN_ENDS_KEPT = 10_000;

class StepTimeout extends Error {
  constructor(step: string, ms: number) {
    super(`conversation step ${step} took longer than ${ms} ms`);
  }
}

/**
 * The conversation steps of DESIGN §7: after a customer's message is stored, the plugins' steps
 * (in plugin order, then declaration order) and last the core's own (the chatbot menu) run until
 * one claims the turn. Turns of one ticket run one at a time in the order their messages came,
 * outside the connection's event queue, so a slow step holds only its own ticket. Each step has
 * stepTimeoutMs; a step that throws or times out ends the turn and leaves the ticket pending for
 * the agents: the message is stored already, so nothing is lost.
 */
export class ConversationSteps {
  private readonly steps: ConversationStep[] = [];
  private readonly turns: KeyedSerializer;
  private readonly ends = new TurnEnds(TURN_ENDS_KEPT);
  /** The tickets the turns under way read again in one turn of the event loop, by one query. */
  private readonly ticketReads = new TurnBatch<number, Ticket>(async (ids) => {
    const found = new Map<number, Ticket>();
    for (let i = 0; i < ids.length; i += TICKETS_CHUNK) {
      for (const ticket of await Ticket.query(this.infra.db).whereIn('id', ids.slice(i, i + TICKETS_CHUNK))) found.set(ticket.id, ticket);
    }
    return found;
  });

  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { outbound: OutboundService; tickets: TicketsService; events: TicketEvents; cache: PipelineCache; last: ConversationStep },
  ) {
    this.turns = new KeyedSerializer((err, ticket) => infra.log.error({ err, ticket }, 'conversation turn failed'));
  }

  /** Adds a step before the core's own; the plugin host calls it at start-up. */
  add(step: ConversationStep): void {
    this.steps.push(step);
  }

  /** Read before the transaction that stores a message begins; the turn's `since`. */
  clock(): number {
    return this.ends.now();
  }

  /** Queues the turn behind the ticket's earlier ones; the caller does not wait for it. */
  schedule(input: TurnInput): void {
    const ticketId = input.ticket.id;
    void this.turns.run(String(ticketId), async () => {
      try {
        await this.take(input);
      } finally {
        this.ends.record(ticketId);
      }
    });
  }

  /** Resolves once every turn queued so far (and meanwhile) has run: shutdown and tests. */
  idle(): Promise<void> {
    return this.turns.idle();
  }

  private async take(input: TurnInput): Promise<void> {
    const { companyId } = input;
    const ticketId = input.ticket.id;
    const log = this.infra.log.child({ part: 'steps', ticketId });
    const failed = (step: ConversationStep, err: unknown) => log.warn({ err, step: step.name }, 'conversation step failed: the ticket waits for an agent');
    // The first step to run takes the committed ticket, unless an earlier turn of it ended meanwhile.
    let committed: Ticket | undefined = this.ends.after(ticketId, input.since) ? undefined : input.ticket;
    for (const step of [...this.steps, this.deps.last]) {
      try {
        if (step.enabled && !(await step.enabled(companyId))) continue;
      } catch (err) {
        return failed(step, err);
      }
      // Read again after a step ran: an agent may have taken the ticket meanwhile, the step changed it.
      const ticket = committed ?? (await this.ticketReads.get(ticketId));
      committed = undefined;
      if (!ticket || ticket.companyId !== companyId || ticket.status !== 'pending' || ticket.userId !== null) return;
      try {
        if (await this.limited(step, ticket, input)) return;
      } catch (err) {
        return failed(step, err);
      }
    }
  }

  /** Runs one step within stepTimeoutMs; a step still running then is aborted and its result ignored. */
  private async limited(step: ConversationStep, ticket: Ticket, input: TurnInput): Promise<boolean> {
    const ms = this.infra.config.stepTimeoutMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new StepTimeout(step.name, ms));
      }, ms);
    });
    const run = step.run(this.turn(step.name, ticket, input, controller.signal));
    // A step that fails after its time is over has nobody left to tell.
    run.catch(() => undefined);
    try {
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private turn(step: string, ticket: Ticket, input: TurnInput, signal: AbortSignal): Turn {
    const { companyId } = input;
    const { outbound, tickets, events, cache } = this.deps;
    const db = this.infra.db;
    const live = () => {
      if (signal.aborted) throw new Error('the conversation step ran out of time');
    };
    return {
      ticket,
      contact: input.contact,
      message: input.message,
      connectionId: input.connectionId,
      companyId,
      firstMessage: input.firstMessage,
      signal,
      reply: async (text) => {
        live();
        await outbound.enqueue({ companyId, ticketId: ticket.id, body: text, userId: null, bot: step });
      },
      replyVoice: async (file, transcript) => {
        live();
        const { mime, type, ptt } = outgoingMediaKind(file.name, true);
        const media = { path: file.path, name: file.name, mime, type, ptt };
        await outbound.enqueue({ companyId, ticketId: ticket.id, body: '', userId: null, bot: step, media, transcript });
      },
      media: async () => {
        const row = await Message.query(db).findOne({ id: input.message.id, companyId });
        if (!row?.mediaPath) return null;
        const file = await this.infra.media.open(companyId, row.mediaPath);
        return { name: row.mediaName ?? row.mediaPath, mime: row.mediaMime ?? 'application/octet-stream', size: file.size, stream: file.stream };
      },
      transcribed: async (text) => {
        live();
        await Message.query(db).where({ id: input.message.id, companyId }).patch({ transcript: text });
        await publishMessage(db, events, 'update', input.message.id);
      },
      transfer: async (target) => {
        live();
        await tickets.transfer(companyId, ticket.id, { queueId: target.queueId ?? null, userId: target.userId ?? null });
      },
      attached: async () => {
        const links = (row: BotLinks | undefined): BotLinks => ({ promptId: row?.promptId ?? null, integrationId: row?.integrationId ?? null });
        // From the pipeline's cache, which every node drops when a connection or queue is edited.
        const profile = await cache.connection(input.connectionId);
        const connection = profile?.whatsapp.companyId === companyId ? profile.whatsapp : undefined;
        const queue = ticket.queueId === null || !profile || !connection ? undefined : (await cache.queue(profile, ticket.queueId))?.queue;
        return { connection: { ...links(connection), name: connection?.name ?? '' }, queue: queue ? links(queue) : null };
      },
      history: async (limit) => {
        if (limit <= 0) return [];
        const rows = await Message.query(db)
          .where({ ticketId: ticket.id, companyId, isDeleted: false })
          .where((said) => said.where((text) => text.whereNull('mediaType').whereNot('body', '')).orWhereNotNull('transcript'))
          .where('id', '<', input.message.id)
          .orderBy('createdAt', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .select('fromMe', 'body', 'transcript', 'bot');
        return rows.reverse().map((m) => ({ fromMe: Boolean(m.fromMe), body: m.transcript ?? m.body, bot: m.bot ?? null }));
      },
      hold: async (bot) => {
        live();
        await tickets.setBot(companyId, ticket.id, bot);
      },
      close: async () => {
        live();
        await tickets.closeTicket(companyId, ticket.id);
      },
    };
  }
}
