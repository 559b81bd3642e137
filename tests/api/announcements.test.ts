import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Announcement } from '../../plugins/announcements/announcement.model.js';
import { createMember, createTenant, type InboxTenant, type Member } from '../helpers/inbox.js';
import { companyMediaFiles, storedBytes } from '../helpers/media.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let superToken: string;
let superCompanyId: number;
let shop: InboxTenant;
let other: InboxTenant;
let agent: Member;

/** The first bytes of real images, then anything: the server looks at the signature. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR png body')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF jpeg body')]);

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape

async function create(body: Record<string, unknown>): Promise<Body> {
  const res = await server.call('POST', '/api/announcements', { token: superToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
}

async function remove(id: number): Promise<void> {
  expect((await server.call('DELETE', `/api/announcements/${id}`, { token: superToken })).status).toBe(204);
}

/** POST /announcements/:id/media-upload as the browser sends it. */
async function upload(token: string, id: number, name: string, data: Buffer | string) {
  const form = new FormData();
  form.set('file', new Blob([data]), name);
  const res = await fetch(`${server.url}/api/announcements/${id}/media-upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Body };
}

async function fetchImage(token: string, url: string) {
  const res = await fetch(server.url + url, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

async function active(token: string): Promise<{ announcements: Body[]; unread: number }> {
  const res = await server.call('GET', '/api/announcements/active', { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { announcements: Body[]; unread: number };
}

beforeAll(async () => {
  server = await startTestServer();
  const login = await server.login(SUPER_EMAIL, SUPER_PASSWORD);
  superToken = login.token;
  superCompanyId = (login.body.user as { companyId: number }).companyId;
  shop = await createTenant(server, 'Loja Avisos');
  other = await createTenant(server, 'Outra Avisos');
  agent = await createMember(server, shop, 'atendente');
});
afterAll(async () => {
  await server?.close();
});
// Each test starts from none, whatever an earlier one left behind.
beforeEach(async () => {
  await Announcement.query(server.atende.container.db).delete();
});

describe('writing announcements (super users)', () => {
  it('creates with the spec defaults (priority 3, active), updates and deletes', async () => {
    const created = await create({ title: '  Manutenção  ', text: 'Sábado às 22h' });
    expect(created).toMatchObject({ title: 'Manutenção', text: 'Sábado às 22h', priority: 3, status: true, mediaPath: null, mediaName: null, mediaUrl: null });
    expect(await Announcement.query(server.atende.container.db).findById(created.id)).toMatchObject({ companyId: superCompanyId, status: true });

    const shown = await server.call('GET', `/api/announcements/${created.id}`, { token: superToken });
    expect(shown.body).toEqual(created);

    const updated = await server.call('PUT', `/api/announcements/${created.id}`, { token: superToken, body: { priority: 1, status: false, unknown: 'x' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, title: 'Manutenção', priority: 1, status: false });
    expect(updated.body).not.toHaveProperty('unknown');

    await remove(created.id);
    for (const [method, path] of [
      ['GET', `/api/announcements/${created.id}`],
      ['PUT', `/api/announcements/${created.id}`],
      ['DELETE', `/api/announcements/${created.id}`],
      ['POST', `/api/announcements/${created.id}/read`],
      ['DELETE', `/api/announcements/abc`],
    ] as const) {
      const res = await server.call(method, path, { token: superToken, body: method === 'PUT' ? { title: 'x' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_ANNOUNCEMENT_FOUND');
    }
  });

  it("answers each field the spec's message", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ text: 'Texto' }, 'title: Obrigatório'],
      [{ title: '   ', text: 'Texto' }, 'title: Obrigatório'],
      [{ title: 'Título' }, 'text: Obrigatório'],
      [{ title: 'Título', text: '' }, 'text: Obrigatório'],
      [{ title: 'Título', text: 'Texto', priority: 4 }, 'priority: Must be 1 (high), 2 (medium) or 3 (low)'],
      [{ title: 'Título', text: 'Texto', priority: 0 }, 'priority: Must be 1 (high), 2 (medium) or 3 (low)'],
    ];
    for (const [body, message] of cases) {
      const res = await server.call('POST', '/api/announcements', { token: superToken, body });
      expect(res.status, message).toBe(400);
      expect(res.body, message).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
    const both = await server.call('POST', '/api/announcements', { token: superToken, body: {} });
    expect(both.body.details.issues).toEqual([
      { path: 'title', message: 'Obrigatório' },
      { path: 'text', message: 'Obrigatório' },
    ]);
    const created = await create({ title: 'Título', text: 'Texto' });
    const blank = await server.call('PUT', `/api/announcements/${created.id}`, { token: superToken, body: { text: ' ' } });
    expect(blank.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'text: Obrigatório' });
    await remove(created.id);
  });

  it('refuses every write and the full list to users who are not super (403), admins included; no token is 401', async () => {
    const created = await create({ title: 'Só super', text: 'Texto' });
    for (const token of [shop.admin.token, agent.token]) {
      const calls: [string, string, unknown][] = [
        ['GET', '/api/announcements', undefined],
        ['GET', `/api/announcements/${created.id}`, undefined],
        ['POST', '/api/announcements', { title: 'Intruso', text: 'Texto' }],
        ['PUT', `/api/announcements/${created.id}`, { title: 'Intruso' }],
        ['DELETE', `/api/announcements/${created.id}`, undefined],
        ['DELETE', `/api/announcements/${created.id}/media-upload`, undefined],
      ];
      for (const [method, path, body] of calls) {
        const res = await server.call(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      }
      expect((await upload(token, created.id, 'a.png', PNG)).status).toBe(403);
    }
    expect((await server.call('GET', '/api/announcements/active')).status).toBe(401);
    expect((await server.call('GET', '/api/announcements')).status).toBe(401);
    expect(await Announcement.query(server.atende.container.db).findById(created.id)).toMatchObject({ title: 'Só super', mediaPath: null });
    await remove(created.id);
  });
});

describe('the image', () => {
  it('takes png and jpeg by their content, refuses a text file named .png and other types (400), replaces and removes it', async () => {
    const created = await create({ title: 'Com imagem', text: 'Veja a imagem' });

    const fake = await upload(superToken, created.id, 'falsa.png', 'just some text, not an image');
    expect(fake.status).toBe(400);
    expect(fake.body).toMatchObject({ error: 'ERR_ANNOUNCEMENT_NOT_AN_IMAGE', message: 'The image must be a PNG or JPEG file (png, jpg, jpeg)' });
    // A JPEG's bytes under a .png name are not a PNG either; a GIF or a PDF is not taken at all.
    for (const [name, data] of [
      ['troca.png', JPEG],
      ['anim.gif', Buffer.from('GIF89a....')],
      ['doc.pdf', Buffer.from('%PDF-1.4')],
      ['sem-extensao', PNG],
    ] as const) {
      const res = await upload(superToken, created.id, name, data);
      expect(res.status, name).toBe(400);
      expect(res.body.error, name).toBe('ERR_ANNOUNCEMENT_NOT_AN_IMAGE');
    }
    const huge = await upload(superToken, created.id, 'enorme.png', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]));
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: 'ERR_MEDIA_TOO_LARGE', message: 'Files may have at most 5 MB' });
    expect(await companyMediaFiles(server, superCompanyId)).toEqual([]);

    const png = await upload(superToken, created.id, 'aviso.png', PNG);
    expect(png.status, JSON.stringify(png.body)).toBe(200);
    expect(png.body).toMatchObject({ id: created.id, mediaName: 'aviso.png' });
    expect(png.body.mediaPath).toMatch(/aviso\.png$/);
    expect(png.body.mediaUrl).toBe(`/api/announcements/media/${png.body.mediaPath}`);
    expect(await storedBytes(server, superCompanyId, png.body.mediaPath)).toEqual(PNG);
    // Any signed-in user of any company fetches it with their token.
    for (const token of [agent.token, other.admin.token, superToken]) {
      const image = await fetchImage(token, png.body.mediaUrl);
      expect(image.status).toBe(200);
      expect(image.type).toBe('image/png');
      expect(image.bytes).toEqual(PNG);
    }
    expect((await fetch(server.url + png.body.mediaUrl)).status).toBe(401);
    // The core's /api/media would not serve it to another company.
    expect((await fetchImage(agent.token, `/api/media/${png.body.mediaPath}`)).status).toBe(404);

    const jpeg = await upload(superToken, created.id, 'Foto Nova.JPEG', JPEG);
    expect(jpeg.status).toBe(200);
    expect(jpeg.body.mediaName).toBe('Foto Nova.JPEG');
    expect(await companyMediaFiles(server, superCompanyId)).toEqual([jpeg.body.mediaPath]);
    expect((await fetchImage(agent.token, png.body.mediaUrl)).status).toBe(404);
    const jpg = await upload(superToken, created.id, 'foto.jpg', JPEG);
    expect(jpg.status).toBe(200);
    expect((await fetchImage(agent.token, jpg.body.mediaUrl)).type).toBe('image/jpeg');

    // Inactive, its image is the super users' only.
    await server.call('PUT', `/api/announcements/${created.id}`, { token: superToken, body: { status: false } });
    expect((await fetchImage(agent.token, jpg.body.mediaUrl)).status).toBe(404);
    expect((await fetchImage(superToken, jpg.body.mediaUrl)).status).toBe(200);

    const removed = await server.call('DELETE', `/api/announcements/${created.id}/media-upload`, { token: superToken });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
    expect(await companyMediaFiles(server, superCompanyId)).toEqual([]);

    await upload(superToken, created.id, 'ultima.png', PNG);
    await remove(created.id);
    expect(await companyMediaFiles(server, superCompanyId)).toEqual([]);
  });
});

describe('the super users list', () => {
  it('pages 20 at a time by priority then newest, and searches title and text', async () => {
    const made: Body[] = [];
    for (let i = 1; i <= 23; i++) made.push(await create({ title: `Lote ${String(i).padStart(2, '0')}`, text: i % 2 ? 'Número Impar' : 'Número Par', priority: (i % 3) + 1 }));
    const expected = [...made].sort((a, b) => a.priority - b.priority || b.id - a.id).map((a) => a.id);

    const first = await server.call('GET', '/api/announcements/?searchParam=lote&pageNumber=1', { token: superToken });
    expect(first.status).toBe(200);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.count).toBe(23);
    const second = await server.call('GET', '/api/announcements?searchParam=LOTE&pageNumber=2', { token: superToken });
    expect(second.body.hasMore).toBe(false);
    expect([...first.body.records, ...second.body.records].map((a: Body) => a.id)).toEqual(expected);

    const byText = await server.call('GET', '/api/announcements?searchParam=impar', { token: superToken });
    expect(byText.body.records).toHaveLength(12);
    const byTitle = await server.call('GET', '/api/announcements?searchParam=lote%2007', { token: superToken });
    expect(byTitle.body.records.map((a: Body) => a.title)).toEqual(['Lote 07']);
    const wildcard = await server.call('GET', '/api/announcements?searchParam=%25', { token: superToken });
    expect(wildcard.body).toMatchObject({ records: [], hasMore: false });

    for (const a of made) await remove(a.id);
  });
});

describe('what every user sees', () => {
  it('lists the active ones by priority then newest, with a read state of their own that stays', async () => {
    const low = await create({ title: 'Baixa antiga', text: 'Texto' });
    const high = await create({ title: 'Alta', text: 'Texto', priority: 1 });
    const lowNewer = await create({ title: 'Baixa nova', text: 'Texto', priority: 3 });
    const medium = await create({ title: 'Média', text: 'Texto', priority: 2 });
    const hidden = await create({ title: 'Inativa', text: 'Texto', status: false });
    const colleague = await createMember(server, shop, 'colega');

    const seen = await active(agent.token);
    expect(seen.announcements.map((a) => a.id)).toEqual([high.id, medium.id, lowNewer.id, low.id]);
    expect(seen.unread).toBe(4);
    expect(seen.announcements[0]).toEqual({
      id: high.id,
      title: 'Alta',
      text: 'Texto',
      priority: 1,
      mediaName: null,
      mediaUrl: null,
      createdAt: high.createdAt,
      updatedAt: high.updatedAt,
      read: false,
    });

    // Read twice: the same single mark.
    for (let i = 0; i < 2; i++) expect((await server.call('POST', `/api/announcements/${medium.id}/read`, { token: agent.token })).status).toBe(204);
    const after = await active(agent.token);
    expect(after.unread).toBe(3);
    expect(after.announcements.find((a) => a.id === medium.id)?.read).toBe(true);
    // Another user of the same company, or of another, has not read it.
    for (const token of [colleague.token, other.admin.token]) {
      expect((await active(token)).announcements.every((a) => !a.read)).toBe(true);
    }
    // An edit keeps it read; made inactive and back, it is still read.
    await server.call('PUT', `/api/announcements/${medium.id}`, { token: superToken, body: { text: 'Texto revisto', status: false } });
    expect((await active(agent.token)).announcements.map((a) => a.id)).not.toContain(medium.id);
    expect((await server.call('POST', `/api/announcements/${medium.id}/read`, { token: colleague.token })).status).toBe(404);
    await server.call('PUT', `/api/announcements/${medium.id}`, { token: superToken, body: { status: true } });
    expect((await active(agent.token)).announcements.find((a) => a.id === medium.id)).toMatchObject({ text: 'Texto revisto', read: true });
    expect((await server.call('POST', `/api/announcements/${hidden.id}/read`, { token: agent.token })).status).toBe(404);

    for (const a of [low, high, lowNewer, medium, hidden]) await remove(a.id);
    expect((await active(agent.token)).announcements).toEqual([]);
  });
});

describe('live channel company-announcement', () => {
  let sockets: TestSocket[] = [];
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
  });

  const on = (socket: TestSocket, match: (data: Body) => boolean) => socket.next((f) => f.channel === 'company-announcement' && match(f.data as Body));

  it('reaches the users of every company who joined: the active ones to them, every change to super users', async () => {
    const [superSocket, shopSocket, otherSocket, silent] = (sockets = await Promise.all(
      [superToken, agent.token, other.admin.token, shop.admin.token].map((token) => openSocket(server.url, token)),
    ));
    for (const socket of [superSocket!, shopSocket!, otherSocket!]) {
      socket.send('joinAnnouncements');
      await socket.next((f) => f.type === 'joined');
    }

    const created = await create({ title: 'Ao vivo', text: 'Para todos', priority: 2 });
    for (const socket of [shopSocket!, otherSocket!]) {
      const frame = await on(socket, (d) => d.action === 'create' && d.announcement.id === created.id);
      expect(frame.data).toEqual({ action: 'create', announcement: { ...(await active(agent.token)).announcements[0], read: undefined } });
      expect((frame.data as Body).announcement).not.toHaveProperty('status');
    }
    expect((await on(superSocket!, (d) => d.action === 'create' && d.announcement.id === created.id)).data).toEqual({ action: 'create', announcement: created });

    // Made inactive: super users see the change, the others see it go.
    await server.call('PUT', `/api/announcements/${created.id}`, { token: superToken, body: { status: false, title: 'Rascunho' } });
    await on(superSocket!, (d) => d.action === 'update' && d.announcement.status === false && d.announcement.title === 'Rascunho');
    for (const socket of [shopSocket!, otherSocket!]) await on(socket, (d) => d.action === 'delete' && d.announcementId === created.id);
    await quietFor();
    for (const socket of [shopSocket!, otherSocket!]) {
      expect(socket.frames.some((f) => JSON.stringify(f).includes('Rascunho'))).toBe(false);
    }

    await remove(created.id);
    await on(superSocket!, (d) => d.action === 'delete' && d.announcementId === created.id);
    // A socket that did not join hears nothing of it.
    expect(silent!.frames.some((f) => f.channel === 'company-announcement')).toBe(false);
  });
});
