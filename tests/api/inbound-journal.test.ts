import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverEvent, NormalizedMessage } from '../../core/channels/driver.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';
import { Message } from '../../core/modules/messages/message.model.js';
import { JOURNAL_ATTEMPTS } from '../../core/modules/pipeline/inbound-journal.js';
import { createConnection, createTenant, customerWrites, eventually, type InboxTenant } from '../helpers/inbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface JournalRow {
  id: number;
  chat: string;
  event: string;
  attempts: number;
  error: string | null;
  failedAt: string | null;
}

function journalOf(server: TestServer): Promise<JournalRow[]> {
  return server.atende.container.db('inbound_journal').orderBy('id');
}

function messageEvent(chatId: string, id: string, body: unknown): DriverEvent {
  const message = { id, chatId, isGroup: false, fromMe: false, from: { number: chatId, name: 'Cliente' }, body, timestamp: new Date().toISOString() };
  return { type: 'message', message: message as NormalizedMessage };
}

/** What a crash right after the journal write leaves behind: entries nobody processed. */
async function journalDirectly(server: TestServer, tenant: InboxTenant, connectionId: number, event: DriverEvent, chat: string): Promise<void> {
  await server.atende.container.db('inbound_journal').insert({
    companyId: tenant.companyId,
    connectionId,
    chat,
    event: JSON.stringify(event),
    createdAt: new Date().toISOString(),
  });
}

function storedBodies(server: TestServer, companyId: number, chat: string): Promise<string[]> {
  return Message.query(server.atende.container.db)
    .where({ companyId, remoteJid: chat })
    .orderBy('id')
    .then((rows) => rows.map((row) => row.body));
}

describe('an inbound message is journaled before it is acknowledged', () => {
  let server: TestServer;
  let tenant: InboxTenant;
  let connectionId: number;

  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Journal Co');
    connectionId = await createConnection(server, tenant, 'Phone');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the simulator answers 201 only once the message is in the journal or already stored', async () => {
    const sends = Array.from({ length: 30 }, (_, i) => ({ from: `551199000${String(i % 5).padStart(4, '0')}`, body: `burst ${i}`, id: `BURST-${i}` }));
    await Promise.all(
      sends.map(async (send) => {
        await customerWrites(server, tenant, connectionId, send);
        const [journaled, stored] = await Promise.all([
          server.atende.container.db('inbound_journal').where('event', 'like', `%"${send.id}"%`).first(),
          Message.query(server.atende.container.db).findOne({ companyId: tenant.companyId, wid: send.id }),
        ]);
        expect(journaled ?? stored, send.id).toBeDefined();
      }),
    );
    await server.atende.container.services.pipeline.idle();
    expect(await journalOf(server)).toEqual([]);
    const stored = await Message.query(server.atende.container.db).where({ companyId: tenant.companyId }).whereLike('wid', 'BURST-%');
    expect(stored).toHaveLength(sends.length);
  });

  it('a message whose text, sender name and file name hold NUL is stored without it', async () => {
    const wid = await customerWrites(server, tenant, connectionId, {
      from: '5511988887777',
      name: 'Cli\u0000ente',
      body: 'Ol\u0000á',
      mediaType: 'application',
      mediaBase64: Buffer.from('%PDF-1.4').toString('base64'),
      mediaName: 'propo\u0000sta.pdf',
    });
    const message = await eventually(async () => Message.query(server.atende.container.db).findOne({ companyId: tenant.companyId, wid }), 5000, 'the message');
    expect(message.body).toBe('Olá');
    expect(message.mediaName).toBe('proposta.pdf');
    const contact = await Contact.query(server.atende.container.db).findOne({ companyId: tenant.companyId, number: '5511988887777' });
    expect(contact?.name).toBe('Cliente');
  });

  it('an over-long sender name is cut to the contact name column', async () => {
    const wid = await customerWrites(server, tenant, connectionId, { from: '5511988886666', name: 'N'.repeat(100), body: 'nome longo' });
    await eventually(async () => Message.query(server.atende.container.db).findOne({ companyId: tenant.companyId, wid }), 5000, 'the message');
    const contact = await Contact.query(server.atende.container.db).findOne({ companyId: tenant.companyId, number: '5511988886666' });
    expect(contact?.name).toHaveLength(100);
  });
});

describe('after a restart the journal is resumed', () => {
  let first: TestServer;
  let second: TestServer | undefined;
  let tenant: InboxTenant;
  let connectionId: number;
  const chatA = '5511977770001';
  const chatB = '5511977770002';
  const poisoned = '5511977770003';

  beforeAll(async () => {
    first = await startTestServer({ simulator: true });
    tenant = await createTenant(server(), 'Resume Co');
    connectionId = await createConnection(server(), tenant, 'Phone');
    // Left as a crash right after the journal write leaves them: journaled, never processed.
    const entries: [string, DriverEvent][] = [
      [chatA, messageEvent(chatA, 'A-1', 'primeira')],
      [chatB, messageEvent(chatB, 'B-1', 'outra conversa')],
      [chatA, messageEvent(chatA, 'A-2', 'segunda')],
      [chatA, messageEvent(chatA, 'A-1', 'primeira')], // the provider delivered it twice
      [poisoned, messageEvent(poisoned, 'P-1', 42)], // a body no handler can read
      [chatA, messageEvent(chatA, 'A-3', 'terceira')],
      [poisoned, messageEvent(poisoned, 'P-2', 'depois do veneno')],
      [chatB, { type: 'call', from: { number: chatB, name: 'Cliente' }, timestamp: new Date().toISOString() }],
    ];
    for (const [chat, event] of entries) await journalDirectly(first, tenant, connectionId, event, chat);
    await first.atende.stop();
    second = await startTestServer({ simulator: true }, { sameDatabaseAs: first });
    await second.atende.container.services.pipeline.idle();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  function server(): TestServer {
    return second ?? first;
  }

  it('every entry left unprocessed is stored once, in order per chat', async () => {
    expect(await storedBodies(server(), tenant.companyId, chatA)).toEqual(['primeira', 'segunda', 'terceira']);
    const chatBBodies = await storedBodies(server(), tenant.companyId, chatB);
    expect(chatBBodies).toHaveLength(2);
    expect(chatBBodies[0]).toBe('outra conversa');
    expect(chatBBodies[1]).toMatch(/^Chamada de voz\/vídeo perdida/);
  });

  it('an entry that keeps failing is set aside, kept and marked failed, and its chat goes on', async () => {
    expect(await storedBodies(server(), tenant.companyId, poisoned)).toEqual(['depois do veneno']);
    const left = await journalOf(server());
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ chat: poisoned, attempts: JOURNAL_ATTEMPTS, failedAt: expect.anything(), error: expect.any(String) });
    expect(JSON.parse(left[0]!.event).message.id).toBe('P-1');
  });
});
