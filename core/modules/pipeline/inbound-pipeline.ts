import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Infrastructure } from '../../infrastructure.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { NormalizedMessage } from '../../channels/driver.js';
import { Events } from '../../events/event-bus.js';
import type { Contact } from '../contacts/contact.model.js';
import { createWhatsappContacts, refreshWhatsappContact, renamedWhatsappContact, upsertWhatsappContact, type WhatsappPeer } from '../contacts/contacts.service.js';
import { loadMessage } from '../messages/message-events.js';
import { toMessageView } from '../messages/message-view.js';
import type { Message } from '../messages/message.model.js';
import type { OutboundService } from '../messages/outbound.service.js';
import type { DirectMessages } from '../whatsapp/direct-messages.js';
import type { SettingsService } from '../settings/settings.service.js';
import { renderTemplate } from '../tickets/templates.js';
import type { TicketEvents } from '../tickets/ticket-events.js';
import { loadTicket } from '../tickets/ticket-view.js';
import type { Ticket } from '../tickets/ticket.model.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import { Chatbot } from './chatbot/chatbot.js';
import { chatbotStep } from './chatbot/chatbot-step.js';
import { ProfilePictures } from './profile-pictures.js';
import { activeTicketOf, createPendingTickets, type TicketKey } from './find-or-create-ticket.js';
import { JournalReceipt, type InboundJournal, type Journaled } from './inbound-journal.js';
import { KeyedSerializer } from '../../keyed-serializer.js';
import { wallTime } from './out-of-hours.js';
import { PipelineCache } from './pipeline-cache.js';
import { takeRatingAnswer } from './rating.js';
import { ConversationSteps } from './steps/conversation-steps.js';
import { TicketGraphs } from './ticket-graph.js';
import { GroupCommit } from './group-commit.js';
import { StoreReads } from './store-reads.js';
import { insertMessages, messageByWid, touchTickets } from './store-message.js';

/** `message.received` */
export interface MessageReceived extends Journaled {
  connectionId: number;
  companyId: number;
  message: NormalizedMessage;
}

/** `call.received` */
export interface CallReceived extends Journaled {
  connectionId: number;
  companyId: number;
  from: { number: string; name: string };
  timestamp: string;
}

/** `contact.seen` */
export interface ContactSeen {
  connectionId: number;
  companyId: number;
  number: string;
  name?: string;
  lid?: string;
  profilePicUrl?: string;
}

/** Sent when the company turned calls off (setting `call` disabled). */
export const CALLS_DISABLED_MESSAGE =
  '*Mensagem Automática:*\n\nAs chamadas de voz e vídeo estão desabilitadas para esse WhatsApp, favor enviar uma mensagem de texto. Obrigado';

/** A write lost a race on a unique index (another delivery or process): tried again from the start. */
const ATTEMPTS = 3;

/**
 * Store transactions at once on PostgreSQL, each on its own connection (a chat is in one at most):
 * while the database runs one batch's statements, the process prepares the next and announces the
 * last, where with one each side waits for the other (bench at saturation: about +10%; 3 no better).
 */
const STORE_LANES = 2;

/** What one stored message left behind for the steps after the commit. */
interface Stored {
  message: Message;
  ticket: Ticket;
  contact: Contact;
  contactCreated: boolean;
  contactChanged: boolean;
  createdTicket: boolean;
  /** The message answered a rating question (stored on the closed ticket). */
  rate?: number;
}

/** A ticket a message goes to: known, or made once the batch's new tickets are created (shared by the chat's messages). */
interface TicketSlot {
  made?: Ticket;
}

/** A message to store, its contact and ticket decided in order before the batch's rows are written. */
interface Placing {
  received: MessageReceived;
  contact?: Contact;
  contactCreated: boolean;
  contactChanged: boolean;
  ticket: TicketSlot;
  createdTicket: boolean;
  rate?: number;
}

/** A replay whose stored copy lacked the media this delivery has: the copy was completed. */
interface MediaFilled {
  filled: Message;
}

/** A message to store, with the receipt that settles its journal entry in the same transaction. */
interface ToStore {
  received: MessageReceived;
  receipt: JournalReceipt;
}

function isBroadcast(chatId: string): boolean {
  return chatId === 'status' || chatId.includes('broadcast');
}

/** Nothing to show: no text, media, location or contact card (protocol noise the driver let through). */
function isEmpty(message: NormalizedMessage): boolean {
  return !message.body.trim() && !message.mediaType && !message.media && !message.location && message.vcard === undefined;
}

/**
 * The inbound pipeline (DESIGN §5): every message a driver reports becomes a contact, a ticket and
 * a stored message, the live and domain events go out, then the conversation steps get the turn
 * (plugins' bots, then the chatbot menu), outside the chat's queue.
 *
 * Events of one chat (connection + chat id) are handled one at a time in the order they came, and
 * different chats side by side. The bus handler only queues the work, so a busy chat never holds
 * up the connection's other chats. The messages of many chats ready at the same moment are stored
 * by one transaction (group commit); a message or call read from the inbound journal settles its
 * entry in the transaction that stores it; one that keeps failing is set aside by the journal and
 * the chat's next message goes on.
 */
export class InboundPipeline {
  /** Plugins add their steps here, before the chatbot menu. */
  readonly steps: ConversationSteps;
  private readonly serializer: KeyedSerializer;
  private readonly cache: PipelineCache;
  private readonly chatbot: Chatbot;
  private readonly pictures: ProfilePictures;
  private readonly graphs: TicketGraphs;
  private readonly commits: GroupCommit<ToStore, Stored | MediaFilled | undefined>;

  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: {
      settings: SettingsService;
      outbound: OutboundService;
      tickets: TicketsService;
      events: TicketEvents;
      sessions: SessionManager;
      journal: InboundJournal;
      direct: DirectMessages;
    },
  ) {
    const log = infra.log.child({ part: 'pipeline' });
    this.serializer = new KeyedSerializer((err, key) => log.error({ err, chat: key }, 'inbound event not handled'));
    this.cache = new PipelineCache(infra, deps.settings);
    this.graphs = new TicketGraphs(infra.db, this.cache);
    this.commits = new GroupCommit(infra.db, (trx, batch) => this.storeAll(trx, batch), { lanes: STORE_LANES });
    this.chatbot = new Chatbot(infra, { cache: this.cache, graphs: this.graphs, outbound: deps.outbound, events: deps.events });
    this.pictures = new ProfilePictures(infra, { sessions: deps.sessions, events: deps.events });
    this.steps = new ConversationSteps(infra, { outbound: deps.outbound, tickets: deps.tickets, events: deps.events, cache: this.cache, last: chatbotStep(this.chatbot) });
  }

  /** Subscribes to the driver events on the bus. */
  start(): void {
    const { bus } = this.infra;
    bus.on(
      Events.messageReceived,
      (event) => {
        const received = event.payload as unknown as MessageReceived;
        this.queue(received.connectionId, received.message.chatId, received.entryId, (receipt) => this.receive(received, receipt));
      },
      'pipeline',
    );
    bus.on(
      Events.callReceived,
      (event) => {
        const call = event.payload as unknown as CallReceived;
        this.queue(call.connectionId, call.from.number, call.entryId, (receipt) => this.call(call, receipt));
      },
      'pipeline',
    );
    bus.on(
      Events.contactSeen,
      (event) => {
        const seen = event.payload as unknown as ContactSeen;
        void this.serializer.run(this.chatKey(seen.connectionId, seen.number), () => this.seen(seen));
      },
      'pipeline',
    );
  }

  /** Resolves once every event received so far is handled (shutdown, before the database closes; tests). */
  async idle(): Promise<void> {
    await this.serializer.idle();
    await this.steps.idle();
    await this.pictures.idle();
  }

  private chatKey(connectionId: number, chat: string): string {
    return `${connectionId}:${chat}`;
  }

  /** Queues a journaled event behind its chat's earlier ones. */
  private queue(connectionId: number, chat: string, entryId: number | undefined, handle: (receipt: JournalReceipt) => Promise<void>): void {
    void this.serializer.run(this.chatKey(connectionId, chat), () => this.deps.journal.process(entryId, handle));
  }

  // ---- messages ---------------------------------------------------------------------------------

  private async receive(received: MessageReceived, receipt: JournalReceipt): Promise<void> {
    const { connectionId, companyId, message } = received;
    const since = this.steps.clock();
    const outcome = await this.storeOnce(received, receipt);
    if (!outcome) return;
    if ('filled' in outcome) {
      const [filled, ticket] = await Promise.all([loadMessage(this.infra.db, outcome.filled.id), loadTicket(this.infra.db, companyId, outcome.filled.ticketId)]);
      if (filled && ticket) this.deps.events.message('update', filled, ticket);
      return;
    }

    const { ticket, contact } = outcome;
    // As committed, before announce() hangs the ticket's contact, queue and tags on it for the frames.
    const committed = ticket.$clone();
    await this.announce(connectionId, outcome);
    this.pictures.refresh(connectionId, contact);

    if (outcome.rate !== undefined) {
      await this.thankForRating(connectionId, ticket, contact);
      return;
    }
    const stepsMayRun = !message.fromMe && !message.isGroup && ticket.status === 'pending' && ticket.userId === null;
    if (stepsMayRun) {
      this.steps.schedule({ ticket: committed, since, companyId, connectionId, contact, message: toMessageView(outcome.message), firstMessage: outcome.createdTicket });
    }
  }

  /**
   * The message stored, or its replay's missing media filled in; undefined when there is nothing
   * to store, and then the file the driver saved for it is removed: no row will ever own it. A
   * failed write keeps the file: the journal tries the entry again, and an entry set aside after
   * repeated failures still names it.
   */
  private async storeOnce(received: MessageReceived, receipt: JournalReceipt): Promise<Stored | MediaFilled | undefined> {
    const outcome = (await this.wanted(received))
      ? await this.retrying(() => this.commits.submit({ received, receipt }))
      : undefined;
    if (!outcome) await this.dropMedia(received);
    return outcome;
  }

  /** Not broadcasts, protocol noise, nor groups when the company ignores them. */
  private async wanted({ companyId, message }: MessageReceived): Promise<boolean> {
    if (isBroadcast(message.chatId) || isEmpty(message)) return false;
    return !(message.isGroup && (await this.cache.setting(companyId, 'CheckMsgIsGroup')) === 'enabled');
  }

  /**
   * Messages of many chats in one transaction (or one message, when a shared one failed): their
   * journal entries settled and the rows they need read by one statement each; each message's
   * replay check, contact and ticket decided in order, the chats' new contacts and tickets created
   * by one statement each; then the messages inserted and their tickets' counters moved by one
   * statement each.
   */
  private async storeAll(trx: Knex.Transaction, batch: ToStore[]): Promise<(Stored | MediaFilled | undefined)[]> {
    await JournalReceipt.settleAll(trx, batch.map((b) => b.receipt));
    const reads = await StoreReads.ahead(
      trx,
      batch.map(({ received: { companyId, connectionId, message } }) => ({ companyId, connectionId, wid: message.id, number: message.chatId })),
    );
    const outcomes: (Placing | MediaFilled | undefined)[] = [];
    for (const { received } of batch) outcomes.push(await this.check(trx, received, reads));
    const placing = outcomes.filter((o): o is Placing => o !== undefined && 'received' in o);
    await this.contactsOf(trx, placing, reads);
    await this.ticketsOf(trx, placing, reads);
    const rows = await insertMessages(
      trx,
      placing.map(({ received: { companyId, message }, ticket, contact }) => ({ companyId, ticket: ticket.made!, contactId: contact!.id, message })),
    );
    const tickets = await touchTickets(trx, placing.map(({ ticket, received }) => ({ ticket: ticket.made!, message: received.message })));
    return outcomes.map((outcome) => {
      if (outcome === undefined || !('received' in outcome)) return outcome;
      const { contact, contactCreated, contactChanged, createdTicket, rate } = outcome;
      return { message: rows[placing.indexOf(outcome)]!, ticket: tickets.get(outcome.ticket.made!.id)!, contact: contact!, contactCreated, contactChanged, createdTicket, rate };
    });
  }

  /**
   * Whether a message is stored: undefined for a replay (also of a message earlier in the batch)
   * or the echo of a message Atende sent (already stored under the same provider id); a replay
   * that brings the media its stored copy lacks completes that copy.
   */
  private async check(trx: Knex.Transaction, received: MessageReceived, reads: StoreReads): Promise<Placing | MediaFilled | undefined> {
    const { companyId, message } = received;
    // The echo of a message sent outside tickets (a campaign's): no ticket, no message row.
    if (message.fromMe && (await this.deps.direct.isDirect(trx, companyId, message.id))) return undefined;
    const existing = await reads.message(companyId, message.id);
    if (existing) {
      if (existing.mediaPath || !message.media) return undefined;
      const filled = await existing.$query(trx).patchAndFetch({
        mediaType: message.mediaType ?? existing.mediaType,
        mediaPath: message.media.path,
        mediaName: message.media.name,
        mediaMime: message.media.mimeType,
      });
      return { filled };
    }
    if (!reads.claim(companyId, message.id)) return undefined;
    return { received, ticket: {}, contactCreated: false, contactChanged: false, createdTicket: false };
  }

  /**
   * Each message's chat contact (the person or group the company talks to, also for own-device
   * messages), in order: a known one renamed when it still bears its number and a push name
   * came; the unknown ones created by one statement, named by their first message.
   */
  private async contactsOf(trx: Knex.Transaction, placing: Placing[], reads: StoreReads): Promise<void> {
    const peerOf = ({ received: { companyId, connectionId, message } }: Placing): WhatsappPeer => ({
      companyId,
      number: message.chatId,
      name: message.isGroup || message.fromMe ? '' : message.from.name,
      isGroup: message.isGroup,
      whatsappId: connectionId,
    });
    // The first message of each chat nobody knows yet makes its contact; the others rename theirs, in order.
    const firsts = new Map<string, Placing>();
    for (const p of placing) {
      const { companyId, message } = p.received;
      const chat = `${companyId}:${message.chatId}`;
      if (!reads.contact(companyId, message.chatId) && !firsts.has(chat)) firsts.set(chat, p);
    }
    const firstOnes = [...firsts.values()];
    const made = await createWhatsappContacts(trx, firstOnes.map(peerOf));
    firstOnes.forEach((p, k) => {
      const { contact, created } = made[k]!;
      Object.assign(p, { contact, contactCreated: created, contactChanged: created });
      reads.wrote(p.received.companyId, { contact }, created);
    });
    for (const p of placing) {
      if (p.contact) continue;
      const { contact, changed } = await renamedWhatsappContact(trx, reads.contact(p.received.companyId, p.received.message.chatId)!, peerOf(p));
      Object.assign(p, { contact, contactChanged: changed });
      reads.wrote(p.received.companyId, { contact });
    }
  }

  /**
   * Each message's ticket, in order: the chat's open or pending one, the closed one a rating answer
   * goes to, or a new pending one, shared by the chat's later messages in the batch; the new ones
   * created by one statement.
   */
  private async ticketsOf(trx: Knex.Transaction, placing: Placing[], reads: StoreReads): Promise<void> {
    const opening = new Map<string, { key: TicketKey; slot: TicketSlot }>();
    for (const p of placing) {
      const { connectionId, companyId, message } = p.received;
      const contact = p.contact!;
      const key: TicketKey = { companyId, contactId: contact.id, whatsappId: connectionId, isGroup: message.isGroup };
      const keyText = `${contact.id}:${connectionId}`;
      const opened = opening.get(keyText);
      if (opened) {
        p.ticket = opened.slot;
        continue;
      }
      const active = await reads.activeTicket(key);
      if (active) {
        p.ticket.made = active;
        continue;
      }
      if (!message.fromMe && !message.isGroup && !reads.isNew(contact)) {
        const answer = await takeRatingAnswer(trx, key, message.body);
        if (answer) {
          Object.assign(p, { ticket: { made: answer.ticket }, rate: answer.rate });
          // A closed ticket: the chat's next message finds no active one.
          reads.wrote(companyId, { ticket: answer.ticket });
          continue;
        }
      }
      p.createdTicket = true;
      opening.set(keyText, { key, slot: p.ticket });
    }
    if (opening.size === 0) return;
    const news = [...opening.values()];
    const made = await createPendingTickets(trx, news.map((n) => n.key));
    news.forEach(({ key, slot }, k) => {
      slot.made = made[k]!;
      reads.wrote(key.companyId, { ticket: slot.made });
    });
  }

  /** The driver's saved file of a message that was not stored (a replay, or a failed write): no row will ever own it. */
  private async dropMedia({ companyId, message }: MessageReceived): Promise<void> {
    if (!message.media) return;
    await this.infra.media.remove(companyId, message.media.path).catch((err: unknown) => {
      this.infra.log.warn({ err, file: message.media?.path }, 'inbound media not removed');
    });
  }

  /** After the commit: a new or renamed contact to the company, the new message and its ticket to the ticket's audience. */
  private async announce(connectionId: number, stored: Stored): Promise<void> {
    const ticket = await this.graphs.of(stored.ticket, stored.contact, await this.cache.connection(connectionId), stored.createdTicket);
    if (stored.contactChanged) this.deps.events.contact(stored.contact, stored.contactCreated);
    if (stored.createdTicket) this.deps.events.created(ticket);
    this.deps.events.message('create', stored.message, ticket);
    if (!stored.createdTicket) this.deps.events.updated(ticket);
  }

  /** The rating was recorded: the connection's completion message closes the conversation. */
  private async thankForRating(connectionId: number, ticket: Ticket, contact: Contact): Promise<void> {
    const profile = await this.cache.connection(connectionId);
    const text = profile?.whatsapp.complationMessage.trim();
    if (!text) return;
    const timeZone = await this.cache.setting(ticket.companyId, 'timezone');
    const body = renderTemplate(text, { name: contact.name, timeZone, ticketId: ticket.id });
    await this.deps.outbound.enqueue({ companyId: ticket.companyId, ticketId: ticket.id, body, userId: null });
  }

  // ---- calls and contacts ----------------------------------------------------------------------

  /**
   * A missed call becomes a call_log message on the caller's ticket (a new pending one when there
   * is none); with calls turned off the caller is asked to write instead.
   */
  private async call(call: CallReceived, receipt: JournalReceipt): Promise<void> {
    const { connectionId, companyId } = call;
    const settings = await this.cache.companySettings(companyId);
    const at = new Date(call.timestamp);
    const when = Number.isNaN(at.getTime()) ? new Date() : at;
    const message: NormalizedMessage = {
      // One log per call however often the provider repeats the offer.
      id: `CALL-${call.from.number}-${when.getTime()}`,
      chatId: call.from.number,
      isGroup: false,
      fromMe: false,
      from: call.from,
      body: `Chamada de voz/vídeo perdida às ${wallTime(when, settings.timezone).time}`,
      mediaType: 'call_log',
      timestamp: when.toISOString(),
    };
    const outcome = await this.retrying(() =>
      this.infra.db.transaction(async (trx): Promise<Stored | undefined> => {
        await receipt.settle(trx);
        if (await messageByWid(trx, companyId, message.id)) return undefined;
        const { contact, created, changed } = await upsertWhatsappContact(trx, {
          companyId,
          number: message.chatId,
          name: call.from.name,
          isGroup: false,
          whatsappId: connectionId,
        });
        const key: TicketKey = { companyId, contactId: contact.id, whatsappId: connectionId, isGroup: false };
        const active = await activeTicketOf(trx, key);
        const ticket = active ?? (await createPendingTickets(trx, [key]))[0]!;
        const [row] = await insertMessages(trx, [{ companyId, ticket, contactId: contact.id, message }]);
        const touched = await touchTickets(trx, [{ ticket, message }]);
        return { message: row!, ticket: touched.get(ticket.id)!, contact, contactCreated: created, contactChanged: changed, createdTicket: !active };
      }),
    );
    if (!outcome) return;
    await this.announce(connectionId, outcome);
    if (settings.call === 'disabled') {
      await this.deps.outbound.enqueue({ companyId, ticketId: outcome.ticket.id, body: CALLS_DISABLED_MESSAGE, userId: null });
    }
  }

  /** A name or picture learned for a known contact; unknown numbers are not created here. */
  private async seen(seen: ContactSeen): Promise<void> {
    const contact = await refreshWhatsappContact(this.infra.db, seen.companyId, seen.number, { name: seen.name, profilePicUrl: seen.profilePicUrl });
    if (contact) this.deps.events.contact(contact);
  }

  /** Runs a write again when it lost a race on a unique index; the next attempt sees the winner's row. */
  private async retrying<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await write();
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= ATTEMPTS) throw err;
      }
    }
  }
}
