import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const PASSWORD = 'secret-123';
let a: { companyId: number; token: string };
let b: { companyId: number; token: string };

async function tenant(name: string) {
  const email = `admin@${name.toLowerCase().replace(/\W/g, '')}.test`;
  const { company } = await server.atende.container.services.companies.createTenant({ name, email, password: PASSWORD });
  return { companyId: company.id, token: (await server.login(email, PASSWORD)).token };
}

const get = (route: string, token?: string) => fetch(server.url + route, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant('Loja Midia');
  b = await tenant('Outra Midia');
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/media/:file', () => {
  it('serves a stored file of the own company with its content type; pictures inline, documents as attachments', async () => {
    const { media } = server.atende.container;
    const picture = await media.save(a.companyId, 'foto.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const sheet = await media.save(a.companyId, 'planilha.xlsx', Buffer.from('PK'));

    const png = await get(`/api/media/${picture}`, a.token);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toBeNull();
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));

    const xlsx = await get(`/api/media/${sheet}`, a.token);
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers.get('content-disposition')).toContain('attachment');
  });

  it("another company's file, an unknown file and a name that is a path all answer 404", async () => {
    const theirs = await server.atende.container.media.save(b.companyId, 'contrato.pdf', Buffer.from('%PDF'));
    for (const route of [
      `/api/media/${theirs}`,
      `/api/media/nada.pdf`,
      `/api/media/..%2F${b.companyId}%2F${theirs}`,
      `/api/media/%2E%2E%2F%2E%2E%2Fatende.sqlite`,
      `/api/media/.hidden`,
    ]) {
      const res = await get(route, a.token);
      expect(res.status, route).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe('ERR_NO_MEDIA_FOUND');
    }
    expect((await get(`/api/media/${theirs}`, b.token)).status).toBe(200);
  });

  it('a signed-out caller gets 401', async () => {
    const file = await server.atende.container.media.save(a.companyId, 'x.png', Buffer.from('x'));
    expect((await get(`/api/media/${file}`)).status).toBe(401);
  });
});
