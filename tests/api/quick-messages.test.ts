import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor } from '../helpers/socket.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Member {
  id: number;
  token: string;
}
interface Tenant {
  companyId: number;
  admin: Member;
  agent: Member;
  colleague: Member;
}

/** A company with its admin and two agents, all signed in. */
async function tenant(name: string): Promise<Tenant> {
  const slug = name.toLowerCase().replace(/\W/g, '');
  const email = `admin@${slug}.test`;
  const { company, admin } = await server.atende.container.services.companies.createTenant({ name, email, password: PASSWORD });
  const adminToken = (await server.login(email, PASSWORD)).token;
  const agent = async (who: string): Promise<Member> => {
    const agentEmail = `${who}@${slug}.test`;
    const res = await server.call('POST', '/api/users', { token: adminToken, body: { name: who, email: agentEmail, password: PASSWORD, profile: 'user' } });
    expect(res.status).toBe(201);
    return { id: res.body.id, token: (await server.login(agentEmail, PASSWORD)).token };
  };
  return { companyId: company.id, admin: { id: admin.id, token: adminToken }, agent: await agent('agent'), colleague: await agent('colleague') };
}

async function createReply(token: string, body: Record<string, unknown>) {
  const res = await server.call('POST', '/api/quick-messages', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; shortcode: string; geral: boolean; mediaPath: string | null; mediaName: string | null; mediaUrl: string | null };
}

/** POST /quick-messages/:id/media-upload as the browser sends it. */
async function upload(token: string, id: number, name: string, data: Buffer | string, type = 'application/octet-stream') {
  const form = new FormData();
  form.set('typeArch', 'quickMessage');
  form.set('file', new Blob([data], { type }), name);
  const res = await fetch(`${server.url}/api/quick-messages/${id}/media-upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
}

const ids = (records: { id: number }[]) => records.map((r) => r.id).sort((x, y) => x - y);

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant('Loja Respostas');
  b = await tenant('Outra Loja');
});
afterAll(async () => {
  await server?.close();
});

describe('writing quick replies', () => {
  it("a shortcode is required ('Obrigatório'); the message may be empty", async () => {
    for (const body of [{}, { shortcode: '  ' }, { shortcode: null }]) {
      const res = await server.call('POST', '/api/quick-messages', { token: a.agent.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('shortcode: Obrigatório');
    }
    const reply = await createReply(a.agent.token, { shortcode: ' oi ', message: null });
    expect(reply).toMatchObject({ shortcode: 'oi', message: '', geral: false, userId: a.agent.id, mediaPath: null, mediaName: null, mediaUrl: null });
  });

  it('only admins share a reply with the whole company (geral)', async () => {
    const forbidden = await server.call('POST', '/api/quick-messages', { token: a.agent.token, body: { shortcode: 'todos', geral: true } });
    expect(forbidden.status).toBe(403);
    const own = await createReply(a.agent.token, { shortcode: 'meu' });
    const share = await server.call('PUT', `/api/quick-messages/${own.id}`, { token: a.agent.token, body: { geral: true } });
    expect(share.status).toBe(403);
    const shared = await server.call('PUT', `/api/quick-messages/${own.id}`, { token: a.admin.token, body: { geral: true } });
    expect(shared.body.geral).toBe(true);
    // The author still edits the text of a reply an admin shared.
    const edited = await server.call('PUT', `/api/quick-messages/${own.id}`, { token: a.agent.token, body: { message: 'Olá!', geral: true } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ message: 'Olá!', geral: true });
  });

  it("a user edits and deletes only their own replies; admins any of the company's", async () => {
    const mine = await createReply(a.agent.token, { shortcode: 'privado' });
    const shared = await createReply(a.admin.token, { shortcode: 'geral-1', geral: true });

    // Another user's private reply does not exist for a colleague; a shared one is read-only.
    expect((await server.call('GET', `/api/quick-messages/${mine.id}`, { token: a.colleague.token })).status).toBe(404);
    expect((await server.call('PUT', `/api/quick-messages/${mine.id}`, { token: a.colleague.token, body: { shortcode: 'x' } })).status).toBe(404);
    expect((await server.call('GET', `/api/quick-messages/${shared.id}`, { token: a.colleague.token })).status).toBe(200);
    const editShared = await server.call('PUT', `/api/quick-messages/${shared.id}`, { token: a.colleague.token, body: { shortcode: 'x' } });
    expect(editShared.status).toBe(403);
    expect((await server.call('DELETE', `/api/quick-messages/${shared.id}`, { token: a.agent.token })).status).toBe(403);

    const byAdmin = await server.call('PUT', `/api/quick-messages/${mine.id}`, { token: a.admin.token, body: { shortcode: 'revisado' } });
    expect(byAdmin.body).toMatchObject({ shortcode: 'revisado', userId: a.agent.id });
    expect((await server.call('DELETE', `/api/quick-messages/${mine.id}`, { token: a.agent.token })).status).toBe(204);
    expect((await server.call('GET', `/api/quick-messages/${mine.id}`, { token: a.admin.token })).status).toBe(404);
  });
});

describe('reading quick replies', () => {
  it('the list shows a user their own and the shared replies, admins every reply; 20 a page by shortcode', async () => {
    const c = await tenant('Loja Lista');
    const own = [];
    for (let i = 0; i < 21; i += 1) own.push(await createReply(c.agent.token, { shortcode: `a${String(i).padStart(2, '0')}`, message: i === 3 ? 'Bom DIA' : '' }));
    const colleagues = await createReply(c.colleague.token, { shortcode: 'b-colega' });
    const shared = await createReply(c.admin.token, { shortcode: 'c-geral', geral: true });
    const adminOwn = await createReply(c.admin.token, { shortcode: 'd-admin' });

    const first = await server.call('GET', '/api/quick-messages', { token: c.agent.token });
    expect(first.body).toMatchObject({ count: 22, hasMore: true });
    expect(first.body.records).toHaveLength(20);
    const second = await server.call('GET', '/api/quick-messages?pageNumber=2', { token: c.agent.token });
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.records.map((r: { shortcode: string }) => r.shortcode)).toEqual(['a20', 'c-geral']);

    const admin = await server.call('GET', '/api/quick-messages?pageNumber=2', { token: c.admin.token });
    expect(admin.body.count).toBe(24);
    expect(ids(admin.body.records)).toEqual(ids([own[20]!, colleagues, shared, adminOwn]));

    const search = await server.call('GET', '/api/quick-messages?searchParam=BOM%20dia', { token: c.agent.token });
    expect(search.body.records.map((r: { id: number }) => r.id)).toEqual([own[3]!.id]);

    // The composer's picker: own plus shared, for admins too; companyId/userId of others change nothing.
    const picker = await server.call('GET', `/api/quick-messages/list?companyId=${b.companyId}&userId=${c.colleague.id}`, { token: c.agent.token });
    expect(ids(picker.body)).toEqual(ids([...own, shared]));
    const adminPicker = await server.call('GET', '/api/quick-messages/list', { token: c.admin.token });
    expect(ids(adminPicker.body)).toEqual(ids([shared, adminOwn]));
  });

  it("another company's reply answers 404 ERR_NO_QUICK_MESSAGE_FOUND everywhere", async () => {
    const theirs = await createReply(b.admin.token, { shortcode: 'segredo', geral: true });
    for (const [method, route, body] of [
      ['GET', `/api/quick-messages/${theirs.id}`],
      ['PUT', `/api/quick-messages/${theirs.id}`, { shortcode: 'roubado' }],
      ['DELETE', `/api/quick-messages/${theirs.id}`],
      ['DELETE', `/api/quick-messages/${theirs.id}/media-upload`],
    ] as const) {
      const res = await server.call(method, route, { token: a.admin.token, body });
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_QUICK_MESSAGE_FOUND');
    }
    const up = await upload(a.admin.token, theirs.id, 'x.png', 'png');
    expect(up.status).toBe(404);
    const list = await server.call('GET', '/api/quick-messages/list', { token: a.admin.token });
    expect(list.body.some((r: { id: number }) => r.id === theirs.id)).toBe(false);
    expect((await server.call('GET', `/api/quick-messages/${theirs.id}`, { token: b.agent.token })).body.shortcode).toBe('segredo');
  });
});

describe('attachments', () => {
  const companyFiles = async (companyId: number) => readdir(path.join(server.config.mediaDir, String(companyId))).catch(() => [] as string[]);

  it('an upload is stored under a sanitized name in the company folder and served to that company only', async () => {
    const reply = await createReply(a.agent.token, { shortcode: 'anexo' });
    const up = await upload(a.agent.token, reply.id, '../../Relatório março.pdf', '%PDF-1.4 test', 'application/pdf');
    expect(up.status).toBe(200);
    expect(up.body.mediaName).toBe('Relatório março.pdf');
    expect(up.body.mediaPath).toMatch(/^\d+-[0-9a-f]{8}-Relatorio_marco\.pdf$/);
    expect(up.body.mediaUrl).toBe(`/api/media/${up.body.mediaPath}`);
    expect(await companyFiles(a.companyId)).toContain(up.body.mediaPath);

    const mine = await fetch(server.url + up.body.mediaUrl, { headers: { Authorization: `Bearer ${a.colleague.token}` } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('application/pdf');
    expect(await mine.text()).toBe('%PDF-1.4 test');
    const theirs = await fetch(server.url + up.body.mediaUrl, { headers: { Authorization: `Bearer ${b.admin.token}` } });
    expect(theirs.status).toBe(404);

    // A new file replaces the old one, on disk too; removing it keeps the reply.
    const next = await upload(a.agent.token, reply.id, 'foto.PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    expect(next.body.mediaName).toBe('foto.PNG');
    const files = await companyFiles(a.companyId);
    expect(files).toContain(next.body.mediaPath);
    expect(files).not.toContain(up.body.mediaPath);

    const removed = await server.call('DELETE', `/api/quick-messages/${reply.id}/media-upload`, { token: a.agent.token });
    expect(removed.body).toMatchObject({ id: reply.id, shortcode: 'anexo', mediaPath: null, mediaName: null, mediaUrl: null });
    expect(await companyFiles(a.companyId)).not.toContain(next.body.mediaPath);
  });

  it('deleting a reply deletes its file', async () => {
    const reply = await createReply(a.agent.token, { shortcode: 'com-arquivo' });
    const up = await upload(a.agent.token, reply.id, 'audio.ogg', 'OggS', 'audio/ogg');
    await server.call('DELETE', `/api/quick-messages/${reply.id}`, { token: a.agent.token });
    expect(await companyFiles(a.companyId)).not.toContain(up.body.mediaPath);
  });

  it('uploads are limited to 16 MB and to attachment types; a colleague cannot attach to your reply', async () => {
    const reply = await createReply(a.agent.token, { shortcode: 'limites' });
    const before = await companyFiles(a.companyId);

    const big = await upload(a.agent.token, reply.id, 'video.mp4', Buffer.alloc(16 * 1024 * 1024 + 1), 'video/mp4');
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('ERR_MEDIA_TOO_LARGE');
    for (const name of ['page.html', 'script.js', 'image.svg', 'noextension']) {
      const res = await upload(a.agent.token, reply.id, name, 'x', 'image/png');
      expect(res.status, name).toBe(415);
      expect(res.body.error).toBe('ERR_MEDIA_TYPE_NOT_ALLOWED');
    }
    const empty = await upload(a.agent.token, reply.id, 'empty.png', '', 'image/png');
    expect(empty.status).toBe(400);
    const noFile = await fetch(`${server.url}/api/quick-messages/${reply.id}/media-upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${a.agent.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(noFile.status).toBe(400);
    expect((await upload(a.colleague.token, reply.id, 'x.png', 'png')).status).toBe(404);

    expect(await companyFiles(a.companyId)).toEqual(before);
    const still = await server.call('GET', `/api/quick-messages/${reply.id}`, { token: a.agent.token });
    expect(still.body.mediaPath).toBeNull();
  });
});

describe('live frames', () => {
  it('company-{id}-quickmessage reaches everyone for a shared reply, only the author and admins for a private one', async () => {
    const c = await tenant('Loja Ao Vivo');
    const author = await openSocket(server.url, c.agent.token);
    const colleague = await openSocket(server.url, c.colleague.token);
    const admin = await openSocket(server.url, c.admin.token);
    const other = await openSocket(server.url, b.admin.token);
    const channel = `company-${c.companyId}-quickmessage`;
    type Data = { action: string; quickMessage?: { id: number; shortcode: string }; quickMessageId?: number };
    const on = (socket: typeof author, action: string, id: number) =>
      socket.next((f) => {
        const d = f.data as Data;
        return f.channel === channel && d.action === action && (d.quickMessage?.id ?? d.quickMessageId) === id;
      });
    const heard = (socket: typeof author, id: number) =>
      socket.frames.filter((f) => f.channel === channel && ((f.data as Data).quickMessage?.id ?? (f.data as Data).quickMessageId) === id);

    const reply = await createReply(c.agent.token, { shortcode: 'ao-vivo' });
    await on(author, 'create', reply.id);
    await on(admin, 'create', reply.id);
    await quietFor(200);
    expect(heard(colleague, reply.id)).toEqual([]);
    expect(heard(author, reply.id)).toHaveLength(1);

    await server.call('PUT', `/api/quick-messages/${reply.id}`, { token: c.admin.token, body: { geral: true } });
    await on(colleague, 'create', reply.id);
    await on(author, 'create', reply.id);

    await server.call('PUT', `/api/quick-messages/${reply.id}`, { token: c.admin.token, body: { geral: false } });
    await on(colleague, 'delete', reply.id);
    await on(author, 'create', reply.id);

    await server.call('DELETE', `/api/quick-messages/${reply.id}`, { token: c.agent.token });
    await on(admin, 'delete', reply.id);
    await on(author, 'delete', reply.id);
    await quietFor(200);
    expect(heard(colleague, reply.id).map((f) => (f.data as Data).action)).toEqual(['create', 'delete']);
    expect(other.frames.some((f) => f.channel === channel)).toBe(false);

    await Promise.all([author, colleague, admin, other].map((s) => s.close()));
  });
});
