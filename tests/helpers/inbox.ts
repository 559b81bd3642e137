import { expect } from 'vitest';
import type { Outbox } from '../../core/channels/simulator/simulator.js';
import type { TestServer } from './server.js';

/** Shared fixtures of the inbox tests: a company with its people, queues and a simulated phone. */

export const PASSWORD = 'secret-123';

export interface Member {
  id: number;
  email: string;
  token: string;
}

export interface InboxTenant {
  companyId: number;
  admin: Member;
  slug: string;
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/\W/g, '');
}

/** A company and its signed-in admin. */
export async function createTenant(server: TestServer, name: string): Promise<InboxTenant> {
  const slug = slugOf(name);
  const email = `admin@${slug}.test`;
  const { company, admin } = await server.atende.container.services.companies.createTenant({ name, email, password: PASSWORD });
  const token = (await server.login(email, PASSWORD)).token;
  return { companyId: company.id, admin: { id: admin.id, email, token }, slug };
}

/** A user of the tenant (signed in), in the given queues. */
export async function createMember(
  server: TestServer,
  tenant: InboxTenant,
  handle: string,
  options: { profile?: 'user' | 'admin' | 'supervisor'; queueIds?: number[]; allTicket?: 'enabled' | 'disabled' } = {},
): Promise<Member> {
  const email = `${handle}@${tenant.slug}.test`;
  const res = await server.call('POST', '/api/users', {
    token: tenant.admin.token,
    body: { name: handle, email, password: PASSWORD, profile: options.profile ?? 'user', queueIds: options.queueIds ?? [], allTicket: options.allTicket ?? 'disabled' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, email, token: (await server.login(email, PASSWORD)).token };
}

/** A queue of the tenant; colours are made unique per call. */
let colourSeq = 0;
export async function createQueue(server: TestServer, tenant: InboxTenant, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  colourSeq += 1;
  const color = `#${(0x100000 + colourSeq * 7919).toString(16).slice(-6)}`;
  const res = await server.call('POST', '/api/queue', { token: tenant.admin.token, body: { name, color, greetingMessage: '', ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** A simulated WhatsApp connection, scanned (CONNECTED) unless `scan` is false. */
export async function createConnection(
  server: TestServer,
  tenant: InboxTenant,
  name: string,
  body: Record<string, unknown> = {},
  scan = true,
): Promise<number> {
  const res = await server.call('POST', '/api/whatsapp', { token: tenant.admin.token, body: { name, provider: 'simulator', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.id as number;
  if (scan) {
    // The session starts in the background: wait for its QR code, then scan it.
    for (let i = 0; i < 100; i += 1) {
      const scanned = await server.call('POST', `/api/simulator/${id}/scan`, { token: tenant.admin.token });
      if (scanned.status < 300) return id;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`connection ${id} never showed a QR code`);
  }
  return id;
}

/** A customer writes through the simulator; answers the provider message id. */
export async function customerWrites(
  server: TestServer,
  tenant: InboxTenant,
  connectionId: number,
  message: { from: string; name?: string; body: string; id?: string; quotedId?: string; mediaType?: string; mediaBase64?: string; mediaName?: string },
): Promise<string> {
  const res = await server.call('POST', `/api/simulator/${connectionId}/inbound`, { token: tenant.admin.token, body: { name: 'Cliente', ...message } });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.message.id as string;
}

/** `number` writes in and the tenant's admin takes the ticket (open, assigned); answers the ticket id. */
export async function ticketTakenByAdmin(server: TestServer, tenant: InboxTenant, connectionId: number, number: string): Promise<number> {
  await customerWrites(server, tenant, connectionId, { from: number, body: 'Oi' });
  const ticket: { id: number } = await eventually(() =>
    server.atende.container.db('tickets').join('contacts', 'contacts.id', 'tickets.contactId').where({ 'contacts.number': number }).first('tickets.id'),
  );
  const res = await server.call('PUT', `/api/tickets/${ticket.id}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.admin.id } });
  expect(res.status).toBe(200);
  return ticket.id;
}

/** A ticket as the tests read it. */
export interface TicketRow {
  id: number;
  uuid: string;
  status: string;
  queueId: number | null;
}

/**
 * The newest ticket of the contact `number` once the pipeline has handled what it received: the
 * bot's first step is done (a connection's one queue is entered just after the ticket is made), so
 * an agent of that queue may take it.
 */
export async function ticketOf(server: TestServer, companyId: number, number: string): Promise<TicketRow> {
  const read = (): Promise<TicketRow | undefined> =>
    server.atende.container
      .db('tickets')
      .join('contacts', 'contacts.id', 'tickets.contactId')
      .where({ 'tickets.companyId': companyId, 'contacts.number': number })
      .orderBy('tickets.id', 'desc')
      .first('tickets.id', 'tickets.uuid', 'tickets.status', 'tickets.queueId');
  await eventually(read, 10_000, `the ticket of ${number}`);
  await server.atende.container.services.pipeline.idle();
  return (await read())!;
}

/** What the simulated phone sent so far (messages and operations). */
export async function outbox(server: TestServer, tenant: InboxTenant, connectionId: number): Promise<Outbox> {
  const res = await server.call('GET', `/api/simulator/${connectionId}/outbox`, { token: tenant.admin.token });
  expect(res.status).toBe(200);
  return res.body;
}

/** Polls until `check` answers a truthy value (or fails after `ms`). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 5000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
