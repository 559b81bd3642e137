import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { youtubeCode } from '../../core/modules/helps/helps.schema.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

let server: TestServer;
let superToken: string;
/** The admin of a tenant company: an admin, but not super. */
let tenantToken: string;

const CODE = 'dQw4w9WgXcQ';

async function createHelp(body: Record<string, unknown>) {
  const res = await server.call('POST', '/api/helps', { token: superToken, body });
  expect(res.status).toBe(201);
  return res.body;
}

/** A websocket of a signed-in user that keeps every channel frame it hears. */
async function openSocket(token: string) {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws?token=${token}`);
  const frames: { channel: string; data: any }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  ws.on('message', (raw) => {
    const frame = JSON.parse(String(raw));
    if (frame.channel) frames.push(frame);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    frames,
    waitFor: (match: (data: any) => boolean) => // eslint-disable-line @typescript-eslint/no-explicit-any
      vi.waitFor(() => {
        const frame = frames.find((f) => f.channel === 'helps' && match(f.data));
        if (!frame) throw new Error('no helps frame yet');
        return frame.data;
      }),
    close: () => ws.close(),
  };
}

beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
  const planId = (await server.call('GET', '/api/plans/list')).body[0].id;
  const tenant = { name: 'Loja Ajuda', email: 'ajuda@tenant.test', password: 'tenant-pass', planId };
  const created = await server.call('POST', '/api/companies', { token: superToken, body: tenant });
  expect(created.status).toBe(201);
  tenantToken = (await server.login(tenant.email, tenant.password)).token;
});
afterAll(async () => {
  await server?.close();
});

describe('reading helps', () => {
  it('GET /api/helps and /api/helps/list answer every help, ordered by id, to any signed-in user', async () => {
    const first = await createHelp({ title: 'Primeiros passos', video: CODE, description: 'Como começar' });
    const second = await createHelp({ title: 'Conexões', video: 'https://youtu.be/9bZkp7q19f0' });
    for (const path of ['/api/helps', '/api/helps/list']) {
      const res = await server.call('GET', path, { token: tenantToken });
      expect(res.status, path).toBe(200);
      const ids = res.body.map((h: { id: number }) => h.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(res.body.find((h: { id: number }) => h.id === first.id)).toMatchObject({
        title: 'Primeiros passos',
        description: 'Como começar',
        video: CODE,
        link: '',
      });
      expect(res.body.find((h: { id: number }) => h.id === second.id)).toMatchObject({ video: '9bZkp7q19f0', description: '' });
    }
  });

  it('a signed-out caller gets 401', async () => {
    const res = await server.call('GET', '/api/helps');
    expect(res.status).toBe(401);
  });
});

describe('writing helps (super users)', () => {
  it('POST creates a help and answers it with 201', async () => {
    const res = await server.call('POST', '/api/helps', {
      token: superToken,
      body: { title: '  Filas  ', video: CODE, description: 'Filas e chatbot', link: 'https://atende.example/filas', extra: 'dropped' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      title: 'Filas',
      video: CODE,
      description: 'Filas e chatbot',
      link: 'https://atende.example/filas',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body).not.toHaveProperty('extra');
  });

  it('null description and link are stored empty', async () => {
    const help = await createHelp({ title: 'Sem extras', video: CODE, description: null, link: null });
    expect(help).toMatchObject({ description: '', link: '' });
  });

  it('a full YouTube address is stored as its video code', async () => {
    const addresses = [
      `https://www.youtube.com/watch?v=${CODE}&t=42s`,
      `youtube.com/watch?v=${CODE}`,
      `https://youtu.be/${CODE}?si=abc`,
      `https://www.youtube.com/embed/${CODE}`,
      `https://m.youtube.com/shorts/${CODE}`,
    ];
    for (const video of addresses) {
      const help = await createHelp({ title: 'Endereço', video });
      expect(help.video, video).toBe(CODE);
    }
  });

  it('PUT changes only the fields sent', async () => {
    const help = await createHelp({ title: 'Antes', video: CODE, description: 'Mantida' });
    const res = await server.call('PUT', `/api/helps/${help.id}`, {
      token: superToken,
      body: { title: 'Depois', video: 'https://www.youtube.com/watch?v=9bZkp7q19f0' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: help.id, title: 'Depois', video: '9bZkp7q19f0', description: 'Mantida' });
    const list = await server.call('GET', '/api/helps', { token: superToken });
    expect(list.body.find((h: { id: number }) => h.id === help.id).title).toBe('Depois');
  });

  it('DELETE answers 204 and the help is gone', async () => {
    const help = await createHelp({ title: 'Apagar', video: CODE });
    const res = await server.call('DELETE', `/api/helps/${help.id}`, { token: superToken });
    expect(res.status).toBe(204);
    const list = await server.call('GET', '/api/helps', { token: superToken });
    expect(list.body.some((h: { id: number }) => h.id === help.id)).toBe(false);
  });

  it('every write is published on the helps channel to every company', async () => {
    const tenantSocket = await openSocket(tenantToken);
    try {
      const help = await createHelp({ title: 'Ao vivo', video: CODE });
      expect((await tenantSocket.waitFor((d) => d.action === 'create' && d.help.id === help.id)).help.title).toBe('Ao vivo');
      await server.call('PUT', `/api/helps/${help.id}`, { token: superToken, body: { title: 'Ao vivo 2' } });
      expect((await tenantSocket.waitFor((d) => d.action === 'update' && d.help.id === help.id)).help.title).toBe('Ao vivo 2');
      await server.call('DELETE', `/api/helps/${help.id}`, { token: superToken });
      await tenantSocket.waitFor((d) => d.action === 'delete' && d.helpId === help.id);
    } finally {
      tenantSocket.close();
    }
  });
});

describe('help validation', () => {
  it('title is required (1-255), video must be a YouTube code or address, link an http(s) address', async () => {
    const valid = { title: 'Válida', video: CODE };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, title: undefined }, 'title'],
      [{ ...valid, title: '   ' }, 'title'],
      [{ ...valid, title: 'x'.repeat(256) }, 'title'],
      [{ ...valid, video: undefined }, 'video'],
      [{ ...valid, video: 'abc' }, 'video'],
      [{ ...valid, video: 'https://vimeo.com/123456789' }, 'video'],
      [{ ...valid, video: 'https://www.youtube.com/watch?v=short' }, 'video'],
      [{ ...valid, link: 'not a url' }, 'link'],
      [{ ...valid, link: 'javascript:alert(1)' }, 'link'],
      [{ ...valid, description: 42 }, 'description'],
    ];
    for (const [body, field] of cases) {
      const res = await server.call('POST', '/api/helps', { token: superToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.message).toMatch(new RegExp(`^${field}:`));
    }
    const list = await server.call('GET', '/api/helps', { token: superToken });
    expect(list.body.some((h: { title: string }) => h.title === 'Válida')).toBe(false);
  });

  it('PUT validates the fields it gets', async () => {
    const help = await createHelp({ title: 'Editar', video: CODE });
    const res = await server.call('PUT', `/api/helps/${help.id}`, { token: superToken, body: { video: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^video:/);
  });

  it('youtubeCode reads codes and addresses and refuses the rest', () => {
    expect(youtubeCode(CODE)).toBe(CODE);
    expect(youtubeCode(`https://youtube-nocookie.com/embed/${CODE}`)).toBe(CODE);
    expect(youtubeCode(`https://www.youtube.com/live/${CODE}?feature=share`)).toBe(CODE);
    expect(youtubeCode('https://www.youtube.com/watch')).toBeUndefined();
    expect(youtubeCode(`https://evil.example/watch?v=${CODE}`)).toBeUndefined();
    expect(youtubeCode('')).toBeUndefined();
  });
});

describe('permissions and missing helps', () => {
  it('a user without the super flag gets 403 ERR_NO_PERMISSION on every write', async () => {
    const help = await createHelp({ title: 'Protegida', video: CODE });
    const writes: [string, string, unknown][] = [
      ['POST', '/api/helps', { title: 'Intrusa', video: CODE }],
      ['PUT', `/api/helps/${help.id}`, { title: 'Intrusa' }],
      ['DELETE', `/api/helps/${help.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await server.call(method, path, { token: tenantToken, body });
      expect(res.status, method).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    const list = await server.call('GET', '/api/helps', { token: tenantToken });
    expect(list.body.find((h: { id: number }) => h.id === help.id).title).toBe('Protegida');
  });

  it('an unknown id answers 404 ERR_NO_HELP_FOUND', async () => {
    for (const [method, path, body] of [
      ['PUT', '/api/helps/999999', { title: 'Nada' }],
      ['DELETE', '/api/helps/999999', undefined],
      ['PUT', '/api/helps/abc', { title: 'Nada' }],
      ['DELETE', '/api/helps/0', undefined],
    ] as const) {
      const res = await server.call(method, path, { token: superToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_HELP_FOUND');
    }
  });
});
