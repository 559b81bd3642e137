import type { Infrastructure } from '../../../infrastructure.js';
import { KeyedSerializer } from '../../../keyed-serializer.js';
import type { Contact } from '../../contacts/contact.model.js';
import type { MessageView } from '../../messages/message-view.js';
import type { OutboundService } from '../../messages/outbound.service.js';
import { Ticket } from '../../tickets/ticket.model.js';
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
  /** Queues a message to the customer (sent by the durable send queue). */
  reply(text: string): Promise<void>;
  /** To a queue and optionally an agent (none: the ticket waits in the queue). */
  transfer(target: { queueId?: number | null; userId?: number | null }): Promise<void>;
  /** Resolves the ticket as an agent would (completion message or rating question). */
  close(): Promise<void>;
}

/** A conversation step: answers true when it claimed the turn (later steps do not run), false to pass. */
export interface ConversationStep {
  name: string;
  run(turn: Turn): Promise<boolean>;
}

/** What the pipeline hands over once a customer's message is stored and committed. */
export interface TurnInput {
  ticketId: number;
  companyId: number;
  connectionId: number;
  contact: Contact;
  message: MessageView;
  firstMessage: boolean;
}

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

  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { outbound: OutboundService; tickets: TicketsService; last: ConversationStep },
  ) {
    this.turns = new KeyedSerializer((err, ticket) => infra.log.error({ err, ticket }, 'conversation turn failed'));
  }

  /** Adds a step before the core's own; the plugin host calls it at start-up. */
  add(step: ConversationStep): void {
    this.steps.push(step);
  }

  /** Queues the turn behind the ticket's earlier ones; the caller does not wait for it. */
  schedule(input: TurnInput): void {
    void this.turns.run(String(input.ticketId), () => this.take(input));
  }

  /** Resolves once every turn queued so far (and meanwhile) has run: shutdown and tests. */
  idle(): Promise<void> {
    return this.turns.idle();
  }

  private async take(input: TurnInput): Promise<void> {
    const log = this.infra.log.child({ part: 'steps', ticketId: input.ticketId });
    for (const step of [...this.steps, this.deps.last]) {
      // Read again for every step: an agent may have taken the ticket, an earlier step changed it.
      const ticket = await Ticket.query(this.infra.db).findOne({ id: input.ticketId, companyId: input.companyId });
      if (!ticket || ticket.status !== 'pending' || ticket.userId !== null) return;
      try {
        if (await this.limited(step, ticket, input)) return;
      } catch (err) {
        log.warn({ err, step: step.name }, 'conversation step failed: the ticket waits for an agent');
        return;
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
    const run = step.run(this.turn(ticket, input, controller.signal));
    // A step that fails after its time is over has nobody left to tell.
    run.catch(() => undefined);
    try {
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private turn(ticket: Ticket, input: TurnInput, signal: AbortSignal): Turn {
    const { companyId } = input;
    const { outbound, tickets } = this.deps;
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
        await outbound.enqueue({ companyId, ticketId: ticket.id, body: text, userId: null });
      },
      transfer: async (target) => {
        live();
        await tickets.transfer(companyId, ticket.id, { queueId: target.queueId ?? null, userId: target.userId ?? null });
      },
      close: async () => {
        live();
        await tickets.closeTicket(companyId, ticket.id);
      },
    };
  }
}
