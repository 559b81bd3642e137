import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatUser } from '../../plugins/internal-chat/chat.model.js';
import { createMember, createTenant, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
let ana: Member;
let bia: Member;
let caio: Member;
let stranger: Member;
let biaSocket: TestSocket;
let caioSocket: TestSocket;

type Frame = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape

async function createChat(token: string, body: Record<string, unknown>) {
  const res = await server.call('POST', '/api/chats', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string; ownerId: number; users: { userId: number; unreads: number; user: { id: number; name: string } }[] };
}

async function send(token: string, chat: { id: number } | { uuid: string }, message: string) {
  const key = 'uuid' in chat ? chat.uuid : chat.id;
  const res = await server.call('POST', `/api/chats/${key}/messages`, { token, body: { message } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; chatId: number; message: string };
}

async function unreadsOf(chatId: number): Promise<Record<number, number>> {
  const rows = await ChatUser.query(server.atende.container.db).where({ chatId });
  return Object.fromEntries(rows.map((r) => [r.userId, r.unreads]));
}

const frameOn = async (socket: TestSocket, channel: string, match: (data: Frame) => boolean = () => true): Promise<{ channel: string; data: Frame }> =>
  (await socket.next((f) => f.channel === channel && match(f.data as Frame))) as { channel: string; data: Frame };

beforeAll(async () => {
  server = await startTestServer();
  t = await createTenant(server, 'Conversa Loja');
  other = await createTenant(server, 'Outra Conversa');
  ana = t.admin;
  bia = await createMember(server, t, 'bia');
  caio = await createMember(server, t, 'caio');
  stranger = await createMember(server, other, 'estranho');
  biaSocket = await openSocket(server.url, bia.token);
  caioSocket = await openSocket(server.url, caio.token);
});
afterAll(async () => {
  await biaSocket?.close();
  await caioSocket?.close();
  await server?.close();
});

describe('the plan flag', () => {
  it('answers 403 ERR_PLAN_FEATURE_DISABLED on every call when the plan lacks useInternalChat', async () => {
    const off = await withPlan(server, { features: { useInternalChat: false } });
    for (const [method, path] of [
      ['GET', '/api/chats'],
      ['POST', '/api/chats'],
      ['PUT', '/api/chats/1'],
      ['DELETE', '/api/chats/1'],
      ['POST', '/api/chats/1/read'],
      ['GET', '/api/chats/1/messages'],
      ['POST', '/api/chats/1/messages'],
    ] as const) {
      const res = await server.call(method, path, { token: off.token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it('works for a company whose plan has it', async () => {
    const on = await withPlan(server, { features: { useInternalChat: true } });
    const res = await server.call('GET', '/api/chats', { token: on.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ records: [], count: 0, hasMore: false });
  });
});

describe('creating a chat', () => {
  it('makes the caller its owner and a member, with the chosen users, and tells each member on their own channel', async () => {
    const chat = await createChat(ana.token, { title: '  Equipe  ', users: [bia.id, { id: bia.id, name: 'bia' }] });
    expect(chat).toMatchObject({ title: 'Equipe', ownerId: ana.id, lastMessage: '' });
    expect(chat.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.users.map((u) => u.userId).sort()).toEqual([ana.id, bia.id].sort());
    expect(chat.users.every((u) => u.unreads === 0 && u.user.id === u.userId && typeof u.user.name === 'string')).toBe(true);
    const frame = await frameOn(biaSocket, `company-${t.companyId}-chat-user-${bia.id}`, (d) => d.chat?.id === chat.id);
    expect(frame.data).toMatchObject({ action: 'create', chat: { id: chat.id, uuid: chat.uuid } });
    await quietFor();
    expect(caioSocket.frames.some((f) => JSON.stringify(f).includes(chat.uuid))).toBe(false);
  });

  it("answers the spec's alerts for a missing title and no users", async () => {
    for (const [body, message] of [
      [{ users: [bia.id] }, 'title: Por favor, preencha o título da conversa.'],
      [{ title: '   ', users: [bia.id] }, 'title: Por favor, preencha o título da conversa.'],
      [{ title: 'Sem gente' }, 'users: Por favor, selecione pelo menos um usuário.'],
      [{ title: 'Sem gente', users: [] }, 'users: Por favor, selecione pelo menos um usuário.'],
    ] as const) {
      const res = await server.call('POST', '/api/chats', { token: ana.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
  });

  it('refuses a title over 100 characters and users that are not ids', async () => {
    const long = await server.call('POST', '/api/chats', { token: ana.token, body: { title: 'x'.repeat(101), users: [bia.id] } });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('title: At most 100 characters');
    const bad = await server.call('POST', '/api/chats', { token: ana.token, body: { title: 'Ok', users: ['two'] } });
    expect(bad.status).toBe(400);
  });

  it("refuses a user of another company, naming it, and creates nothing", async () => {
    const res = await server.call('POST', '/api/chats', { token: ana.token, body: { title: 'Vazamento', users: [bia.id, stranger.id] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NO_USER_FOUND', message: `Not users of this company: ${stranger.id}` });
    const list = await server.call('GET', '/api/chats', { token: ana.token });
    expect(list.body.records.some((c: { title: string }) => c.title === 'Vazamento')).toBe(false);
  });
});

describe('who sees a chat', () => {
  let chat: Awaited<ReturnType<typeof createChat>>;
  beforeAll(async () => {
    chat = await createChat(ana.token, { title: 'Só nós', users: [bia.id] });
  });

  it('lists it to its members only', async () => {
    const forBia = await server.call('GET', '/api/chats', { token: bia.token });
    expect(forBia.body.records.map((c: { id: number }) => c.id)).toContain(chat.id);
    const forCaio = await server.call('GET', '/api/chats', { token: caio.token });
    expect(forCaio.body.records.map((c: { id: number }) => c.id)).not.toContain(chat.id);
  });

  it('opens it by id or by uuid for a member', async () => {
    for (const key of [chat.id, chat.uuid, chat.uuid.toUpperCase()]) {
      const res = await server.call('GET', `/api/chats/${key}`, { token: bia.token });
      expect(res.status, String(key)).toBe(200);
      expect(res.body.id).toBe(chat.id);
    }
  });

  it('answers 404 to a user of the same company who is not a member, on every call, and changes nothing', async () => {
    for (const [method, path, body] of [
      ['GET', `/api/chats/${chat.id}`, undefined],
      ['GET', `/api/chats/${chat.uuid}/messages`, undefined],
      ['POST', `/api/chats/${chat.id}/messages`, { message: 'oi' }],
      ['POST', `/api/chats/${chat.id}/read`, {}],
      ['PUT', `/api/chats/${chat.id}`, { title: 'Meu' }],
      ['DELETE', `/api/chats/${chat.id}`, undefined],
    ] as const) {
      const res = await server.call(method, path, { token: caio.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CHAT_FOUND');
    }
    const still = await server.call('GET', `/api/chats/${chat.id}`, { token: ana.token });
    expect(still.body).toMatchObject({ title: 'Só nós', lastMessage: '' });
  });

  it("answers 404 to another company's user, whatever the key", async () => {
    for (const path of [`/api/chats/${chat.id}`, `/api/chats/${chat.uuid}/messages`]) {
      const res = await server.call('GET', path, { token: other.admin.token });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CHAT_FOUND');
    }
    const del = await server.call('DELETE', `/api/chats/${chat.id}`, { token: other.admin.token });
    expect(del.status).toBe(404);
    for (const key of ['0', 'abc', '99999999999', 'not-a-uuid']) {
      expect((await server.call('GET', `/api/chats/${key}`, { token: ana.token })).status, key).toBe(404);
    }
  });
});

describe('the owner', () => {
  it('alone renames a chat and changes its members (403 for the other members)', async () => {
    const chat = await createChat(ana.token, { title: 'Antigo', users: [bia.id] });
    const denied = await server.call('PUT', `/api/chats/${chat.id}`, { token: bia.token, body: { title: 'Meu agora' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');

    const renamed = await server.call('PUT', `/api/chats/${chat.uuid}`, { token: ana.token, body: { title: 'Novo' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Novo');
    const told = await frameOn(biaSocket, `company-${t.companyId}-chat-user-${bia.id}`, (d) => d.action === 'update' && d.chat.title === 'Novo');
    expect(told.data.chat.id).toBe(chat.id);

    // Caio in, Bia out; the owner stays even when left out of the list.
    const changed = await server.call('PUT', `/api/chats/${chat.id}`, { token: ana.token, body: { users: [caio.id] } });
    expect(changed.status).toBe(200);
    expect(changed.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual([ana.id, caio.id].sort());
    await frameOn(caioSocket, `company-${t.companyId}-chat-user-${caio.id}`, (d) => d.action === 'create' && d.chat.id === chat.id);
    const gone = await frameOn(biaSocket, `company-${t.companyId}-chat`, (d) => d.action === 'delete' && d.chatId === chat.id);
    expect(gone.data).toEqual({ action: 'delete', chatId: chat.id, uuid: chat.uuid });
    expect((await server.call('GET', `/api/chats/${chat.id}`, { token: bia.token })).status).toBe(404);

    const strangerIn = await server.call('PUT', `/api/chats/${chat.id}`, { token: ana.token, body: { users: [stranger.id] } });
    expect(strangerIn.status).toBe(404);
    expect(strangerIn.body.error).toBe('ERR_NO_USER_FOUND');
    const empty = await server.call('PUT', `/api/chats/${chat.id}`, { token: ana.token, body: { title: '' } });
    expect(empty.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'title: Por favor, preencha o título da conversa.' });
  });

  it('alone deletes a chat; its members hear it is gone and its messages go with it', async () => {
    const chat = await createChat(ana.token, { title: 'Temporária', users: [bia.id] });
    await send(bia.token, chat, 'até logo');
    const denied = await server.call('DELETE', `/api/chats/${chat.id}`, { token: bia.token });
    expect(denied.status).toBe(403);
    const res = await server.call('DELETE', `/api/chats/${chat.uuid}`, { token: ana.token });
    expect(res.status).toBe(204);
    await frameOn(biaSocket, `company-${t.companyId}-chat`, (d) => d.action === 'delete' && d.uuid === chat.uuid);
    expect((await server.call('GET', `/api/chats/${chat.id}`, { token: ana.token })).status).toBe(404);
    const left = await server.atende.container.db('chat_messages').where({ chatId: chat.id }).count({ n: '*' });
    expect(Number(left[0]!.n)).toBe(0);
  });
});

describe('messages', () => {
  let chat: Awaited<ReturnType<typeof createChat>>;
  beforeAll(async () => {
    chat = await createChat(ana.token, { title: 'Trio', users: [bia.id, caio.id] });
  });

  it("counts a message as unread for the other members, in the chat's view and last message", async () => {
    const sent = await send(ana.token, chat, '  Bom dia  ');
    expect(sent).toMatchObject({ chatId: chat.id, senderId: ana.id, sender: { id: ana.id }, message: 'Bom dia' });
    expect(await unreadsOf(chat.id)).toEqual({ [ana.id]: 0, [bia.id]: 1, [caio.id]: 1 });
    await send(ana.token, chat, 'Tudo bem?');
    await send(bia.token, chat, 'Sim!');
    expect(await unreadsOf(chat.id)).toEqual({ [ana.id]: 1, [bia.id]: 0, [caio.id]: 3 });
    const list = await server.call('GET', '/api/chats', { token: caio.token });
    const mine = list.body.records.find((c: { id: number }) => c.id === chat.id);
    expect(mine.lastMessage).toBe('Sim!');
    expect(mine.users.find((u: { userId: number }) => u.userId === caio.id).unreads).toBe(3);
    // The latest activity first.
    expect(list.body.records[0].id).toBe(chat.id);
  });

  it('marks the chat read for the caller only, never for another user', async () => {
    const forOther = await server.call('POST', `/api/chats/${chat.id}/read`, { token: caio.token, body: { userId: bia.id } });
    expect(forOther.status).toBe(403);
    const read = await server.call('POST', `/api/chats/${chat.uuid}/read`, { token: caio.token, body: { userId: caio.id } });
    expect(read.status).toBe(200);
    expect(read.body.users.find((u: { userId: number }) => u.userId === caio.id).unreads).toBe(0);
    await frameOn(caioSocket, `company-${t.companyId}-chat-user-${caio.id}`, (d) => d.action === 'update' && d.chat.id === chat.id);
    expect(await unreadsOf(chat.id)).toEqual({ [ana.id]: 1, [bia.id]: 0, [caio.id]: 0 });
    expect((await server.call('POST', `/api/chats/${chat.id}/read`, { token: ana.token })).status).toBe(200);
    expect(await unreadsOf(chat.id)).toEqual({ [ana.id]: 0, [bia.id]: 0, [caio.id]: 0 });
  });

  it('refuses an empty or too long message', async () => {
    for (const [body, message] of [
      [{}, 'message: Message is required'],
      [{ message: '   ' }, 'message: Message is required'],
      [{ message: 'x'.repeat(4001) }, 'message: At most 4000 characters'],
    ] as const) {
      const res = await server.call('POST', `/api/chats/${chat.id}/messages`, { token: bia.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
  });

  it('delivers a new message live to every member, and to no one else of the company', async () => {
    const outsider = await createMember(server, t, 'davi');
    const outsiderSocket = await openSocket(server.url, outsider.token);
    try {
      const sent = await send(ana.token, chat, 'ao vivo');
      const room = await frameOn(biaSocket, `company-${t.companyId}-chat-${chat.id}`, (d) => d.message?.id === sent.id);
      expect(room.data).toMatchObject({ action: 'new-message', message: { message: 'ao vivo', senderId: ana.id }, chat: { id: chat.id, lastMessage: 'ao vivo' } });
      const list = await frameOn(caioSocket, `company-${t.companyId}-chat`, (d) => d.message?.id === sent.id);
      expect(list.data.action).toBe('new-message');
      await quietFor();
      expect(outsiderSocket.frames.filter((f) => String(f.channel ?? '').includes('-chat'))).toEqual([]);
    } finally {
      await outsiderSocket.close();
    }
  });

  it('pages 40 at a time, newest page first, each page in time order', async () => {
    const paged = await createChat(bia.token, { title: 'Longa', users: [ana.id] });
    for (let i = 1; i <= 45; i += 1) await send(i % 2 ? bia.token : ana.token, paged, `m${i}`);
    const first = await server.call('GET', `/api/chats/${paged.uuid}/messages`, { token: ana.token });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(45);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.records.map((m: { message: string }) => m.message)).toEqual(Array.from({ length: 40 }, (_, i) => `m${i + 6}`));
    expect(first.body.records[0]).toMatchObject({ chatId: paged.id, senderId: ana.id, sender: { id: ana.id, name: expect.any(String) }, createdAt: expect.any(String) });
    const second = await server.call('GET', `/api/chats/${paged.id}/messages?pageNumber=2`, { token: ana.token });
    expect(second.body).toMatchObject({ count: 45, hasMore: false });
    expect(second.body.records.map((m: { message: string }) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    const bad = await server.call('GET', `/api/chats/${paged.id}/messages?pageNumber=0`, { token: ana.token });
    expect(bad.status).toBe(400);
  });
});

describe('the chat list', () => {
  it('pages 30 chats at a time', async () => {
    const busy = await createTenant(server, 'Muitas Conversas');
    const mate = await createMember(server, busy, 'colega');
    for (let i = 0; i < 31; i += 1) await createChat(busy.admin.token, { title: `c${i}`, users: [mate.id] });
    const first = await server.call('GET', '/api/chats', { token: mate.token });
    expect(first.body).toMatchObject({ count: 31, hasMore: true });
    expect(first.body.records).toHaveLength(30);
    expect(first.body.records[0].title).toBe('c30');
    const second = await server.call('GET', '/api/chats?pageNumber=2', { token: mate.token });
    expect(second.body).toMatchObject({ count: 31, hasMore: false });
    expect(second.body.records.map((c: { title: string }) => c.title)).toEqual(['c0']);
  });
});
