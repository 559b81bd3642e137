import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverEvent, NormalizedMessage } from '../../core/channels/driver.js';
import { JOURNAL_ATTEMPTS } from '../../core/modules/pipeline/inbound-journal.js';
import { createConnection, createMember, createTenant, customerWrites, eventually, type InboxTenant } from '../helpers/inbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';

const CHATS = 50;
const PER_CHAT = 20;

interface StoredRow {
  id: number;
  wid: string;
  ticketId: number;
  remoteJid: string;
  body: string;
}

interface JournalRow {
  id: number;
  chat: string;
  event: string;
  attempts: number;
  failedAt: string | null;
}

interface AppMessageFrame {
  action: string;
  message: { id: number; wid: string; body: string };
  ticket: { id: number; lastMessage: string; contact: { number: string } };
  contact: { number: string };
}

function number(chat: number): string {
  return `55119770${String(chat).padStart(5, '0')}`;
}

type MessageEvent = Extract<DriverEvent, { type: 'message' }>;

function messageEvent(chatId: string, id: string, name: unknown, body: string): MessageEvent {
  const message = { id, chatId, isGroup: false, fromMe: false, from: { number: chatId, name }, body, timestamp: new Date().toISOString() };
  return { type: 'message', message: message as NormalizedMessage };
}

describe('the messages of many chats are stored together (group commit)', () => {
  let server: TestServer;
  let tenant: InboxTenant;
  let connectionId: number;
  let agent: TestSocket;

  const db = () => server.atende.container.db;
  const journal = (): Promise<JournalRow[]> => db()('inbound_journal').where({ companyId: tenant.companyId }).orderBy('id');
  const inboundRows = (widPrefix: string): Promise<StoredRow[]> =>
    db()('messages').where({ companyId: tenant.companyId, fromMe: false }).whereLike('wid', `${widPrefix}%`).orderBy('id').select('id', 'wid', 'ticketId', 'remoteJid', 'body');

  /** Entries written to the journal and handed to the pipeline at once, as a restart resumes them. */
  async function journalAndResume(events: MessageEvent[]): Promise<void> {
    for (const event of events) {
      const chat = event.message.chatId;
      await db()('inbound_journal').insert({ companyId: tenant.companyId, connectionId, chat, event: JSON.stringify(event), createdAt: new Date().toISOString() });
    }
    await server.atende.container.sessions.resumeJournal(connectionId);
    await server.atende.container.services.pipeline.idle();
  }

  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Group Commit Co');
    connectionId = await createConnection(server, tenant, 'Phone');
    // New tickets have no queue: an agent who sees queueless tickets hears every one of them.
    const member = await createMember(server, tenant, 'watcher', { allTicket: 'enabled' });
    agent = await openSocket(server.url, member.token);
  });
  afterAll(async () => {
    await agent?.close();
    await server?.close();
  });

  it(`${CHATS} chats writing ${PER_CHAT} messages each at once: every message stored once, in order per chat, each one's frame on the agent's socket, the journal empty`, async () => {
    await Promise.all(
      Array.from({ length: CHATS }, async (_, chat) => {
        // Each chat in order (the next once the previous is acknowledged), all chats at the same time.
        for (let k = 0; k < PER_CHAT; k += 1) {
          await customerWrites(server, tenant, connectionId, { from: number(chat), name: `Cliente ${chat}`, id: `GC-${chat}-${k}`, body: `chat ${chat} mensagem ${k}` });
        }
      }),
    );
    await server.atende.container.services.pipeline.idle();

    const rows = await inboundRows('GC-');
    expect(rows).toHaveLength(CHATS * PER_CHAT);
    expect(new Set(rows.map((r) => r.wid)).size).toBe(CHATS * PER_CHAT);
    for (let chat = 0; chat < CHATS; chat += 1) {
      const ofChat = rows.filter((r) => r.remoteJid === number(chat));
      expect(ofChat.map((r) => r.body), `chat ${chat}`).toEqual(Array.from({ length: PER_CHAT }, (_, k) => `chat ${chat} mensagem ${k}`));
      expect(new Set(ofChat.map((r) => r.ticketId)).size, `chat ${chat} has one ticket`).toBe(1);
    }
    const tickets: { id: number; unreadMessages: number; lastMessage: string }[] = await db()('tickets')
      .whereIn('id', [...new Set(rows.map((r) => r.ticketId))])
      .select('id', 'unreadMessages', 'lastMessage');
    expect(tickets).toHaveLength(CHATS);
    for (const ticket of tickets) {
      expect(ticket.unreadMessages).toBe(PER_CHAT);
      expect(ticket.lastMessage).toMatch(new RegExp(`mensagem ${PER_CHAT - 1}$`));
    }

    const frames = await eventually(
      async () => {
        const seen = agent.frames.filter((f) => f.channel === `company-${tenant.companyId}-appMessage` && (f.data as AppMessageFrame).message.wid.startsWith('GC-'));
        return seen.length >= CHATS * PER_CHAT && seen;
      },
      15_000,
      'a frame for every message',
    );
    const created = frames.map((f) => f.data as AppMessageFrame).filter((d) => d.action === 'create');
    expect(created).toHaveLength(CHATS * PER_CHAT);
    const byWid = new Map(rows.map((r) => [r.wid, r]));
    for (const data of created) {
      const row = byWid.get(data.message.wid)!;
      expect(data.message).toMatchObject({ id: row.id, body: row.body });
      expect(data.ticket).toMatchObject({ id: row.ticketId, contact: { number: row.remoteJid } });
      expect(data.contact.number).toBe(row.remoteJid);
    }
    // Frames of one chat arrive in the order its messages were stored.
    for (let chat = 0; chat < CHATS; chat += 1) {
      const ids = created.filter((d) => d.contact.number === number(chat)).map((d) => d.message.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    expect(await journal()).toEqual([]);
  }, 120_000);

  it('a message that fails in a shared transaction fails alone: the others are stored, it is retried and set aside', async () => {
    const events = Array.from({ length: 20 }, (_, i) => messageEvent(number(100 + i), `GF-${i}`, `Cliente ${i}`, `lote ${i}`));
    // A sender name that is not text: storing it throws inside the transaction the batch shares.
    events[7] = messageEvent(number(107), 'GF-7', 42, 'lote 7');
    await journalAndResume(events);

    const rows = await inboundRows('GF-');
    expect(rows.map((r) => r.wid).sort()).toEqual(events.map((e) => e.message.id).filter((wid) => wid !== 'GF-7').sort());
    const left = await journal();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ chat: number(107), attempts: JOURNAL_ATTEMPTS, failedAt: expect.anything() });
    await db()('inbound_journal').where({ id: left[0]!.id }).delete();
    // With nothing left to write no connection is held: the batches' own one (PostgreSQL) went back to the pool, the failed batch's too.
    const pool = (db().client as { pool: { numUsed(): number } }).pool;
    await eventually(async () => pool.numUsed() === 0, 5000, 'every connection back in the pool');
  });

  it("new chats handed over at once are stored by statements that do not grow with the chats: each chat's contact, ticket and attendance made", async () => {
    const NEW_CHATS = 40;
    const events = Array.from({ length: NEW_CHATS }, (_, i) => messageEvent(number(300 + i), `GN-${i}`, `Novo ${i}`, `novo ${i}`));
    const byTransaction = new Map<string, string[]>();
    const count = (q: { sql: string; __knexTxId?: string }) => {
      if (q.__knexTxId) byTransaction.set(q.__knexTxId, [...(byTransaction.get(q.__knexTxId) ?? []), q.sql]);
    };
    db().on('query', count);
    try {
      await journalAndResume(events);
    } finally {
      db().off('query', count);
    }
    const stores = [...byTransaction.values()].filter((sqls) => sqls.some((sql) => /^insert into [`"]messages[`"]/.test(sql)));
    expect(stores.length).toBeGreaterThan(0);
    // Begin, settle, three reads ahead, contacts (insert, read back), tickets, attendances, messages, counters, commit.
    for (const sqls of stores) expect(sqls.length, sqls.join('\n')).toBeLessThanOrEqual(13);

    const rows = await inboundRows('GN-');
    expect(rows.map((r) => r.body).sort()).toEqual(events.map((e) => e.message.body).sort());
    const tickets: { id: number; status: string; unreadMessages: number; contactId: number }[] = await db()('tickets').whereIn(
      'id',
      rows.map((r) => r.ticketId),
    );
    expect(tickets).toHaveLength(NEW_CHATS);
    expect(tickets.every((t) => t.status === 'pending' && t.unreadMessages === 1)).toBe(true);
    const contacts: { id: number; name: string }[] = await db()('contacts').whereIn(
      'id',
      tickets.map((t) => t.contactId),
    );
    expect(contacts.map((c) => c.name).sort()).toEqual(events.map((e) => e.message.from.name).sort());
    const attendances: { ticketId: number }[] = await db()('ticketTracking').whereIn(
      'ticketId',
      tickets.map((t) => t.id),
    );
    expect(attendances.map((a) => a.ticketId).sort((a, b) => a - b)).toEqual(tickets.map((t) => t.id).sort((a, b) => a - b));
    expect(await journal()).toEqual([]);
  });

  it('a replayed message stored once, whether its copies share a transaction or follow each other', async () => {
    const chat = number(200);
    const events = [
      messageEvent(chat, 'GR-1', 'Cliente', 'primeira'),
      messageEvent(chat, 'GR-1', 'Cliente', 'primeira'),
      messageEvent(chat, 'GR-2', 'Cliente', 'segunda'),
      // The same provider id under another chat, handed over at the same moment: one batch.
      messageEvent(number(201), 'GR-2', 'Outro', 'segunda'),
      messageEvent(number(202), 'GR-3', 'Cliente', 'terceira'),
      messageEvent(number(203), 'GR-3', 'Cliente', 'terceira'),
    ];
    await journalAndResume(events);
    const rows = await inboundRows('GR-');
    expect(rows.map((r) => r.wid).sort()).toEqual(['GR-1', 'GR-2', 'GR-3']);
    expect(rows.find((r) => r.wid === 'GR-1')!.remoteJid).toBe(chat);
    expect(await journal()).toEqual([]);
  });
});
