import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { createConnection, createMember, createQueue, createTenant, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';
import { sha256 } from '../helpers/media.js';
import { Events } from '../../core/events/event-bus.js';
import { webmOpusToOgg } from '../../core/modules/media/webm-to-ogg.js';

let server: TestServer;
let a: InboxTenant;
let b: InboxTenant;
/** Owns the tickets of most tests. */
let agent: Member;
/** In the queue of queued tickets, but not their user. */
let colleague: Member;
/** In no queue: sees none of agent's tickets. */
let outsider: Member;
let queueId: number;
let phone: number;
let socket: TestSocket;

const db = () => server.atende.container.db;
let numbers = 0;

/** The inbound pipeline is not under test here: a contact and a ticket straight into the tables. */
async function insertTicket(
  tenant: InboxTenant,
  options: { userId?: number | null; status?: 'open' | 'pending' | 'closed'; whatsappId?: number; queueId?: number | null; contactId?: number; unread?: number } = {},
): Promise<{ ticketId: number; contactId: number; number: string }> {
  const now = new Date().toISOString();
  let contactId = options.contactId;
  numbers += 1;
  let number = `5511977${String(numbers).padStart(6, '0')}`;
  if (contactId === undefined) {
    const [contact] = await db()('contacts').insert({ companyId: tenant.companyId, uuid: randomUUID(), name: `Cliente ${numbers}`, number, createdAt: now, updatedAt: now }).returning('id');
    contactId = contact.id as number;
  } else {
    number = (await db()('contacts').where({ id: contactId }).first('number')).number;
  }
  const [ticket] = await db()('tickets')
    .insert({
      companyId: tenant.companyId,
      uuid: randomUUID(),
      status: options.status ?? 'open',
      contactId,
      userId: options.userId === undefined ? agent.id : options.userId,
      whatsappId: options.whatsappId ?? phone,
      queueId: options.queueId ?? null,
      unreadMessages: options.unread ?? 0,
      createdAt: now,
      updatedAt: now,
    })
    .returning('id');
  return { ticketId: ticket.id as number, contactId, number };
}

/** A message the customer wrote, stored as the pipeline would. */
async function insertInbound(tenant: InboxTenant, ticketId: number, contactId: number, body: string, at = new Date()): Promise<{ id: number; wid: string }> {
  const wid = `IN${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;
  const [row] = await db()('messages')
    .insert({ companyId: tenant.companyId, wid, ticketId, contactId, body, fromMe: false, read: false, ack: 0, sendStatus: 'received', createdAt: at.toISOString(), updatedAt: at.toISOString() })
    .returning('id');
  return { id: row.id as number, wid };
}

async function send(token: string, ticketId: number, body: Record<string, unknown>) {
  return server.call('POST', `/api/messages/${ticketId}`, { token, body });
}

async function sendFiles(token: string, ticketId: number, files: { name: string; data: string | Buffer; type?: string }[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  for (const file of files) {
    const bytes = typeof file.data === 'string' ? file.data : new Uint8Array(file.data);
    form.append('medias', new Blob([bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  const res = await fetch(`${server.url}/api/messages/${ticketId}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
}

/** The sent message once the phone has it, with its row. */
async function delivered(wid: string, connectionId = phone) {
  const sent = await eventually(async () => (await outbox(server, a, connectionId)).messages.find((m) => m.id === wid), 5000, `${wid} in the outbox`);
  const row = await eventually(async () => {
    const r = await db()('messages').where({ wid }).first();
    return r.sendStatus === 'sent' && r;
  });
  return { sent, row };
}

function appMessage(companyId: number, match: (data: { action: string; message: Record<string, any> }) => boolean) { // eslint-disable-line @typescript-eslint/no-explicit-any -- frames are read as any
  return (frame: Record<string, unknown>) =>
    frame.channel === `company-${companyId}-appMessage` && match(frame.data as { action: string; message: Record<string, unknown> });
}

/** A ticket update frame showing `lastMessage` as the ticket's preview. */
function ticketUpdate(companyId: number, ticketId: number, lastMessage: string) {
  return (frame: Record<string, unknown>) => {
    const data = frame.data as { action?: string; ticket?: { id: number; lastMessage: string } };
    return frame.channel === `company-${companyId}-ticket` && data.action === 'update' && data.ticket?.id === ticketId && data.ticket.lastMessage === lastMessage;
  };
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  a = await createTenant(server, 'Loja Mensagens');
  b = await createTenant(server, 'Outra Loja');
  queueId = await createQueue(server, a, 'Vendas');
  agent = await createMember(server, a, 'agente', { queueIds: [queueId] });
  colleague = await createMember(server, a, 'colega', { queueIds: [queueId] });
  outsider = await createMember(server, a, 'fora');
  phone = await createConnection(server, a, 'Principal');
  socket = await openSocket(server.url, agent.token);
});
afterAll(async () => {
  await socket?.close();
  await server?.close();
});

describe('sending on a ticket', () => {
  it('a text goes out once under the id the message was stored with; acks 1 → 2 → 3 arrive live', async () => {
    const { ticketId, number } = await insertTicket(a);
    const res = await send(agent.token, ticketId, { body: 'Bom dia!' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [message] = res.body.messages;
    expect(message).toMatchObject({ ticketId, body: 'Bom dia!', fromMe: true, read: true, userId: agent.id, mediaType: null, quotedMsg: null });
    expect(message.wid).toMatch(/^3EB0[0-9A-F]{18}$/);

    const { sent } = await delivered(message.wid);
    expect(sent).toMatchObject({ to: number, kind: 'text', body: 'Bom dia!', quotedId: null });
    for (const ack of [1, 2, 3]) {
      await socket.next(appMessage(a.companyId, (d) => d.action === 'update' && d.message.id === message.id && d.message.ack === ack));
    }
    await socket.next(appMessage(a.companyId, (d) => d.action === 'create' && d.message.id === message.id && d.message.sendStatus === 'queued'));
    const row = await eventually(async () => {
      const r = await db()('messages').where({ id: message.id }).first();
      return r.ack === 3 && r;
    });
    expect(row).toMatchObject({ sendStatus: 'sent', sendAttempts: 1 });
    expect((await outbox(server, a, phone)).messages.filter((m) => m.id === message.wid)).toHaveLength(1);
    const ticket = await db()('tickets').where({ id: ticketId }).first();
    expect(ticket).toMatchObject({ lastMessage: 'Bom dia!' });
  });

  it("a reply carries the quoted message's WhatsApp id", async () => {
    const { ticketId, contactId } = await insertTicket(a);
    const question = await insertInbound(a, ticketId, contactId, 'Qual o horário?');
    const res = await send(agent.token, ticketId, { body: 'Das 8h às 18h.', quotedMsg: { id: question.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages[0].quotedMsg).toMatchObject({ id: question.id, body: 'Qual o horário?', fromMe: false });
    const { sent } = await delivered(res.body.messages[0].wid);
    expect(sent.quotedId).toBe(question.wid);

    const foreign = await insertTicket(a);
    const elsewhere = await send(agent.token, foreign.ticketId, { body: 'x', quotedMsg: { id: question.id } });
    expect(elsewhere.status).toBe(400);
  });

  it('files go as media, the body as the caption of the first; a recording with ptt=true as a voice note', async () => {
    const { ticketId } = await insertTicket(a);
    const res = await sendFiles(
      agent.token,
      ticketId,
      [
        { name: 'foto.jpg', data: 'jpeg-bytes', type: 'image/jpeg' },
        { name: 'contrato.pdf', data: 'pdf-bytes', type: 'application/pdf' },
      ],
      { body: 'Segue a foto' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [photo, contract] = res.body.messages;
    expect(photo).toMatchObject({ mediaType: 'image', mediaName: 'foto.jpg', mediaMime: 'image/jpeg', body: 'Segue a foto', mediaUrl: expect.stringMatching(/^\/api\/media\//) });
    expect(contract).toMatchObject({ mediaType: 'application', mediaName: 'contrato.pdf', body: '' });
    expect((await delivered(photo.wid)).sent).toMatchObject({ kind: 'media', body: 'Segue a foto', media: { fileName: 'foto.jpg', mimeType: 'image/jpeg', size: 10, ptt: false } });
    expect((await delivered(contract.wid)).sent).toMatchObject({ kind: 'media', body: '', media: { fileName: 'contrato.pdf', mimeType: 'application/pdf' } });
    // The stored copy is served to the company.
    const file = await fetch(server.url + photo.mediaUrl, { headers: { Authorization: `Bearer ${agent.token}` } });
    expect(await file.text()).toBe('jpeg-bytes');

    // Not WebM/Opus, so not rewrapped: it goes as recorded.
    const voice = await sendFiles(agent.token, ticketId, [{ name: 'audio.webm', data: 'webm-voice', type: 'audio/webm' }], { ptt: 'true' });
    expect(voice.status, JSON.stringify(voice.body)).toBe(201);
    expect(voice.body.messages[0]).toMatchObject({ mediaType: 'audio', mediaMime: 'audio/webm' });
    expect((await delivered(voice.body.messages[0].wid)).sent.media).toMatchObject({ mimeType: 'audio/webm', ptt: true });

    const refused = await sendFiles(agent.token, ticketId, [{ name: 'virus.exe', data: 'MZ' }]);
    expect(refused.status).toBe(415);
  });

  it("the composer's WebM/Opus recording reaches the phone as an Ogg/Opus voice note, the same audio rewrapped", async () => {
    const { ticketId } = await insertTicket(a);
    const recording = readFileSync(path.resolve('tests/fixtures/media/voice-note.webm'));
    const voice = await sendFiles(agent.token, ticketId, [{ name: 'audio-20261125093000.webm', data: recording, type: 'audio/webm' }], { ptt: 'true' });
    expect(voice.status, JSON.stringify(voice.body)).toBe(201);
    const [note] = voice.body.messages;
    expect(note).toMatchObject({ mediaType: 'audio', mediaName: 'audio-20261125093000.ogg', mediaMime: 'audio/ogg; codecs=opus' });
    const ogg = webmOpusToOgg(recording);
    expect((await delivered(note.wid)).sent.media).toEqual({
      fileName: 'audio-20261125093000.ogg',
      mimeType: 'audio/ogg; codecs=opus',
      size: ogg.length,
      sha256: sha256(ogg),
      ptt: true,
    });
  });

  it("a quick reply's attachment is sent as a copy of its own; another user's private reply is not found", async () => {
    const { ticketId } = await insertTicket(a);
    const created = await server.call('POST', '/api/quick-messages', { token: agent.token, body: { shortcode: 'tabela', message: 'Nossa tabela' } });
    const form = new FormData();
    form.set('file', new Blob(['tabela-pdf']), 'tabela.pdf');
    const upload = await fetch(`${server.url}/api/quick-messages/${created.body.id}/media-upload`, { method: 'POST', headers: { Authorization: `Bearer ${agent.token}` }, body: form });
    expect(upload.status).toBe(200);

    const res = await send(agent.token, ticketId, { body: 'Nossa tabela', quickMessageId: created.body.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [message] = res.body.messages;
    expect(message).toMatchObject({ mediaType: 'application', mediaName: 'tabela.pdf', body: 'Nossa tabela' });
    expect((await delivered(message.wid)).sent).toMatchObject({ kind: 'media', body: 'Nossa tabela', media: { fileName: 'tabela.pdf', size: 10 } });
    const stored = await db()('quickMessages').where({ id: created.body.id }).first();
    expect(message.mediaUrl).not.toContain(stored.mediaPath);

    const mine = await insertTicket(a, { userId: colleague.id });
    const other = await send(colleague.token, mine.ticketId, { body: 'x', quickMessageId: created.body.id });
    expect(other).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUICK_MESSAGE_FOUND' } });
  });

  it('a whitespace-only text is refused, a pending ticket must be accepted first', async () => {
    const { ticketId } = await insertTicket(a);
    for (const body of [{ body: '   \n ' }, {}]) {
      const res = await send(agent.token, ticketId, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const pending = await insertTicket(a, { status: 'pending', userId: null, queueId });
    const res = await send(agent.token, pending.ticketId, { body: 'Olá' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_TICKET_NOT_OPEN');
    expect(await db()('messages').where({ ticketId }).orWhere({ ticketId: pending.ticketId })).toEqual([]);
  });

  it("only the ticket's user or an admin sends; another company's ticket is not found", async () => {
    const { ticketId } = await insertTicket(a, { queueId });
    expect((await send(colleague.token, ticketId, { body: 'Posso ajudar?' })).body.error).toBe('ERR_NO_PERMISSION');
    expect((await send(outsider.token, ticketId, { body: 'Posso ajudar?' })).status).toBe(403);
    const byAdmin = await send(a.admin.token, ticketId, { body: 'Aqui é o gerente.' });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.messages[0].userId).toBe(a.admin.id);

    for (const res of [await send(b.admin.token, ticketId, { body: 'x' }), await server.call('GET', `/api/messages/${ticketId}`, { token: b.admin.token })]) {
      expect(res).toMatchObject({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
    }
    expect((await server.call('GET', '/api/messages/abc', { token: agent.token })).status).toBe(404);
  });
});

describe('reading a conversation', () => {
  it("pages the contact's whole history across its tickets: 20 a page, newest page first, oldest first within it", async () => {
    const old = await insertTicket(a, { status: 'closed' });
    const current = await insertTicket(a, { contactId: old.contactId });
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 25; i += 1) {
      await insertInbound(a, i < 10 ? old.ticketId : current.ticketId, old.contactId, `m${i}`, new Date(start + i * 1000));
    }
    const page1 = await server.call('GET', `/api/messages/${current.ticketId}?pageNumber=1`, { token: agent.token });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ count: 25, hasMore: true, ticket: { id: current.ticketId, contact: { id: old.contactId } } });
    expect(page1.body.messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));
    expect(page1.body.messages[0].ticketId).toBe(old.ticketId);
    expect(page1.body.messages[19].ticketId).toBe(current.ticketId);

    const page2 = await server.call('GET', `/api/messages/${current.ticketId}?pageNumber=2`, { token: agent.token });
    expect(page2.body).toMatchObject({ count: 25, hasMore: false });
    expect(page2.body.messages.map((m: { body: string }) => m.body)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  it('those who see the ticket read it; the others get 403', async () => {
    const { ticketId } = await insertTicket(a, { queueId });
    expect((await server.call('GET', `/api/messages/${ticketId}`, { token: colleague.token })).status).toBe(200);
    expect((await server.call('GET', `/api/messages/${ticketId}`, { token: a.admin.token })).status).toBe(200);
    const refused = await server.call('GET', `/api/messages/${ticketId}`, { token: outsider.token });
    expect(refused).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
  });

  it("the ticket's user reading it marks it read: unread 0, updateUnread live, read receipts to the phone", async () => {
    const { ticketId, contactId, number } = await insertTicket(a, { unread: 2 });
    const first = await insertInbound(a, ticketId, contactId, 'Oi');
    const second = await insertInbound(a, ticketId, contactId, 'Tem alguém?');

    // Someone else looking changes nothing.
    await server.call('GET', `/api/messages/${ticketId}`, { token: a.admin.token });
    expect((await db()('tickets').where({ id: ticketId }).first()).unreadMessages).toBe(2);

    const res = await server.call('GET', `/api/messages/${ticketId}`, { token: agent.token });
    expect(res.body.ticket.unreadMessages).toBe(0);
    await socket.next((f) => f.channel === `company-${a.companyId}-ticket` && (f.data as { action: string; ticketId: number }).action === 'updateUnread' && (f.data as { ticketId: number }).ticketId === ticketId);
    expect((await db()('tickets').where({ id: ticketId }).first()).unreadMessages).toBe(0);
    const rows = await db()('messages').where({ ticketId });
    expect(rows.every((m: { read: unknown }) => Boolean(m.read))).toBe(true);
    const receipt = await eventually(async () => (await outbox(server, a, phone)).operations.find((op) => op.type === 'read' && op.ids.includes(first.wid)));
    expect(receipt).toMatchObject({ to: number });
    expect(receipt.ids.sort()).toEqual([first.wid, second.wid].sort());
  });
});

describe('deleting and editing what was sent', () => {
  it('the author deletes a sent message for everyone; the phone is told, the view says deleted', async () => {
    const { ticketId } = await insertTicket(a);
    const [message] = (await send(agent.token, ticketId, { body: 'Mensagem errada' })).body.messages;
    await delivered(message.wid);
    const res = await server.call('DELETE', `/api/messages/${message.id}`, { token: agent.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: message.id, isDeleted: true });
    const box = await outbox(server, a, phone);
    expect(box.operations).toContainEqual(expect.objectContaining({ type: 'delete', ids: [message.wid] }));
    expect(box.messages.find((m) => m.id === message.wid)?.deleted).toBe(true);
    await socket.next(appMessage(a.companyId, (d) => d.action === 'update' && d.message.id === message.id && d.message.isDeleted === true));
  });

  it("someone else's message cannot be deleted (admins may); a customer's never", async () => {
    const { ticketId, contactId } = await insertTicket(a);
    const [byAdmin] = (await send(a.admin.token, ticketId, { body: 'Do gerente' })).body.messages;
    const [byAgent] = (await send(agent.token, ticketId, { body: 'Do agente' })).body.messages;
    const inbound = await insertInbound(a, ticketId, contactId, 'Do cliente');
    await delivered(byAdmin.wid);
    await delivered(byAgent.wid);

    expect((await server.call('DELETE', `/api/messages/${byAdmin.id}`, { token: agent.token })).body.error).toBe('ERR_NO_PERMISSION');
    expect((await server.call('DELETE', `/api/messages/${inbound.id}`, { token: a.admin.token })).status).toBe(403);
    expect((await server.call('DELETE', `/api/messages/${byAgent.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await server.call('DELETE', `/api/messages/${byAgent.id}`, { token: a.admin.token })).body.isDeleted).toBe(true);
  });

  it('when WhatsApp cannot delete it, nothing changes (ERR_DELETE_WAPP_MSG)', async () => {
    const spare = await createConnection(server, a, 'Reserva');
    const { ticketId } = await insertTicket(a, { whatsappId: spare });
    const [message] = (await send(agent.token, ticketId, { body: 'Vai ficar' })).body.messages;
    await delivered(message.wid, spare);
    await server.call('POST', `/api/simulator/${spare}/disconnect`, { token: a.admin.token });
    const res = await server.call('DELETE', `/api/messages/${message.id}`, { token: agent.token });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_DELETE_WAPP_MSG' } });
    expect((await db()('messages').where({ id: message.id }).first()).isDeleted).toBeFalsy();
  });

  it('the author edits a sent text: the phone edits it, the message and the ticket show the new text', async () => {
    const { ticketId } = await insertTicket(a);
    const [message] = (await send(agent.token, ticketId, { body: 'Preço: R$ 10' })).body.messages;
    await delivered(message.wid);
    expect((await server.call('PUT', `/api/messages/${message.id}`, { token: colleague.token, body: { body: 'x' } })).status).toBe(403);
    expect((await server.call('PUT', `/api/messages/${message.id}`, { token: agent.token, body: { body: '  ' } })).status).toBe(400);

    const res = await server.call('PUT', `/api/messages/${message.id}`, { token: agent.token, body: { body: 'Preço: R$ 12' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ body: 'Preço: R$ 12', isEdited: true });
    const box = await outbox(server, a, phone);
    expect(box.operations).toContainEqual(expect.objectContaining({ type: 'edit', ids: [message.wid], body: 'Preço: R$ 12' }));
    expect((await db()('tickets').where({ id: ticketId }).first()).lastMessage).toBe('Preço: R$ 12');
    await socket.next(appMessage(a.companyId, (d) => d.action === 'update' && d.message.id === message.id && d.message.isEdited === true));
  });

  it("deleting the ticket's last message: its preview becomes the newest message still shown, live, and the ticket keeps its place", async () => {
    const { ticketId, contactId } = await insertTicket(a);
    await insertInbound(a, ticketId, contactId, 'Tem em azul?', new Date(Date.now() - 60_000));
    const [message] = (await send(agent.token, ticketId, { body: '*Ana*:\nTemos sim' })).body.messages;
    await delivered(message.wid);
    const before = await db()('tickets').where({ id: ticketId }).first();
    expect(before.lastMessage).toBe('*Ana*:\nTemos sim');

    expect((await server.call('DELETE', `/api/messages/${message.id}`, { token: agent.token })).status).toBe(200);
    const after = await db()('tickets').where({ id: ticketId }).first();
    expect(after).toMatchObject({ lastMessage: 'Tem em azul?', updatedAt: before.updatedAt });
    expect(Boolean(after.fromMe)).toBe(false);
    await socket.next(ticketUpdate(a.companyId, ticketId, 'Tem em azul?'));
    expect((await server.call('GET', `/api/tickets/${ticketId}`, { token: agent.token })).body.lastMessage).toBe('Tem em azul?');
  });

  it('an edit of the newest message still shown changes the preview live; deleting every message empties it', async () => {
    const { ticketId, contactId } = await insertTicket(a);
    const inbound = await insertInbound(a, ticketId, contactId, 'Oi', new Date(Date.now() - 120_000));
    const [first] = (await send(agent.token, ticketId, { body: 'Primeira' })).body.messages;
    const [second] = (await send(agent.token, ticketId, { body: 'Segunda' })).body.messages;
    await delivered(first.wid);
    await delivered(second.wid);
    await server.call('DELETE', `/api/messages/${second.id}`, { token: agent.token });
    await socket.next(ticketUpdate(a.companyId, ticketId, 'Primeira'));

    const edited = await server.call('PUT', `/api/messages/${first.id}`, { token: agent.token, body: { body: 'Primeira, corrigida' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await socket.next(ticketUpdate(a.companyId, ticketId, 'Primeira, corrigida'));

    await server.call('DELETE', `/api/messages/${first.id}`, { token: agent.token });
    await socket.next(ticketUpdate(a.companyId, ticketId, 'Oi'));
    // The customer deletes theirs on the phone: nothing is left to show.
    await server.atende.container.bus.emit(Events.messageRevoked, a.companyId, { connectionId: phone, companyId: a.companyId, id: inbound.wid });
    await socket.next(ticketUpdate(a.companyId, ticketId, ''));
    expect((await db()('tickets').where({ id: ticketId }).first()).lastMessage).toBe('');
  });

  it('what the provider reports of a message (revoked, edited) reaches the message; an unknown id is ignored', async () => {
    const { ticketId, contactId } = await insertTicket(a);
    const inbound = await insertInbound(a, ticketId, contactId, 'Original');
    const bus = server.atende.container.bus;
    await bus.emit(Events.messageEdited, a.companyId, { connectionId: phone, companyId: a.companyId, id: inbound.wid, body: 'Corrigido' });
    expect(await db()('messages').where({ id: inbound.id }).first()).toMatchObject({ body: 'Corrigido' });
    expect((await db()('tickets').where({ id: ticketId }).first()).lastMessage).toBe('Corrigido');
    await bus.emit(Events.messageRevoked, a.companyId, { connectionId: phone, companyId: a.companyId, id: inbound.wid });
    const row = await db()('messages').where({ id: inbound.id }).first();
    expect(Boolean(row.isDeleted) && Boolean(row.isEdited)).toBe(true);
    await socket.next(appMessage(a.companyId, (d) => d.action === 'update' && d.message.id === inbound.id && d.message.isDeleted === true));
    // Another company's id, and an id nobody has, change nothing.
    await bus.emit(Events.messageRevoked, b.companyId, { connectionId: phone, companyId: b.companyId, id: inbound.wid });
    await bus.emit(Events.messageAck, a.companyId, { connectionId: phone, companyId: a.companyId, id: 'NOPE', ack: 3 });
  });
});
