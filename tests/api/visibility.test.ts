import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type CallResult, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, type InboxTenant, type Member } from '../helpers/inbox.js';

/**
 * One rule decides who sees a ticket (GET /api/tickets/:id): every route, write and socket room
 * that reaches a ticket, by its id or through one of its messages, notes or tags, applies it.
 * The walk covers every API route that takes an id: a new one fails here until it is classified.
 */

let server: TestServer;
let t: InboxTenant;
/** Queue 1 only, allTicket disabled: once the ticket moves to queue 2 it is not theirs to see. */
let agent1: Member;
/** Queue 2: the ticket's agent after the transfer. */
let agent2: Member;
let queue1: number;
let queue2: number;
let agent1Socket: TestSocket;
let agent2Socket: TestSocket;

/** The queue-2 ticket and what hangs on it, made by agent 1 while it was still theirs. */
const ids = { ticket: 0, uuid: '', contact: 0, text: 0, media: 0, mediaFile: '', note: 0, tag1: 0, tag2: 0, schedule: 0, fileList: 0 };

const db = () => server.atende.container.db;

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  /** Sent as multipart with one file in this field. */
  file?: string;
}

/** The requests that reach the invisible ticket through each ticket-scoped route. */
const ticketScoped: Record<string, () => Probe[]> = {
  'GET /api/tickets/u/:uuid': () => [{ method: 'GET', path: `/api/tickets/u/${ids.uuid}` }],
  'GET /api/tickets/:id': () => [{ method: 'GET', path: `/api/tickets/${ids.ticket}` }],
  'PUT /api/tickets/:id': () => [
    { method: 'PUT', path: `/api/tickets/${ids.ticket}`, body: { queueId: queue1, userId: agent1.id } },
    { method: 'PUT', path: `/api/tickets/${ids.ticket}`, body: { status: 'closed' } },
    { method: 'PUT', path: `/api/tickets/${ids.ticket}`, body: { status: 'pending' } },
  ],
  'DELETE /api/tickets/:id': () => [{ method: 'DELETE', path: `/api/tickets/${ids.ticket}` }],
  'GET /api/messages/:ticketId': () => [{ method: 'GET', path: `/api/messages/${ids.ticket}` }],
  'POST /api/messages/:ticketId': () => [
    { method: 'POST', path: `/api/messages/${ids.ticket}`, body: { body: 'Ainda estou aqui' } },
    { method: 'POST', path: `/api/messages/${ids.ticket}`, file: 'medias' },
  ],
  'GET /api/media/:file': () => [{ method: 'GET', path: `/api/media/${ids.mediaFile}` }],
  'DELETE /api/messages/:id': () => [ids.text, ids.media].map((id) => ({ method: 'DELETE', path: `/api/messages/${id}` })),
  'PUT /api/messages/:id': () => [{ method: 'PUT', path: `/api/messages/${ids.text}`, body: { body: 'Texto corrigido' } }],
  'GET /api/ticket-notes/list': () => [{ method: 'GET', path: `/api/ticket-notes/list?ticketId=${ids.ticket}&contactId=${ids.contact}` }],
  'POST /api/ticket-notes': () => [{ method: 'POST', path: '/api/ticket-notes', body: { note: 'Mais uma observação', ticketId: ids.ticket, contactId: ids.contact } }],
  'DELETE /api/ticket-notes/:id': () => [{ method: 'DELETE', path: `/api/ticket-notes/${ids.note}` }],
  'POST /api/tags/sync': () => [
    { method: 'POST', path: '/api/tags/sync', body: { ticketId: ids.ticket, tags: [{ id: ids.tag2 }] } },
    { method: 'POST', path: '/api/tags/sync', body: { ticketId: ids.ticket, tags: [] } },
  ],
  'PUT /api/ticket-tags/:ticketId/:tagId': () => [{ method: 'PUT', path: `/api/ticket-tags/${ids.ticket}/${ids.tag2}` }],
  'DELETE /api/ticket-tags/:ticketId': () => [{ method: 'DELETE', path: `/api/ticket-tags/${ids.ticket}` }],
  'POST /api/files/:id/send': () => [{ method: 'POST', path: `/api/files/${ids.fileList}/send`, body: { ticketId: ids.ticket } }],
};

const ANNOUNCEMENT = 'a platform announcement: super users write them, every user reads the active ones (tests/api/announcements.test.ts)';
const FILE_LIST = "a file list of the company: admins write it, every user reads it; sending it into a ticket is ticket-scoped";
const CONTACT_LIST = "a campaign contact list of the company or one of its contacts: no ticket; every user reads and edits, admins delete (tests/api/contact-lists.test.ts)";
const CAMPAIGN = "a campaign of the company: no ticket (it is sent to numbers); every user reads and sees its report, admins write, cancel and restart (tests/api/campaigns.test.ts, tests/api/campaign-dispatch.test.ts)";
const OPT_OUT = "an entry of the company's campaign opt-out list: no ticket; admins only (tests/api/campaign-opt-outs.test.ts)";
const INTERNAL_CHAT = "an internal chat between the company's users: no ticket; its members only (tests/api/internal-chat.test.ts)";

/** Routes with an id that reach no ticket, and why. */
const WEBHOOK = "a webhook endpoint of the company, admins only, another company's 404: no ticket (tests/api/webhooks.test.ts)";
const notTicketScoped: Record<string, string> = {
  'GET /api/users/:id': 'a user of the company',
  'PUT /api/users/:id': 'a user of the company',
  'DELETE /api/users/:id': 'a user of the company',
  'GET /api/companies/listPlan/:companyId': 'a company (super users)',
  'GET /api/companies/:id': 'a company (super users)',
  'PUT /api/companies/:id': 'a company (super users)',
  'DELETE /api/companies/:id': 'a company (super users)',
  'PUT /api/companies/:id/schedules': "a company's working hours",
  'GET /api/plans/:id': 'a plan (super users)',
  'PUT /api/plans/:id': 'a plan (super users)',
  'DELETE /api/plans/:id': 'a plan (super users)',
  'PUT /api/settings/:key': 'a company setting',
  'PUT /api/helps/:id': 'a help video of the platform',
  'DELETE /api/helps/:id': 'a help video of the platform',
  'GET /api/contacts/:id': "contacts are the whole company's (spec: contacts page)",
  'PUT /api/contacts/:id': "contacts are the whole company's (spec: contacts page)",
  'DELETE /api/contacts/:id': "contacts are the whole company's; deleting one is for admins",
  'GET /api/whatsapp/:id': 'a connection',
  'PUT /api/whatsapp/:id': 'a connection',
  'DELETE /api/whatsapp/:id': 'a connection',
  'POST /api/whatsapp/:id/token': 'a connection',
  'POST /api/whatsappsession/:id': 'a connection',
  'PUT /api/whatsappsession/:id': 'a connection',
  'DELETE /api/whatsappsession/:id': 'a connection',
  'POST /api/simulator/:whatsappId/scan': 'a simulated connection (admins)',
  'POST /api/simulator/:whatsappId/inbound': 'a simulated connection (admins)',
  'GET /api/simulator/:whatsappId/outbox': 'a simulated connection (admins)',
  'POST /api/simulator/:whatsappId/disconnect': 'a simulated connection (admins)',
  'POST /api/simulator/:whatsappId/limit': 'a simulated connection (admins)',
  'GET /api/queue/:id': 'a queue',
  'PUT /api/queue/:id': 'a queue',
  'DELETE /api/queue/:id': 'a queue',
  'PUT /api/queue-options/:id': "a queue's chatbot option",
  'DELETE /api/queue-options/:id': "a queue's chatbot option",
  'GET /api/tags/:id': "a tag of the company; a ticket's tags change only through /tags/sync and /ticket-tags",
  'PUT /api/tags/:id': "a tag of the company; a ticket's tags change only through /tags/sync and /ticket-tags",
  'DELETE /api/tags/:id': "a tag of the company; a ticket's tags change only through /tags/sync and /ticket-tags",
  'GET /api/quick-messages/:id': 'a quick reply (own or shared)',
  'PUT /api/quick-messages/:id': 'a quick reply (own or shared)',
  'DELETE /api/quick-messages/:id': 'a quick reply (own or shared)',
  'POST /api/quick-messages/:id/media-upload': 'a quick reply (own or shared)',
  'DELETE /api/quick-messages/:id/media-upload': 'a quick reply (own or shared)',
  'GET /api/schedules/:id': "a schedule is addressed to a contact, and every user reads the company's (spec)",
  'PUT /api/schedules/:id': 'a schedule is addressed to a contact; its author or an admin changes it',
  'DELETE /api/schedules/:id': 'a schedule is addressed to a contact; its author or an admin changes it',
  'POST /api/schedules/:id/media-upload': 'a schedule is addressed to a contact; its author or an admin changes it',
  'DELETE /api/schedules/:id/media-upload': 'a schedule is addressed to a contact; its author or an admin changes it',
  'GET /api/chats/:id': INTERNAL_CHAT,
  'PUT /api/chats/:id': INTERNAL_CHAT,
  'DELETE /api/chats/:id': INTERNAL_CHAT,
  'POST /api/chats/:id/read': INTERNAL_CHAT,
  'GET /api/chats/:id/messages': INTERNAL_CHAT,
  'POST /api/chats/:id/messages': INTERNAL_CHAT,
  'GET /api/announcements/:id': ANNOUNCEMENT,
  'PUT /api/announcements/:id': ANNOUNCEMENT,
  'DELETE /api/announcements/:id': ANNOUNCEMENT,
  'POST /api/announcements/:id/read': ANNOUNCEMENT,
  'POST /api/announcements/:id/media-upload': ANNOUNCEMENT,
  'DELETE /api/announcements/:id/media-upload': ANNOUNCEMENT,
  'GET /api/announcements/media/:file': "an active announcement's image, to every signed-in user",
  'GET /api/files/:id': FILE_LIST,
  'PUT /api/files/:id': FILE_LIST,
  'DELETE /api/files/:id': FILE_LIST,
  'POST /api/files/uploadList/:fileId': FILE_LIST,
  'GET /api/contact-lists/:id': CONTACT_LIST,
  'PUT /api/contact-lists/:id': CONTACT_LIST,
  'DELETE /api/contact-lists/:id': CONTACT_LIST,
  'POST /api/contact-lists/:id/upload': CONTACT_LIST,
  'POST /api/contact-lists/:id/check': CONTACT_LIST,
  'GET /api/contact-list-items/:id': CONTACT_LIST,
  'PUT /api/contact-list-items/:id': CONTACT_LIST,
  'DELETE /api/contact-list-items/:id': CONTACT_LIST,
  'GET /api/campaigns/:id': CAMPAIGN,
  'PUT /api/campaigns/:id': CAMPAIGN,
  'DELETE /api/campaigns/:id': CAMPAIGN,
  'POST /api/campaigns/:id/media-upload': CAMPAIGN,
  'DELETE /api/campaigns/:id/media-upload': CAMPAIGN,
  'DELETE /api/campaign-opt-outs/:id': OPT_OUT,
  'POST /api/messages-api/tokens/:whatsappId': "a connection's messages API token, admins only: no ticket (tests/api/messages-api.test.ts)",
  'DELETE /api/messages-api/tokens/:whatsappId': "a connection's messages API token, admins only: no ticket (tests/api/messages-api.test.ts)",
  'DELETE /api/api-tokens/:id': "a company API token, admins only, another company's 404: no ticket (tests/api/api-tokens.test.ts)",
  'GET /api/docs/swagger-ui/:version/:file': 'a file of the API docs viewer (by package version), public: no record (tests/api/openapi.test.ts)',
  'GET /api/asaas/companhia/:companyId': "a company's provider customer: its own users with the financial right, any for super users; no ticket (tests/api/billing-asaas.test.ts)",
  'GET /api/asaas/companhia/load/all/company/asaas/by/:companyId': "a company's subscriptions: as the customer read; no ticket (tests/api/billing-asaas.test.ts)",
  'DELETE /api/asaas/remove/subscriptions/by-id/:id': "a company's subscription: as the customer read; no ticket (tests/api/billing-asaas.test.ts)",
  'GET /api/webhooks/:id': WEBHOOK,
  'PUT /api/webhooks/:id': WEBHOOK,
  'DELETE /api/webhooks/:id': WEBHOOK,
  'GET /api/webhooks/:id/secret': WEBHOOK,
  'POST /api/webhooks/:id/secret': WEBHOOK,
  'GET /api/webhooks/:id/deliveries': WEBHOOK,
  'POST /api/webhooks/:id/deliveries/:deliveryId/resend': "a delivery of one of the company's webhook endpoints, admins only: no ticket (tests/api/webhooks.test.ts)",
  'PUT /api/promotions/:id': 'a promotion code of the platform, super users only: no ticket (tests/api/promotions.test.ts)',
  'DELETE /api/promotions/:id': 'a promotion code of the platform, super users only: no ticket (tests/api/promotions.test.ts)',
  'POST /api/campaigns/:id/cancel': CAMPAIGN,
  'POST /api/campaigns/:id/restart': CAMPAIGN,
  'GET /api/campaigns/:id/report': CAMPAIGN,
  'GET /api/prompt/:id': "an AI prompt of the company: no ticket (tests/api/prompts.test.ts)",
  'GET /api/companies/verify/email/:email': 'public signup check: no record is read back, only whether the e-mail is free (tests/api/signup.test.ts)',
  'GET /api/companies/verify/phone/:phone': 'public signup check: only whether the phone is free (tests/api/signup.test.ts)',
  'GET /api/companies/promotion/code/exist/valid/:code': 'public signup check: only whether the promotion code is valid (tests/api/signup.test.ts)',
  'GET /api/invoices/:id/pix': "an invoice of the company, or any for super users: no ticket (tests/api/billing.test.ts)",
  'POST /api/invoices/:id/pay': 'an invoice, super users only: no ticket (tests/api/billing.test.ts)',
  'PUT /api/prompt/:id': "an AI prompt of the company: no ticket; admins write it",
  'DELETE /api/prompt/:id': "an AI prompt of the company: no ticket; admins write it",
  'GET /api/queueIntegration/:id': "a queue integration of the company: no ticket (tests/api/integrations.test.ts)",
  'PUT /api/queueIntegration/:id': "a queue integration of the company: no ticket; admins write it",
  'DELETE /api/queueIntegration/:id': "a queue integration of the company: no ticket; admins write it",
};

/** Join frames that take a ticket id; the others join rooms of no ticket, and why. */
const ticketJoins = ['joinChatBox'];
const otherJoins: Record<string, string> = {
  joinNotification: 'the notification bell: takes no ticket id',
  joinTickets: 'a list by status: takes a status, not a ticket id',
  joinAnnouncements: "the platform's announcements: takes no id",
  joinCampaignOptOuts: "the company's campaign opt-out list, admins only: takes no id",
};

function key(route: { method: string; path: string }): string {
  return `${route.method} ${route.path}`;
}

async function send(token: string, probe: Probe): Promise<CallResult> {
  if (!probe.file) return server.call(probe.method, probe.path, { token, body: probe.body });
  const form = new FormData();
  form.append(probe.file, new Blob(['%PDF-1.4 proposta'], { type: 'application/pdf' }), 'proposta.pdf');
  const res = await fetch(server.url + probe.path, { method: probe.method, headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Everything of the ticket a refused request must leave as it was, files included. */
async function snapshot() {
  const mediaDir = path.join(server.config.mediaDir, String(t.companyId));
  return {
    ticket: await db()('tickets').where({ id: ids.ticket }),
    tracking: await db()('ticketTracking').where({ ticketId: ids.ticket }).orderBy('id'),
    messages: await db()('messages').where({ ticketId: ids.ticket }).orderBy('id'),
    notes: await db()('ticketNotes').where({ ticketId: ids.ticket }).orderBy('id'),
    tags: await db()('ticketTags').where({ ticketId: ids.ticket }).orderBy('tagId'),
    schedules: await db()('schedules').where({ contactId: ids.contact }).orderBy('id'),
    files: readdirSync(mediaDir).sort(),
  };
}

/** Whether a live frame is about the ticket. */
function aboutTicket(frame: Record<string, unknown>): boolean {
  const data = frame.data as { ticketId?: number; ticket?: { id: number }; message?: { ticketId: number } } | undefined;
  return data?.ticketId === ids.ticket || data?.ticket?.id === ids.ticket || data?.message?.ticketId === ids.ticket;
}

/** Waits until what the ticket's outgoing messages went through (send, acks 1 to 3) has settled. */
async function settled(): Promise<void> {
  await eventually(async () => {
    const pending = await db()('messages').where({ ticketId: ids.ticket, fromMe: true }).where((w) => w.whereNot('sendStatus', 'sent').orWhere('ack', '<', 3)).first('id');
    return pending === undefined;
  }, 10_000, 'the outgoing messages to settle');
}

async function ok(res: CallResult, status = 200): Promise<CallResult> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Visibilidade');
  queue1 = await createQueue(server, t, 'Fila 1');
  queue2 = await createQueue(server, t, 'Fila 2');
  agent1 = await createMember(server, t, 'agente1', { queueIds: [queue1], allTicket: 'disabled' });
  agent2 = await createMember(server, t, 'agente2', { queueIds: [queue2], allTicket: 'disabled' });
  const phone = await createConnection(server, t, 'Principal');
  const admin = t.admin.token;

  await customerWrites(server, t, phone, { from: '5511988887777', name: 'Cliente Fila', body: 'Olá, preciso de ajuda' });
  const ticket = await eventually<{ id: number; uuid: string; contactId: number }>(async () => db()('tickets').where({ companyId: t.companyId }).first('id', 'uuid', 'contactId'), 5000, 'the ticket');
  Object.assign(ids, { ticket: ticket.id, uuid: ticket.uuid, contact: ticket.contactId });

  // While the ticket is agent 1's in queue 1, they write on it, note it and tag it.
  await ok(await server.call('PUT', `/api/tickets/${ids.ticket}`, { token: admin, body: { queueId: queue1, userId: agent1.id } }));
  ids.text = (await ok(await send(agent1.token, { method: 'POST', path: `/api/messages/${ids.ticket}`, body: { body: 'Bom dia!' } }), 201)).body.messages[0].id;
  ids.media = (await ok(await send(agent1.token, { method: 'POST', path: `/api/messages/${ids.ticket}`, file: 'medias' }), 201)).body.messages[0].id;
  ids.mediaFile = (await db()('messages').where({ id: ids.media }).first('mediaPath')).mediaPath;
  ids.note = (await ok(await server.call('POST', '/api/ticket-notes', { token: agent1.token, body: { note: 'Cliente VIP', ticketId: ids.ticket, contactId: ids.contact } }), 201)).body.id;
  ids.tag1 = (await ok(await server.call('POST', '/api/tags', { token: admin, body: { name: 'Urgente', color: '#ff0000' } }), 201)).body.id;
  ids.tag2 = (await ok(await server.call('POST', '/api/tags', { token: admin, body: { name: 'Financeiro', color: '#00ff00' } }), 201)).body.id;
  await ok(await server.call('POST', '/api/tags/sync', { token: agent1.token, body: { ticketId: ids.ticket, tags: [{ id: ids.tag1 }] } }));
  const sendAt = new Date(Date.now() + 3_600_000).toISOString();
  ids.fileList = (await ok(await server.call('POST', '/api/files', { token: admin, body: { name: 'Catálogo', message: 'Segue o catálogo' } }), 201)).body.id;
  ids.schedule = (await ok(await server.call('POST', '/api/schedules', { token: admin, body: { body: 'Lembrete do boleto', contactId: ids.contact, sendAt } }), 201)).body.id;

  // Agent 1's chat box is open on it when the ticket moves to queue 2.
  agent1Socket = await openSocket(server.url, agent1.token);
  agent2Socket = await openSocket(server.url, agent2.token);
  agent1Socket.send('joinChatBox', ids.ticket);
  await agent1Socket.next((f) => f.type === 'joined' && f.room === `ticket:${ids.ticket}`);
  await ok(await server.call('PUT', `/api/tickets/${ids.ticket}`, { token: admin, body: { queueId: queue2, userId: agent2.id } }));
  await settled();
});

afterAll(async () => {
  await agent1Socket?.close();
  await agent2Socket?.close();
  await server?.close();
});

describe('one visibility rule for reads, writes and sockets', () => {
  it('every route with an id is classified: it reaches a ticket, or the table says what it reaches instead', () => {
    const routes = server.atende.server.routes.map(key);
    const unclassified = routes.filter((route) => route.includes(':') && !(route in ticketScoped) && !(route in notTicketScoped));
    expect(unclassified, 'classify each new route in ticketScoped or notTicketScoped').toEqual([]);
    const stale = [...Object.keys(ticketScoped), ...Object.keys(notTicketScoped)].filter((route) => !routes.includes(route));
    expect(stale, 'entries naming routes that no longer exist').toEqual([]);
  });

  it("an agent of another queue is refused as the read refuses them, on every route that reaches the ticket, and nothing changes", async () => {
    const read = await server.call('GET', `/api/tickets/${ids.ticket}`, { token: agent1.token });
    expect(read.status).toBe(403);
    expect(read.body.error).toBe('ERR_NO_PERMISSION');
    const before = await snapshot();
    for (const [route, probes] of Object.entries(ticketScoped)) {
      for (const probe of probes()) {
        const res = await send(agent1.token, probe);
        const what = `${route} as ${JSON.stringify(probe.body ?? probe.file ?? '')}`;
        expect({ what, status: res.status, error: res.body?.error }).toEqual({ what, status: read.status, error: read.body.error });
        expect(await snapshot(), what).toEqual(before);
      }
    }
  });

  it('joining the ticket by any join frame is refused, and the socket that had its chat box open hears nothing of it after it moved away', async () => {
    expect(server.atende.container.realtime.joinTypes.filter((type) => !ticketJoins.includes(type) && !(type in otherJoins))).toEqual([]);
    for (const type of ticketJoins) {
      agent1Socket.send(type, ids.ticket);
      const refused = await agent1Socket.next((f) => f.type === 'error' && f.message === `Not allowed: ${type}`);
      expect(refused.error).toBe('ERR_NO_PERMISSION');
    }
    for (const type of Object.keys(otherJoins)) agent1Socket.send(type, ids.ticket);
    await quietFor(100);
    const heardBefore = agent1Socket.frames.length;

    // The admin writes on the ticket and changes it; the customer writes too. Agent 2 hears it all.
    const admin = t.admin.token;
    const sent = await ok(await send(admin, { method: 'POST', path: `/api/messages/${ids.ticket}`, body: { body: 'Mensagem do gerente' } }), 201);
    await ok(await server.call('POST', '/api/tags/sync', { token: admin, body: { ticketId: ids.ticket, tags: [{ id: ids.tag2 }] } }));
    await ok(await server.call('PUT', `/api/tickets/${ids.ticket}`, { token: admin, body: { status: 'pending' } }));
    const messageId = sent.body.messages[0].id as number;
    await agent2Socket.next((f) => (f.data as { message?: { id: number } })?.message?.id === messageId);
    await agent2Socket.next((f) => (f.data as { ticket?: { id: number; status: string } })?.ticket?.status === 'pending' && aboutTicket(f));
    await quietFor(300);
    expect(agent1Socket.frames.slice(heardBefore).filter(aboutTicket)).toEqual([]);
  });

  it('an agent of the ticket’s queue reads it, writes on it, notes and tags it, and joins its chat box', async () => {
    const admin = t.admin.token;
    await ok(await server.call('PUT', `/api/tickets/${ids.ticket}`, { token: admin, body: { queueId: queue2, userId: agent2.id } }));
    const token = agent2.token;
    await ok(await server.call('GET', `/api/tickets/${ids.ticket}`, { token }));
    await ok(await server.call('GET', `/api/tickets/u/${ids.uuid}`, { token }));
    await ok(await server.call('GET', `/api/messages/${ids.ticket}`, { token }));
    await ok(await send(token, { method: 'GET', path: `/api/media/${ids.mediaFile}` }));
    const own = await ok(await send(token, { method: 'POST', path: `/api/messages/${ids.ticket}`, body: { body: 'Assumi o atendimento' } }), 201);
    await ok(await send(token, { method: 'POST', path: `/api/messages/${ids.ticket}`, file: 'medias' }), 201);
    await ok(await server.call('DELETE', `/api/messages/${own.body.messages[0].id}`, { token }));
    await ok(await server.call('POST', '/api/ticket-notes', { token, body: { note: 'Segui daqui', ticketId: ids.ticket, contactId: ids.contact } }), 201);
    await ok(await server.call('GET', `/api/ticket-notes/list?ticketId=${ids.ticket}&contactId=${ids.contact}`, { token }));
    await ok(await server.call('POST', '/api/tags/sync', { token, body: { ticketId: ids.ticket, tags: [{ id: ids.tag1 }, { id: ids.tag2 }] } }));
    await ok(await server.call('PUT', `/api/tickets/${ids.ticket}`, { token, body: { status: 'closed' } }));
    agent2Socket.send('joinChatBox', ids.ticket);
    await agent2Socket.next((f) => f.type === 'joined' && f.room === `ticket:${ids.ticket}`);
  });
});
