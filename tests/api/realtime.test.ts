import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor } from '../helpers/socket.js';

let server: TestServer;
let tokenA: string;
let tokenB: string;
let companyA: number;
let companyB: number;

/** A contact and a pending ticket of a company, written directly: tickets have no routes yet. */
async function insertTicket(companyId: number): Promise<number> {
  const db = server.atende.container.db;
  const now = new Date().toISOString();
  const [contact] = await db('contacts')
    .insert({ companyId, uuid: randomUUID(), name: 'Cliente', number: `55119${Date.now() % 100000000}`, createdAt: now, updatedAt: now })
    .returning('id');
  const [ticket] = await db('tickets')
    .insert({ companyId, uuid: randomUUID(), contactId: contact.id, status: 'pending', createdAt: now, updatedAt: now })
    .returning('id');
  return ticket.id as number;
}

beforeAll(async () => {
  server = await startTestServer();
  const { companies } = server.atende.container.services;
  const a = await companies.createTenant({ name: 'Empresa A', email: 'admin@a.test', password: 'secret-a' });
  const b = await companies.createTenant({ name: 'Empresa B', email: 'admin@b.test', password: 'secret-b' });
  companyA = a.company.id;
  companyB = b.company.id;
  tokenA = (await server.login('admin@a.test', 'secret-a')).token;
  tokenB = (await server.login('admin@b.test', 'secret-b')).token;
});

afterAll(async () => {
  await server?.close();
});

describe('realtime /ws', () => {
  it('refuses a socket without a valid token', async () => {
    await expect(openSocket(server.url, 'not-a-token')).rejects.toThrow('HTTP 401');
    await expect(openSocket(server.url, '')).rejects.toThrow('HTTP 401');
  });

  it("a socket only hears its own company's channels", async () => {
    const a = await openSocket(server.url, tokenA);
    const b = await openSocket(server.url, tokenB);
    server.atende.container.realtime.publish(companyA, `company-${companyA}-contact`, { action: 'update', n: 1 });
    await a.next((f) => f.channel === `company-${companyA}-contact`);
    await quietFor();
    // b hears its own company's frames (its user going online), never A's.
    expect(b.frames.filter((f) => typeof f.channel === 'string' && f.channel.startsWith(`company-${companyA}-`))).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('rooms reach only the sockets that joined them', async () => {
    const joined = await openSocket(server.url, tokenA);
    const other = await openSocket(server.url, tokenA);
    joined.send('joinTickets', 'open');
    await joined.next((f) => f.type === 'joined' && f.room === 'status:open');
    server.atende.container.realtime.publish(companyA, `company-${companyA}-ticket`, { action: 'update' }, 'status:open');
    await joined.next((f) => f.channel === `company-${companyA}-ticket`);
    await quietFor();
    expect(other.frames.some((f) => f.channel === `company-${companyA}-ticket`)).toBe(false);
    await Promise.all([joined.close(), other.close()]);
  });

  it("joinChatBox is refused for another company's ticket and allowed for one's own", async () => {
    const ticketOfB = await insertTicket(companyB);
    const ticketOfA = await insertTicket(companyA);
    const socket = await openSocket(server.url, tokenA);
    socket.send('joinChatBox', ticketOfB);
    const refused = await socket.next((f) => f.type === 'error');
    expect(refused.error).toBe('ERR_NO_PERMISSION');
    socket.send('joinChatBox', ticketOfA);
    await socket.next((f) => f.type === 'joined' && f.room === `ticket:${ticketOfA}`);
    await socket.close();
  });

  it('answers an error frame to bad or unknown frames', async () => {
    const socket = await openSocket(server.url, tokenA);
    socket.send('doSomethingOdd');
    expect((await socket.next((f) => f.type === 'error')).error).toBe('ERR_UNKNOWN_FRAME');
    socket.send('joinTickets', 'archived');
    expect((await socket.next((f) => f.error === 'ERR_NO_PERMISSION')).type).toBe('error');
    await socket.close();
  });

  it('a write through the API reaches the company live: a setting change', async () => {
    const socket = await openSocket(server.url, tokenA);
    const res = await server.call('PUT', '/api/settings/userRating', { token: tokenA, body: { value: 'enabled' } });
    expect(res.status).toBe(200);
    const frame = await socket.next((f) => f.channel === `company-${companyA}-settings`);
    expect(frame.data).toMatchObject({ action: 'update', setting: { key: 'userRating', value: 'enabled' } });
    await socket.close();
  });

  it('marks a user online while a socket is open and offline after', async () => {
    const users = () => server.atende.container.db('users').where({ email: 'admin@b.test' }).first('online');
    const socket = await openSocket(server.url, tokenB);
    await expect.poll(async () => Boolean((await users()).online)).toBe(true);
    await socket.close();
    await expect.poll(async () => Boolean((await users()).online)).toBe(false);
  });
});
