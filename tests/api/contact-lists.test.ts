import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactListImportReport, ContactListItemView, ContactListView } from '../../plugins/campaigns/contact-lists/contact-list.contract.js';
import { createConnection, createMember, createTenant, eventually, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
/** A user of t (not an admin): reads, creates and edits lists and items, deletes nothing. */
let agent: Member;
let agentSocket: TestSocket;
let otherSocket: TestSocket;

const db = () => server.atende.container.db;

async function createList(token: string, name: string, on = server): Promise<ContactListView> {
  const res = await on.call('POST', '/api/contact-lists', { token, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ContactListView;
}

async function addItem(token: string, body: Record<string, unknown>): Promise<ContactListItemView> {
  const res = await server.call('POST', '/api/contact-list-items', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ContactListItemView;
}

/** POST /contact-lists/:id/upload as the page sends it (multipart field `file`). */
async function upload(token: string, listId: number, name: string, data: Buffer | string, dryRun = false) {
  const form = new FormData();
  form.set('file', new Blob([data]), name);
  const res = await fetch(`${server.url}/api/contact-lists/${listId}/upload${dryRun ? '?dryRun=true' : ''}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
}

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function itemsOf(listId: number): Promise<{ name: string; number: string; email: string }[]> {
  return db()('contact_list_items').where('contactListId', listId).orderBy('name').select('name', 'number', 'email');
}

function listFrame(socket: TestSocket, companyId: number, match: (data: Record<string, any>) => boolean, ms?: number) { // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape
  return socket.next((f) => f.channel === `company-${companyId}-ContactList` && match(f.data as Record<string, unknown>), ms);
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Listas Loja');
  other = await createTenant(server, 'Outras Listas');
  agent = await createMember(server, t, 'agente');
  agentSocket = await openSocket(server.url, agent.token);
  otherSocket = await openSocket(server.url, other.admin.token);
});
afterAll(async () => {
  await agentSocket?.close();
  await otherSocket?.close();
  await server?.close();
});

describe('contact lists', () => {
  it('a user creates, reads, searches, pages and renames lists; every user of the company sees them live, no other company', async () => {
    const created = await createList(agent.token, '  Clientes VIP  ');
    expect(created).toMatchObject({ name: 'Clientes VIP', contactsCount: 0, check: { total: 0, checked: 0, valid: 0, invalid: 0, running: false, waiting: null } });
    const frame = await listFrame(agentSocket, t.companyId, (d) => d.action === 'create' && d.contactList.id === created.id);
    expect((frame.data as { contactList: unknown }).contactList).toEqual(created);

    expect((await server.call('GET', `/api/contact-lists/${created.id}`, { token: t.admin.token })).body).toEqual(created);
    for (let i = 0; i < 21; i += 1) await createList(t.admin.token, `Lote ${String(i).padStart(2, '0')}`);
    const first = await server.call('GET', '/api/contact-lists', { token: agent.token });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await server.call('GET', '/api/contact-lists?pageNumber=2', { token: agent.token });
    expect(second.body).toMatchObject({ hasMore: false });
    expect(second.body.records).toHaveLength(2);
    const found = await server.call('GET', '/api/contact-lists?searchParam=VIP', { token: agent.token });
    expect(found.body).toEqual({ records: [created], hasMore: false });
    const choices = await server.call('GET', `/api/contact-lists/list?companyId=${other.companyId}`, { token: agent.token });
    expect(choices.body).toHaveLength(22);
    expect(choices.body[0]).toEqual({ id: created.id, name: 'Clientes VIP', contactsCount: 0 });

    const renamed = await server.call('PUT', `/api/contact-lists/${created.id}`, { token: agent.token, body: { name: 'Clientes Ouro' } });
    expect(renamed).toMatchObject({ status: 200, body: { id: created.id, name: 'Clientes Ouro' } });
    await listFrame(agentSocket, t.companyId, (d) => d.action === 'update' && d.contactList.name === 'Clientes Ouro');
    await quietFor();
    expect(otherSocket.frames.filter((f) => String(f.channel).includes('ContactList'))).toEqual([]);
  });

  it('a list name is required', async () => {
    for (const body of [{}, { name: '   ' }]) {
      const res = await server.call('POST', '/api/contact-lists', { token: agent.token, body });
      expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', message: 'name: Required' } });
    }
    const long = await server.call('POST', '/api/contact-lists', { token: agent.token, body: { name: 'x'.repeat(101) } });
    expect(long.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'name: Too Long!' });
  });

  it('only an admin deletes a list (403 for a user), with its items', async () => {
    const list = await createList(agent.token, 'Para apagar');
    await addItem(agent.token, { name: 'Ana', number: '5511987650001', contactListId: list.id });
    expect((await server.call('DELETE', `/api/contact-lists/${list.id}`, { token: agent.token })).status).toBe(403);
    expect(await itemsOf(list.id)).toHaveLength(1);
    expect((await server.call('DELETE', `/api/contact-lists/${list.id}`, { token: t.admin.token })).status).toBe(204);
    await listFrame(agentSocket, t.companyId, (d) => d.action === 'delete' && d.contactListId === list.id);
    expect(await itemsOf(list.id)).toEqual([]);
    expect((await server.call('GET', `/api/contact-lists/${list.id}`, { token: t.admin.token })).status).toBe(404);
  });
});

describe('list contacts', () => {
  let list: ContactListView;
  beforeAll(async () => {
    list = await createList(agent.token, 'Contatos da feira');
  });

  it('a user adds an item: number canonical (the ninth digit), e-mail lower case; live on both item channels', async () => {
    const item = await addItem(agent.token, { name: 'Maria Souza', number: '+55 (11) 8765-4321', email: 'Maria@Exemplo.com', contactListId: String(list.id) });
    expect(item).toMatchObject({ contactListId: list.id, companyId: t.companyId, name: 'Maria Souza', number: '5511987654321', email: 'maria@exemplo.com', isWhatsappValid: null });
    for (const channel of [`company-${t.companyId}-ContactListItem`, `company-${t.companyId}-ContactListItem-${list.id}`]) {
      const frame = await agentSocket.next((f) => f.channel === channel && (f.data as { action: string }).action === 'create' && (f.data as { contactListItem: { id: number } }).contactListItem.id === item.id);
      expect((frame.data as { contactListItem: unknown }).contactListItem).toEqual(item);
    }
    expect((await server.call('GET', `/api/contact-list-items/${item.id}`, { token: agent.token })).body).toEqual(item);
    expect((await server.call('GET', `/api/contact-lists/${list.id}`, { token: agent.token })).body.contactsCount).toBe(1);
  });

  it("answers the spec's validation messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ number: '5511987650002' }, 'name: Required'],
      [{ name: 'A', number: '5511987650002' }, 'name: Too Short!'],
      [{ name: 'x'.repeat(51), number: '5511987650002' }, 'name: Too Long!'],
      [{ name: 'Ana' }, 'number: Required'],
      [{ name: 'Ana', number: '1234567' }, 'number: Too Short!'],
      [{ name: 'Ana', number: '1'.repeat(51) }, 'number: Too Long!'],
      [{ name: 'Ana', number: '5511987650002', email: 'ana@' }, 'email: Invalid email'],
    ];
    for (const [body, message] of cases) {
      const res = await server.call('POST', '/api/contact-list-items', { token: agent.token, body: { contactListId: list.id, ...body } });
      expect(res.body, message).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
    const noList = await server.call('POST', '/api/contact-list-items', { token: agent.token, body: { name: 'Ana', number: '5511987650002' } });
    expect(noList.status).toBe(400);
    const update = await server.call('PUT', `/api/contact-list-items/${(await addItem(agent.token, { name: 'Beto', number: '5511987650003', contactListId: list.id })).id}`, {
      token: agent.token,
      body: { name: 'B' },
    });
    expect(update.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'name: Too Short!' });
  });

  it('a number is once per list (409); the same number may be in another list', async () => {
    await addItem(agent.token, { name: 'Carla', number: '5511987650004', contactListId: list.id });
    const twice = await server.call('POST', '/api/contact-list-items', { token: agent.token, body: { name: 'Carla 2', number: '55 11 98765-0004', contactListId: list.id } });
    expect(twice).toMatchObject({ status: 409, body: { error: 'ERR_CONTACT_LIST_ITEM_EXISTS' } });
    const another = await createList(agent.token, 'Outra feira');
    await addItem(agent.token, { name: 'Carla', number: '5511987650004', contactListId: another.id });
  });

  it('pages, searches by name, number or e-mail, and edits an item; a new number owes a new check', async () => {
    const paged = await createList(agent.token, 'Muitos');
    for (let i = 0; i < 21; i += 1) await addItem(agent.token, { name: `Pessoa ${String(i).padStart(2, '0')}`, number: `55119876511${String(i).padStart(2, '0')}`, contactListId: paged.id });
    const first = await server.call('GET', `/api/contact-list-items?contactListId=${paged.id}`, { token: agent.token });
    expect(first.body.contacts).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect((await server.call('GET', `/api/contact-list-items?contactListId=${paged.id}&pageNumber=2`, { token: agent.token })).body.contacts).toHaveLength(1);
    const byNumber = await server.call('GET', `/api/contact-list-items?contactListId=${paged.id}&searchParam=5511987651107`, { token: agent.token });
    expect(byNumber.body.contacts.map((c: ContactListItemView) => c.name)).toEqual(['Pessoa 07']);
    const missingList = await server.call('GET', '/api/contact-list-items', { token: agent.token });
    expect(missingList.status).toBe(400);

    const item = byNumber.body.contacts[0] as ContactListItemView;
    await db()('contact_list_items').where('id', item.id).update({ isWhatsappValid: true, whatsappCheckedAt: new Date().toISOString() });
    const renamed = await server.call('PUT', `/api/contact-list-items/${item.id}`, { token: agent.token, body: { name: 'Pessoa Sete', email: 'sete@exemplo.com' } });
    expect(renamed.body).toMatchObject({ name: 'Pessoa Sete', email: 'sete@exemplo.com', isWhatsappValid: true });
    const moved = await server.call('PUT', `/api/contact-list-items/${item.id}`, { token: agent.token, body: { number: '5511912345678' } });
    expect(moved.body).toMatchObject({ number: '5511912345678', isWhatsappValid: null });
  });

  it('only an admin deletes an item (contacts-page:deleteContact)', async () => {
    const item = await addItem(agent.token, { name: 'Davi', number: '5511987650005', contactListId: list.id });
    expect((await server.call('DELETE', `/api/contact-list-items/${item.id}`, { token: agent.token })).status).toBe(403);
    expect((await server.call('DELETE', `/api/contact-list-items/${item.id}`, { token: t.admin.token })).status).toBe(204);
    await agentSocket.next((f) => f.channel === `company-${t.companyId}-ContactListItem-${list.id}` && (f.data as { action: string; contactListItemId: number }).contactListItemId === item.id);
    expect((await server.call('GET', `/api/contact-list-items/${item.id}`, { token: t.admin.token })).status).toBe(404);
  });
});

describe('importing a spreadsheet', () => {
  let list: ContactListView;
  let file: Buffer;
  beforeAll(async () => {
    list = await createList(agent.token, 'Importada');
    await addItem(agent.token, { name: 'Antigo Nome', number: '5511987650100', email: 'antigo@exemplo.com', contactListId: list.id });
    await addItem(agent.token, { name: 'Igual', number: '5511987650101', contactListId: list.id });
    file = await xlsx([
      ['Nome', 'NÚMERO', 'E-mail'],
      ['Novo Cliente', '+55 11 8765-0102', 'novo@exemplo.com'],
      ['Nome Novo', 5511987650100, ''],
      ['Igual', '5511987650101', ''],
      ['', '5511987650103', ''],
      ['X', '5511987650104', ''],
      ['Sem Número', '', ''],
      ['Curto', '1234', ''],
      ['Email Ruim', '5511987650105', 'ruim@'],
      ['Repetido', '5511987650102', ''],
    ]);
  });

  it('?dryRun=true answers what would be created, updated and rejected, and why, and changes nothing', async () => {
    const before = await itemsOf(list.id);
    const frames = agentSocket.frames.length;
    const preview = await upload(agent.token, list.id, 'contatos.xlsx', file, true);
    expect(preview.status).toBe(200);
    const report = preview.body as ContactListImportReport;
    expect(report).toMatchObject({ dryRun: true, create: 1, update: 1, unchanged: 1 });
    expect(report.rejected).toEqual([
      { row: 5, reason: 'missing_name', message: 'Missing name' },
      { row: 6, reason: 'invalid_name', message: 'The name must have 2 to 50 characters' },
      { row: 7, reason: 'missing_number', message: 'Missing number' },
      { row: 8, reason: 'invalid_number', message: 'The number must have 8 to 50 digits' },
      { row: 9, reason: 'invalid_email', message: 'Invalid email' },
      { row: 10, reason: 'duplicate_in_file', message: 'This number is repeated in the file', firstRow: 2 },
    ]);
    expect(report.rows.slice(0, 3)).toEqual([
      { row: 2, name: 'Novo Cliente', number: '+55 11 8765-0102', email: 'novo@exemplo.com', action: 'create' },
      { row: 3, name: 'Nome Novo', number: '5511987650100', email: '', action: 'update' },
      { row: 4, name: 'Igual', number: '5511987650101', email: '', action: 'unchanged' },
    ]);
    expect(await itemsOf(list.id)).toEqual(before);
    await quietFor();
    expect(agentSocket.frames.slice(frames).filter((f) => String(f.channel).includes(`ContactListItem-${list.id}`))).toEqual([]);
  });

  it('without dryRun applies the same report: new numbers created canonical, known ones renamed keeping their e-mail', async () => {
    const applied = await upload(agent.token, list.id, 'contatos.xlsx', file);
    expect(applied.body).toMatchObject({ dryRun: false, create: 1, update: 1, unchanged: 1 });
    expect(applied.body.rejected).toHaveLength(6);
    expect(await itemsOf(list.id)).toEqual([
      { name: 'Igual', number: '5511987650101', email: '' },
      { name: 'Nome Novo', number: '5511987650100', email: 'antigo@exemplo.com' },
      { name: 'Novo Cliente', number: '5511987650102', email: 'novo@exemplo.com' },
    ]);
    await agentSocket.next((f) => f.channel === `company-${t.companyId}-ContactListItem-${list.id}` && (f.data as { action: string }).action === 'reload');
  });

  it('reads a CSV with ; and accented, upper-case headers', async () => {
    const csvList = await createList(agent.token, 'Do CSV');
    const csv = '\uFEFFNOME;Número;EMAIL\r\nJoão Lima;(11) 98765-0200;joao@exemplo.com\r\nZ;5511987650201;\r\n';
    const res = await upload(agent.token, csvList.id, 'lista.csv', csv);
    expect(res.body).toMatchObject({ create: 1, update: 0, rejected: [{ row: 3, reason: 'invalid_name' }] });
    expect(await itemsOf(csvList.id)).toEqual([{ name: 'João Lima', number: '11987650200', email: 'joao@exemplo.com' }]);
  });

  it('refuses an Excel 97-2003 .xls with a clear message, a file without a header, and other file types', async () => {
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    const old = await upload(agent.token, list.id, 'antiga.xls', xls);
    expect(old).toMatchObject({ status: 400, body: { error: 'ERR_IMPORT_FILE_TYPE', message: 'Excel 97-2003 files (.xls) cannot be read: save the sheet as .xlsx or .csv' } });
    const headless = await upload(agent.token, list.id, 'sem.csv', 'Ana;5511987650300\r\n');
    expect(headless.body).toMatchObject({ error: 'ERR_IMPORT_NO_HEADER' });
    expect((await upload(agent.token, list.id, 'foto.png', 'png')).status).toBe(415);
  });
});

describe('the WhatsApp check', () => {
  it('with no connected connection the list waits and says why', async () => {
    const list = await createList(agent.token, 'Sem conexão');
    await addItem(agent.token, { name: 'Ana', number: '5511987650400', contactListId: list.id });
    const frame = await listFrame(agentSocket, t.companyId, (d) => d.action === 'update' && d.contactList.id === list.id && d.contactList.check.waiting === 'no_connection');
    expect((frame.data as { contactList: { check: unknown } }).contactList.check).toEqual({ total: 1, checked: 0, valid: 0, invalid: 0, running: false, waiting: 'no_connection' });

    // A connection of the company connects: the list that waited is checked.
    await createConnection(server, t, 'Chegou');
    const resumed = await listFrame(agentSocket, t.companyId, (d) => d.action === 'update' && d.contactList.id === list.id && d.contactList.check.checked === 1, 15_000);
    expect((resumed.data as { contactList: { check: unknown } }).contactList.check).toEqual({ total: 1, checked: 1, valid: 1, invalid: 0, running: false, waiting: null });
  });

  it('marks each number valid or invalid through a connected connection, in batches, with live progress to the company only', async () => {
    const checked = await createTenant(server, 'Lista Verificada');
    await createConnection(server, checked, 'Principal');
    const socket = await openSocket(server.url, checked.admin.token);
    try {
      const list = await createList(checked.admin.token, 'Verificar');
      const rows: (string | number)[][] = [['nome', 'numero']];
      // 120 numbers (three batches); every tenth is too long for WhatsApp (the simulator says no to more than 15 digits).
      for (let i = 0; i < 120; i += 1) rows.push([`Pessoa ${i}`, i % 10 === 0 ? `55119876${String(i).padStart(10, '0')}` : `55119876${String(5000 + i)}`]);
      const res = await upload(checked.admin.token, list.id, 'grande.xlsx', await xlsx(rows));
      expect(res.body).toMatchObject({ create: 120, rejected: [] });

      const checkOf = (f: Record<string, unknown>) => (f.data as { contactList: { check: { checked: number } } }).contactList.check;
      const progressFrame = (f: Record<string, unknown>) =>
        f.channel === `company-${checked.companyId}-ContactList` && (f.data as { action: string; contactList: { id: number } }).contactList?.id === list.id;
      const done = await socket.next((f) => progressFrame(f) && checkOf(f).checked === 120, 20_000);
      expect(checkOf(done)).toEqual({ total: 120, checked: 120, valid: 108, invalid: 12, running: false, waiting: null });
      await quietFor();
      // The list's updates after each batch of 50 (then once more when the job finds nothing left).
      const seen = socket.frames.filter(progressFrame).map((f) => checkOf(f).checked);
      expect(seen).toEqual(expect.arrayContaining([50, 100, 120]));
      expect(seen.at(-1)).toBe(120);
      const batches = socket.frames.filter((f) => f.channel === `company-${checked.companyId}-ContactListItem-${list.id}` && (f.data as { action: string }).action === 'checked');
      expect(batches.map((f) => (f.data as { items: unknown[] }).items.length)).toEqual([50, 50, 20]);

      const valid = await db()('contact_list_items').where({ contactListId: list.id, isWhatsappValid: true }).count({ n: '*' });
      expect(Number(valid[0]!.n)).toBe(108);
      const page = await server.call('GET', `/api/contact-list-items?contactListId=${list.id}&searchParam=pessoa 10`, { token: checked.admin.token });
      expect(page.body.contacts.find((c: ContactListItemView) => c.name === 'Pessoa 10')).toMatchObject({ isWhatsappValid: false });
      expect(page.body.contacts.find((c: ContactListItemView) => c.name === 'Pessoa 101')).toMatchObject({ isWhatsappValid: true });
      expect(otherSocket.frames.filter((f) => String(f.channel).includes(`company-${checked.companyId}`))).toEqual([]);
      expect(agentSocket.frames.filter((f) => String(f.channel).includes(`company-${checked.companyId}`))).toEqual([]);

      // POST /check with nothing owed answers the list as it is.
      const again = await server.call('POST', `/api/contact-lists/${list.id}/check`, { token: checked.admin.token });
      expect(again.body.check).toMatchObject({ checked: 120, total: 120 });
    } finally {
      await socket.close();
    }
  });
});

describe('tenancy, the plan flag and campaignsEnabled', () => {
  it("another company's list and item ids answer 404 and change nothing", async () => {
    const list = await createList(agent.token, 'Só nossa');
    const item = await addItem(agent.token, { name: 'Eva', number: '5511987650500', contactListId: list.id });
    const token = other.admin.token;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/contact-lists/${list.id}`],
      ['PUT', `/api/contact-lists/${list.id}`, { name: 'Roubada' }],
      ['DELETE', `/api/contact-lists/${list.id}`],
      ['POST', `/api/contact-lists/${list.id}/check`],
      ['GET', `/api/contact-list-items?contactListId=${list.id}`],
      ['GET', `/api/contact-list-items/${item.id}`],
      ['PUT', `/api/contact-list-items/${item.id}`, { name: 'Roubado' }],
      ['DELETE', `/api/contact-list-items/${item.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.call(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const into = await server.call('POST', '/api/contact-list-items', { token, body: { name: 'Intruso', number: '5511987650501', contactListId: list.id } });
    expect(into).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_LIST_FOUND' } });
    const csv = 'nome;numero\r\nIntruso;5511987650502\r\n';
    expect((await upload(token, list.id, 'x.csv', csv)).status).toBe(404);
    expect((await upload(token, list.id, 'x.csv', csv, true)).status).toBe(404);
    expect(await itemsOf(list.id)).toEqual([{ name: 'Eva', number: '5511987650500', email: '' }]);
    expect((await server.call('GET', `/api/contact-lists/${list.id}`, { token: agent.token })).body.name).toBe('Só nossa');
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED when the company's plan has no campaigns", async () => {
    const bare = await withPlan(server, { features: { useCampaigns: false } });
    for (const [method, path] of [
      ['GET', '/api/contact-lists'],
      ['POST', '/api/contact-lists'],
      ['GET', '/api/contact-lists/list'],
      ['GET', '/api/contact-list-items?contactListId=1'],
      ['POST', '/api/contact-list-items'],
    ] as const) {
      const res = await server.call(method, path, { token: bare.token, body: method === 'GET' ? undefined : { name: 'Lista' } });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it("answers 403 ERR_CAMPAIGNS_DISABLED when the company's campaignsEnabled setting is off, and serves again once it is on", async () => {
    const tenant = await createTenant(server, 'Campanhas Desligadas');
    const list = await createList(tenant.admin.token, 'Antes');
    const { companies } = server.atende.container.services;
    await companies.update(tenant.companyId, { campaignsEnabled: false });
    for (const [method, path] of [
      ['GET', '/api/contact-lists'],
      ['GET', `/api/contact-lists/${list.id}`],
      ['POST', '/api/contact-lists'],
      ['POST', `/api/contact-lists/${list.id}/upload`],
      ['POST', '/api/contact-list-items'],
    ] as const) {
      const res = await server.call(method, path, { token: tenant.admin.token, body: method === 'GET' ? undefined : { name: 'Lista' } });
      expect(res, path).toMatchObject({ status: 403, body: { error: 'ERR_CAMPAIGNS_DISABLED' } });
    }
    const [{ n }] = await db()('contact_lists').where('companyId', tenant.companyId).count({ n: '*' });
    expect(Number(n)).toBe(1);
    await companies.update(tenant.companyId, { campaignsEnabled: true });
    expect((await server.call('GET', '/api/contact-lists', { token: tenant.admin.token })).status).toBe(200);
  });
});

describe('a large list', () => {
  it('10,000 numbers import in one call, page 20 at a time, and the server answers while they are checked', async () => {
    const big = await createTenant(server, 'Lista Grande');
    await createConnection(server, big, 'Principal');
    const list = await createList(big.admin.token, 'Dez mil');
    const lines = ['nome;numero'];
    for (let i = 0; i < 10_000; i += 1) lines.push(`Pessoa ${i};5521987${String(i).padStart(6, '0')}`);
    const res = await upload(big.admin.token, list.id, 'dezmil.csv', lines.join('\r\n'));
    expect(res.body).toMatchObject({ create: 10_000, rejected: [] });
    const started = Date.now();
    const page = await server.call('GET', `/api/contact-list-items?contactListId=${list.id}`, { token: big.admin.token });
    expect(page.body.contacts).toHaveLength(20);
    expect(Date.now() - started).toBeLessThan(2000);
    await eventually(async () => (await server.call('GET', `/api/contact-lists/${list.id}`, { token: big.admin.token })).body.check.checked === 10_000, 120_000, 'every number to be checked');
    expect((await server.call('GET', `/api/contact-lists/${list.id}`, { token: big.admin.token })).body.check).toMatchObject({ valid: 10_000, running: false });
  }, 150_000);
});
