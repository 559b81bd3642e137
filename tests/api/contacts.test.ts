import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor } from '../helpers/socket.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Tenant {
  companyId: number;
  adminToken: string;
  userToken: string;
}

/** A company with its admin and one agent signed in. */
async function tenant(name: string): Promise<Tenant> {
  const slug = name.toLowerCase().replace(/\W/g, '');
  const { company } = await server.atende.container.services.companies.createTenant({ name, email: `admin@${slug}.test`, password: PASSWORD });
  const adminToken = (await server.login(`admin@${slug}.test`, PASSWORD)).token;
  const agent = await server.call('POST', '/api/users', {
    token: adminToken,
    body: { name: 'Agent', email: `agent@${slug}.test`, password: PASSWORD, profile: 'user' },
  });
  if (agent.status !== 201) throw new Error(`agent: ${agent.status}`);
  const userToken = (await server.login(`agent@${slug}.test`, PASSWORD)).token;
  return { companyId: company.id, adminToken, userToken };
}

async function createContact(token: string, body: Record<string, unknown>) {
  const res = await server.call('POST', '/api/contacts', { token, body });
  if (res.status !== 201) throw new Error(`create contact: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name: string; number: string };
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/contacts', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant('Create Contacts');
  });

  it('creates a contact with the number stripped of its formatting, a uuid and its extra info, live', async () => {
    const socket = await openSocket(server.url, t.userToken);
    const res = await server.call('POST', '/api/contacts', {
      token: t.userToken,
      body: {
        name: ' Ana Souza ',
        number: '+55 (11) 98765-4321',
        email: ' Ana@Example.COM ',
        extraInfo: [{ name: 'CPF', value: '123' }, { name: 'Cidade', value: 'Recife' }],
        companyId: 999,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      companyId: t.companyId,
      name: 'Ana Souza',
      number: '5511987654321',
      email: 'ana@example.com',
      profilePicUrl: '',
      isGroup: false,
      whatsappId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      extraInfo: [
        { id: expect.any(Number), name: 'CPF', value: '123' },
        { id: expect.any(Number), name: 'Cidade', value: 'Recife' },
      ],
      whatsapp: null,
    });
    const frame = await socket.next((f) => f.channel === `company-${t.companyId}-contact`);
    expect(frame.data).toEqual({ action: 'create', contact: expect.objectContaining({ id: res.body.id, name: 'Ana Souza', number: '5511987654321' }) });
    await socket.close();
    const shown = await server.call('GET', `/api/contacts/${res.body.id}`, { token: t.adminToken });
    expect(shown.body).toEqual(res.body);
  });

  it.each([
    [{ number: '5511999990000' }, 'name: Required'],
    [{ name: 'A', number: '5511999990000' }, 'name: Too Short!'],
    [{ name: 'x'.repeat(51), number: '5511999990000' }, 'name: Too Long!'],
    [{ name: 'Bruno' }, 'number: Required'],
    [{ name: 'Bruno', number: '1234-567' }, 'number: Too Short!'],
    [{ name: 'Bruno', number: '1'.repeat(51) }, 'number: Too Long!'],
    [{ name: 'Bruno', number: '55119abc99999' }, 'number: Only digits'],
    [{ name: 'Bruno', number: '5511999990000', email: 'bruno@' }, 'email: Invalid email'],
  ])('refuses %j with "%s" and writes nothing', async (body, message) => {
    const res = await server.call('POST', '/api/contacts', { token: t.adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
    expect(await Contact.query(server.atende.container.db).where('companyId', t.companyId).where('name', 'like', 'Bruno%').resultSize()).toBe(0);
  });

  it('accepts an empty e-mail and no extra info', async () => {
    const res = await server.call('POST', '/api/contacts', { token: t.adminToken, body: { name: 'Sem Email', number: '5511900000001', email: '' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: '', extraInfo: [] });
  });

  it('a number is unique in the company (409 ERR_DUPLICATED_CONTACT), however it is written; another company may have it', async () => {
    await createContact(t.adminToken, { name: 'Carla', number: '5511900000002' });
    const again = await server.call('POST', '/api/contacts', { token: t.userToken, body: { name: 'Carla 2', number: '55 11 90000-0002' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_DUPLICATED_CONTACT');
    const other = await tenant('Other Number Co');
    expect((await server.call('POST', '/api/contacts', { token: other.adminToken, body: { name: 'Carla', number: '5511900000002' } })).status).toBe(201);
  });

  it('needs a session', async () => {
    expect((await server.call('POST', '/api/contacts', { body: { name: 'Nobody', number: '5511900000003' } })).status).toBe(401);
    expect((await server.call('GET', '/api/contacts')).status).toBe(401);
  });
});

describe('numbers checked through WhatsApp', () => {
  let t: Tenant;
  let connectionId: number;
  beforeAll(async () => {
    t = await tenant('Checked Numbers');
    const res = await server.call('POST', '/api/whatsapp', { token: t.adminToken, body: { name: 'Main', provider: 'simulator' } });
    connectionId = res.body.id;
  });

  it('with no session connected, the number is stored after the format check, in its canonical form', async () => {
    // A Brazilian mobile written without its ninth digit gets it back; a landline stays as it is.
    const contact = await createContact(t.adminToken, { name: 'Offline Added', number: '551187654321' });
    expect(contact.number).toBe('5511987654321');
    const landline = await createContact(t.adminToken, { name: 'Offline Landline', number: '551133334444' });
    expect(landline.number).toBe('551133334444');
  });

  it('with the session connected, the canonical number WhatsApp answers is stored', async () => {
    const socket = await openSocket(server.url, t.adminToken);
    await server.call('POST', `/api/simulator/${connectionId}/scan`, { token: t.adminToken });
    await socket.next((f) => f.channel === `company-${t.companyId}-whatsappSession` && (f.data as { session: { status: string } }).session.status === 'CONNECTED');
    await socket.close();
    // The simulator writes Brazilian mobiles with the ninth digit, as WhatsApp does.
    const contact = await createContact(t.adminToken, { name: 'Online Added', number: '55 21 8765-4321' });
    expect(contact.number).toBe('5521987654321');
  });

  it('a number WhatsApp does not know is 400 ERR_WAPP_INVALID_CONTACT', async () => {
    const res = await server.call('POST', '/api/contacts', { token: t.adminToken, body: { name: 'Nope', number: '1234567890123456' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
  });

  it('a check that fails is 400 ERR_WAPP_CHECK_CONTACT', async () => {
    const driver = server.atende.container.sessions.driverFor(connectionId);
    const spy = vi.spyOn(driver, 'checkNumber').mockRejectedValueOnce(new Error('socket closed'));
    const res = await server.call('POST', '/api/contacts', { token: t.adminToken, body: { name: 'Failing', number: '5531999990000' } });
    spy.mockRestore();
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_CHECK_CONTACT');
    expect(await Contact.query(server.atende.container.db).where({ companyId: t.companyId, name: 'Failing' }).resultSize()).toBe(0);
  });

  it('an edit checks a new number, and keeps an unchanged one as stored', async () => {
    const offline = await Contact.query(server.atende.container.db).findOne({ companyId: t.companyId, name: 'Offline Added' });
    const same = await server.call('PUT', `/api/contacts/${offline!.id}`, { token: t.adminToken, body: { name: 'Offline Kept', number: '5511987654321' } });
    expect(same.body).toMatchObject({ name: 'Offline Kept', number: '5511987654321' });
    const changed = await server.call('PUT', `/api/contacts/${offline!.id}`, { token: t.adminToken, body: { number: '551187651234' } });
    expect(changed.body.number).toBe('5511987651234');
    const invalid = await server.call('PUT', `/api/contacts/${offline!.id}`, { token: t.adminToken, body: { number: '9'.repeat(20) } });
    expect(invalid.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
  });
});

describe('PUT /api/contacts/:id', () => {
  let t: Tenant;
  let id: number;
  beforeAll(async () => {
    t = await tenant('Edit Contacts');
    id = (await createContact(t.adminToken, { name: 'Diego', number: '5511911110000', extraInfo: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] })).id;
  });

  it('an agent edits name, number and e-mail; the company sees it live', async () => {
    const socket = await openSocket(server.url, t.adminToken);
    const res = await server.call('PUT', `/api/contacts/${id}`, { token: t.userToken, body: { name: 'Diego Lima', number: '+55 (11) 91111-0001', email: 'diego@x.co' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'Diego Lima', number: '5511911110001', email: 'diego@x.co' });
    const frame = await socket.next((f) => f.channel === `company-${t.companyId}-contact`);
    expect(frame.data).toEqual({ action: 'update', contact: expect.objectContaining({ id, name: 'Diego Lima' }) });
    await socket.close();
  });

  it('extraInfo sent replaces every stored field; absent keeps them; [] clears them', async () => {
    const kept = await server.call('PUT', `/api/contacts/${id}`, { token: t.adminToken, body: { name: 'Diego Lima' } });
    expect(kept.body.extraInfo.map((f: { name: string }) => f.name)).toEqual(['A', 'B']);
    const replaced = await server.call('PUT', `/api/contacts/${id}`, { token: t.adminToken, body: { extraInfo: [{ name: 'C', value: '3' }] } });
    expect(replaced.body.extraInfo).toEqual([{ id: expect.any(Number), name: 'C', value: '3' }]);
    const rows = await server.atende.container.db('contactCustomFields').where('contactId', id);
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['C']);
    const cleared = await server.call('PUT', `/api/contacts/${id}`, { token: t.adminToken, body: { extraInfo: [] } });
    expect(cleared.body.extraInfo).toEqual([]);
  });

  it('a bad extra field leaves the contact and its fields as they were (one transaction)', async () => {
    await server.call('PUT', `/api/contacts/${id}`, { token: t.adminToken, body: { extraInfo: [{ name: 'Keep', value: 'me' }] } });
    const other = await createContact(t.adminToken, { name: 'Elisa', number: '5511911110002' });
    const clash = await server.call('PUT', `/api/contacts/${id}`, { token: t.adminToken, body: { number: other.number, extraInfo: [] } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('ERR_DUPLICATED_CONTACT');
    const invalid = await server.call('PUT', `/api/contacts/${id}`, { token: t.adminToken, body: { name: 'Z', extraInfo: [] } });
    expect(invalid.body.message).toBe('name: Too Short!');
    const shown = await server.call('GET', `/api/contacts/${id}`, { token: t.adminToken });
    expect(shown.body).toMatchObject({ name: 'Diego Lima', number: '5511911110001', extraInfo: [{ name: 'Keep', value: 'me' }] });
  });
});

describe('DELETE /api/contacts/:id (contacts-page:deleteContact)', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant('Delete Contacts');
  });

  it('an agent may not delete (403); an admin deletes, live, and the contact is gone', async () => {
    const { id } = await createContact(t.userToken, { name: 'Fábio', number: '5511922220000', extraInfo: [{ name: 'x', value: 'y' }] });
    const denied = await server.call('DELETE', `/api/contacts/${id}`, { token: t.userToken });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
    const socket = await openSocket(server.url, t.userToken);
    expect((await server.call('DELETE', `/api/contacts/${id}`, { token: t.adminToken })).status).toBe(204);
    const frame = await socket.next((f) => f.channel === `company-${t.companyId}-contact`);
    expect(frame.data).toEqual({ action: 'delete', contactId: id });
    await socket.close();
    const gone = await server.call('GET', `/api/contacts/${id}`, { token: t.adminToken });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await server.atende.container.db('contactCustomFields').where('contactId', id)).length).toBe(0);
  });
});

describe('tenancy', () => {
  let a: Tenant;
  let b: Tenant;
  let theirs: number;
  beforeAll(async () => {
    a = await tenant('Tenancy A');
    b = await tenant('Tenancy B');
    theirs = (await createContact(b.adminToken, { name: 'Segredo', number: '5511933330000', email: 'segredo@b.co' })).id;
  });

  it.each([
    ['GET', undefined],
    ['PUT', { name: 'Hacked' }],
    ['DELETE', undefined],
  ])("%s of another company's contact is 404 ERR_NO_CONTACT_FOUND and changes nothing", async (method, body) => {
    const res = await server.call(method, `/api/contacts/${theirs}`, { token: a.adminToken, body });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NO_CONTACT_FOUND', message: expect.any(String) });
    const row = await Contact.query(server.atende.container.db).findById(theirs);
    expect(row?.name).toBe('Segredo');
  });

  it('an id that is not a number is 404 too', async () => {
    expect((await server.call('GET', '/api/contacts/abc', { token: a.adminToken })).body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it("lists, the picker list and the export never show another company's contacts; another company's list is for super users", async () => {
    const socket = await openSocket(server.url, a.adminToken);
    await createContact(b.adminToken, { name: 'Segredo 2', number: '5511933330001' });
    await quietFor();
    expect(socket.frames.filter((f) => String(f.channel).includes('contact'))).toEqual([]);
    await socket.close();
    expect((await server.call('GET', '/api/contacts?searchParam=segredo', { token: a.adminToken })).body).toEqual({ contacts: [], count: 0, hasMore: false });
    expect((await server.call('GET', '/api/contacts/list', { token: a.adminToken })).body).toEqual({ contacts: [] });
    const exported = await server.call('GET', '/api/contacts/export', { token: a.adminToken });
    expect(exported.body).not.toContain('Segredo');
    const foreign = await server.call('GET', `/api/contacts/list?companyId=${b.companyId}`, { token: a.adminToken });
    expect(foreign.status).toBe(403);
  });
});

describe('GET /api/contacts', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant('List Contacts');
    const names = Array.from({ length: 23 }, (_, i) => `Cliente ${String(i + 1).padStart(2, '0')}`);
    for (const [i, name] of names.entries()) {
      await createContact(t.adminToken, { name, number: `55119444400${String(i).padStart(2, '0')}`, email: `cliente${i + 1}@loja.com` });
    }
    await createContact(t.adminToken, { name: 'Amanda Rocha', number: '5581988887777', email: 'amanda@rocha.dev' });
  });

  it('pages 20 contacts by name with the count and whether more exist', async () => {
    const first = await server.call('GET', '/api/contacts', { token: t.userToken });
    expect(first.body.count).toBe(24);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.contacts).toHaveLength(20);
    expect(first.body.contacts[0].name).toBe('Amanda Rocha');
    expect(first.body.contacts[19].name).toBe('Cliente 19');
    const second = await server.call('GET', '/api/contacts?pageNumber=2', { token: t.userToken });
    expect(second.body.contacts.map((c: { name: string }) => c.name)).toEqual(['Cliente 20', 'Cliente 21', 'Cliente 22', 'Cliente 23']);
    expect(second.body).toMatchObject({ count: 24, hasMore: false });
  });

  it.each([
    ['AMANDA', ['Amanda Rocha']],
    ['rocha.dev', ['Amanda Rocha']],
    ['8888', ['Amanda Rocha']],
    ['(81) 98888', ['Amanda Rocha']],
    ['cliente2', ['Cliente 02', 'Cliente 20', 'Cliente 21', 'Cliente 22', 'Cliente 23']],
    ['100%', []],
  ])('searches name, number and e-mail, lowercased: %s', async (term, names) => {
    const res = await server.call('GET', `/api/contacts?searchParam=${encodeURIComponent(term)}`, { token: t.userToken });
    expect(res.body.contacts.map((c: { name: string }) => c.name)).toEqual(names);
    expect(res.body.count).toBe(names.length);
  });

  it("filters by creation day in the company's time zone (date, dateStart, dateEnd)", async () => {
    const db = server.atende.container.db;
    // 02:30 UTC on the 10th is still the 9th in São Paulo (UTC-3).
    await Contact.query(db).where({ companyId: t.companyId, name: 'Cliente 01' }).patch({ createdAt: '2026-03-10T02:30:00.000Z' });
    await Contact.query(db).where({ companyId: t.companyId, name: 'Cliente 02' }).patch({ createdAt: '2026-03-10T12:00:00.000Z' });
    await Contact.query(db).where({ companyId: t.companyId, name: 'Cliente 03' }).patch({ createdAt: '2026-03-12T02:59:00.000Z' });
    const names = async (qs: string) =>
      (await server.call('GET', `/api/contacts?${qs}`, { token: t.userToken })).body.contacts.map((c: { name: string }) => c.name);
    expect(await names('date=2026-03-09')).toEqual(['Cliente 01']);
    expect(await names('date=2026-03-10')).toEqual(['Cliente 02']);
    expect(await names('dateStart=2026-03-09&dateEnd=2026-03-11')).toEqual(['Cliente 01', 'Cliente 02', 'Cliente 03']);
    expect(await names('dateStart=2026-03-10&dateEnd=2026-03-11&searchParam=cliente 03')).toEqual(['Cliente 03']);
    const bad = await server.call('GET', '/api/contacts?date=10/03/2026', { token: t.userToken });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('date: Must be a date YYYY-MM-DD');
  });

  it('GET /api/contacts/list answers every contact (id, name, number) by name', async () => {
    const res = await server.call('GET', '/api/contacts/list', { token: t.userToken });
    expect(res.body.contacts).toHaveLength(24);
    expect(res.body.contacts[0]).toEqual({ id: expect.any(Number), name: 'Amanda Rocha', number: '5581988887777' });
  });
});
