import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileListView } from '../../plugins/files/file-list.contract.js';
import { createConnection, createMember, createQueue, createTenant, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';
import { companyMediaFiles, sha256, storedBytes } from '../helpers/media.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';

/** A plugin that sends lists as a campaign does, through `app.plugin('files')`. */
const FILE_CALLER = fileURLToPath(new URL('../fixtures/plugins/file-caller', import.meta.url));

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
/** A user of t (not an admin): reads and sends lists, never writes them. */
let agent: Member;
/** In the queue of queued tickets, not their user. */
let colleague: Member;
let queueId: number;
let phone: number;
let agentSocket: TestSocket;

const db = () => server.atende.container.db;
let numbers = 0;

/** An open ticket of a new contact, straight into the tables (tickets are not under test). */
async function insertTicket(
  tenant: InboxTenant,
  options: { userId?: number | null; status?: 'open' | 'pending'; queueId?: number | null; whatsappId?: number } = {},
): Promise<{ ticketId: number; number: string }> {
  const now = new Date().toISOString();
  numbers += 1;
  const number = `5511966${String(numbers).padStart(6, '0')}`;
  const [contact] = await db()('contacts').insert({ companyId: tenant.companyId, uuid: randomUUID(), name: `Cliente ${numbers}`, number, createdAt: now, updatedAt: now }).returning('id');
  const [ticket] = await db()('tickets')
    .insert({
      companyId: tenant.companyId,
      uuid: randomUUID(),
      status: options.status ?? 'open',
      contactId: contact.id,
      userId: options.userId === undefined ? agent.id : options.userId,
      whatsappId: options.whatsappId ?? phone,
      queueId: options.queueId ?? null,
      unreadMessages: 0,
      createdAt: now,
      updatedAt: now,
    })
    .returning('id');
  return { ticketId: ticket.id as number, number };
}

async function createList(token: string, body: Record<string, unknown>, on = server): Promise<FileListView> {
  const res = await on.call('POST', '/api/files', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as FileListView;
}

/** POST /files/uploadList/:fileId as the spec's client sends it (its own fields too). */
async function upload(token: string, fileId: number, files: { optionId: number; name?: string; file: string; data: string }[]) {
  const form = new FormData();
  form.set('fileId', String(fileId));
  form.set('typeArch', 'fileList');
  for (const f of files) {
    form.append('files', new Blob([f.data]), f.file);
    form.append('mediaType', 'application/octet-stream');
    if (f.name !== undefined) form.append('name', f.name);
    form.append('id', String(f.optionId));
  }
  const res = await fetch(`${server.url}/api/files/uploadList/${fileId}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
}

function fileFrame(socket: TestSocket, companyId: number, match: (data: Record<string, any>) => boolean) { // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape
  return socket.next((f) => f.channel === `company-${companyId}-file` && match(f.data as Record<string, unknown>));
}

/** A list with two files uploaded, as the page makes one. */
async function listWithFiles(name: string): Promise<FileListView> {
  const list = await createList(t.admin.token, { name, message: `Mensagem de ${name}`, options: [{ name: 'Catálogo' }, { name: 'Tabela de preços' }] });
  const [first, second] = list.options;
  const res = await upload(t.admin.token, list.id, [
    { optionId: first!.id, file: 'catalogo.pdf', data: `%PDF catalogo ${name}` },
    { optionId: second!.id, file: 'precos.jpg', data: `jpeg precos ${name}` },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as FileListView;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true, plugins: [FILE_CALLER] });
  t = await createTenant(server, 'Arquivos Loja');
  other = await createTenant(server, 'Outros Arquivos');
  queueId = await createQueue(server, t, 'Vendas');
  agent = await createMember(server, t, 'agente', { queueIds: [queueId] });
  colleague = await createMember(server, t, 'colega', { queueIds: [queueId] });
  agentSocket = await openSocket(server.url, agent.token);
  phone = await createConnection(server, t, 'Principal');
});
afterAll(async () => {
  await agentSocket?.close();
  await server?.close();
});

describe('writing and reading file lists', () => {
  it('an admin creates a list with its options; every user of the company reads it, live', async () => {
    const created = await createList(t.admin.token, {
      name: '  Boas-vindas  ',
      message: 'Olá! Seguem nossos materiais.',
      options: [{ name: 'Catálogo' }, { name: 'Contrato', path: '/etc/passwd' }],
      userId: 999,
      companyId: other.companyId,
    });
    expect(created).toMatchObject({
      companyId: t.companyId,
      userId: t.admin.id,
      name: 'Boas-vindas',
      message: 'Olá! Seguem nossos materiais.',
      options: [
        { id: expect.any(Number), name: 'Catálogo', path: null, mediaType: null, mediaName: null, mediaUrl: null },
        { id: expect.any(Number), name: 'Contrato', path: null, mediaType: null, mediaName: null, mediaUrl: null },
      ],
    });
    const frame = await fileFrame(agentSocket, t.companyId, (d) => d.action === 'create' && d.fileList.id === created.id);
    expect((frame.data as { fileList: unknown }).fileList).toEqual(created);

    const shown = await server.call('GET', `/api/files/${created.id}`, { token: agent.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(created);
  });

  it('answers each field its message', async () => {
    const valid = { name: 'Lista válida', message: 'Mensagem' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: undefined }, 'name: Obrigatório'],
      [{ ...valid, name: '   ' }, 'name: Obrigatório'],
      [{ ...valid, name: ' ab ' }, 'name: nome muito curto'],
      [{ ...valid, name: 'x'.repeat(101) }, 'name: Too Long!'],
      [{ ...valid, message: undefined }, 'message: Obrigatório'],
      [{ ...valid, message: '  ' }, 'message: Obrigatório'],
      [{ ...valid, options: [{ name: '' }] }, 'options.0.name: Obrigatório'],
      [{ ...valid, options: [{}] }, 'options.0.name: Obrigatório'],
      [{ ...valid, options: 'x' }, 'options: Must be a list'],
    ];
    for (const [body, message] of cases) {
      const res = await server.call('POST', '/api/files', { token: t.admin.token, body });
      expect(res.status, message).toBe(400);
      expect(res.body, message).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
    const list = await createList(t.admin.token, valid);
    const res = await server.call('PUT', `/api/files/${list.id}`, { token: t.admin.token, body: { name: 'ab' } });
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'name: nome muito curto' });
  });

  it('a user reads and sends lists but may not create, change, upload to or delete them (403)', async () => {
    const list = await createList(t.admin.token, { name: 'Somente admins', message: 'Texto', options: [{ name: 'Arquivo' }] });
    expect((await server.call('POST', '/api/files', { token: agent.token, body: { name: 'Do agente', message: 'Texto' } })).status).toBe(403);
    expect((await server.call('PUT', `/api/files/${list.id}`, { token: agent.token, body: { name: 'Mudado' } })).status).toBe(403);
    expect((await server.call('DELETE', `/api/files/${list.id}`, { token: agent.token })).status).toBe(403);
    const uploaded = await upload(agent.token, list.id, [{ optionId: list.options[0]!.id, file: 'a.pdf', data: 'pdf' }]);
    expect(uploaded.status).toBe(403);
    const supervisor = await createMember(server, t, 'supervisora', { profile: 'supervisor' });
    expect((await server.call('POST', '/api/files', { token: supervisor.token, body: { name: 'Da supervisora', message: 'Texto' } })).status).toBe(403);
    expect((await server.call('GET', `/api/files/${list.id}`, { token: agent.token })).body).toEqual(list);
    expect(await companyMediaFiles(server, t.companyId)).not.toContain(expect.stringContaining('a.pdf'));
  });

  it("another company's list answers 404 to every call and stays as it was", async () => {
    const theirs = await createList(other.admin.token, { name: 'Lista deles', message: 'Deles', options: [{ name: 'Deles' }] });
    const { ticketId } = await insertTicket(t);
    const calls: [string, string, Record<string, unknown>?][] = [
      ['GET', `/api/files/${theirs.id}`],
      ['PUT', `/api/files/${theirs.id}`, { name: 'Tomada' }],
      ['DELETE', `/api/files/${theirs.id}`],
      ['POST', `/api/files/${theirs.id}/send`, { ticketId }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.call(method, path, { token: t.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ error: 'ERR_NO_FILE_LIST_FOUND' });
    }
    const uploaded = await upload(t.admin.token, theirs.id, [{ optionId: theirs.options[0]!.id, file: 'x.pdf', data: 'x' }]);
    expect(uploaded).toMatchObject({ status: 404, body: { error: 'ERR_NO_FILE_LIST_FOUND' } });
    expect(await companyMediaFiles(server, t.companyId)).not.toContain(expect.stringContaining('x.pdf'));
    expect((await server.call('GET', `/api/files/${theirs.id}`, { token: other.admin.token })).body).toEqual(theirs);
    expect((await server.call('GET', '/api/files/abc', { token: t.admin.token })).status).toBe(404);
  });

  it('the flag-less plugin serves a company whose plan has every flag off', async () => {
    const bare = await withPlan(server, {
      features: { useCampaigns: false, useSchedules: false, useKanban: false, useOpenAi: false, useIntegrations: false, useInternalChat: false, useExternalApi: false },
    });
    const res = await server.call('POST', '/api/files', { token: bare.token, body: { name: 'Sem plano', message: 'Texto' } });
    expect(res.status).toBe(201);
    expect((await server.call('GET', '/api/files', { token: bare.token })).body).toMatchObject({ files: [{ name: 'Sem plano' }], hasMore: false });
  });
});

describe('paging, search and the full list', () => {
  it('pages 20 lists by name with hasMore, searches name and message, and answers every list with companyId', async () => {
    const tenant = await createTenant(server, 'Muitas Listas');
    for (let i = 1; i <= 23; i += 1) {
      await createList(tenant.admin.token, { name: `Lista ${String(i).padStart(2, '0')}`, message: i === 7 ? 'Contém a promoção de NATAL' : 'Texto comum' });
    }
    const first = await server.call('GET', '/api/files?pageNumber=1&searchParam=', { token: tenant.admin.token });
    expect(first.body.files).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.files[0].name).toBe('Lista 01');
    const second = await server.call('GET', '/api/files?pageNumber=2', { token: tenant.admin.token });
    expect(second.body.files.map((f: FileListView) => f.name)).toEqual(['Lista 21', 'Lista 22', 'Lista 23']);
    expect(second.body.hasMore).toBe(false);

    const byName = await server.call('GET', '/api/files?searchParam=LISTA%2012', { token: tenant.admin.token });
    expect(byName.body).toMatchObject({ files: [{ name: 'Lista 12' }], hasMore: false });
    const byMessage = await server.call('GET', '/api/files?searchParam=Promo%C3%A7%C3%A3o%20de%20natal', { token: tenant.admin.token });
    expect(byMessage.body.files.map((f: FileListView) => f.name)).toEqual(['Lista 07']);
    const percent = await server.call('GET', '/api/files?searchParam=%25', { token: tenant.admin.token });
    expect(percent.body.files).toEqual([]);

    // The spec's selects: every list, and the caller's company whatever companyId says.
    const all = await server.call('GET', `/api/files?companyId=${t.companyId}`, { token: tenant.admin.token });
    expect(all.body.files).toHaveLength(23);
    expect(all.body.hasMore).toBe(false);
    expect(all.body.files.every((f: FileListView) => f.companyId === tenant.companyId)).toBe(true);
  });
});

describe('the files of a list', () => {
  it('uploads a file per option, replaces one (the old file goes) and renames with the upload', async () => {
    const list = await listWithFiles('Materiais');
    const [catalogo, precos] = list.options;
    expect(catalogo).toMatchObject({ name: 'Catálogo', mediaName: 'catalogo.pdf', mediaType: 'application/pdf', path: expect.stringMatching(/catalogo\.pdf$/) });
    expect(catalogo!.mediaUrl).toBe(`/api/media/${encodeURIComponent(catalogo!.path!)}`);
    expect(precos).toMatchObject({ name: 'Tabela de preços', mediaName: 'precos.jpg', mediaType: 'image/jpeg' });
    expect((await storedBytes(server, t.companyId, catalogo!.path!)).toString()).toBe('%PDF catalogo Materiais');
    // Every user of the company fetches the files.
    const fetched = await fetch(`${server.url}${catalogo!.mediaUrl}`, { headers: { Authorization: `Bearer ${agent.token}` } });
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe('%PDF catalogo Materiais');

    const frame = fileFrame(agentSocket, t.companyId, (d) => d.action === 'update' && d.fileList.options[0].name === 'Catálogo 2026');
    const replaced = await upload(t.admin.token, list.id, [{ optionId: catalogo!.id, name: 'Catálogo 2026', file: '../../novo catálogo.pdf', data: '%PDF novo' }]);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const next = replaced.body as FileListView;
    expect(next.options[0]).toMatchObject({ id: catalogo!.id, name: 'Catálogo 2026', mediaName: 'novo catálogo.pdf', path: expect.stringMatching(/^\d+-[0-9a-f]{8}-novo_catalogo\.pdf$/) });
    expect(next.options[1]).toEqual(precos);
    expect((await frame).data).toMatchObject({ fileList: next });
    await expect(storedBytes(server, t.companyId, catalogo!.path!)).rejects.toMatchObject({ code: 'ERR_NO_MEDIA_FOUND' });
    expect((await storedBytes(server, t.companyId, next.options[0]!.path!)).toString()).toBe('%PDF novo');
  });

  it('refuses an upload without files, with an option of another list, of a forbidden type or a mismatched id, and keeps no file', async () => {
    const list = await createList(t.admin.token, { name: 'Recusas', message: 'Texto', options: [{ name: 'Único' }] });
    const elsewhere = await createList(t.admin.token, { name: 'Outra lista', message: 'Texto', options: [{ name: 'Alheio' }] });
    const before = (await companyMediaFiles(server, t.companyId)).length;
    const optionId = list.options[0]!.id;

    const empty = new FormData();
    empty.set('id', String(optionId));
    const none = await fetch(`${server.url}/api/files/uploadList/${list.id}`, { method: 'POST', headers: { Authorization: `Bearer ${t.admin.token}` }, body: empty });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: 'ERR_MEDIA_UPLOAD', message: 'files: Obrigatório' });

    const foreign = await upload(t.admin.token, list.id, [
      { optionId, file: 'bom.pdf', data: 'bom' },
      { optionId: elsewhere.options[0]!.id, file: 'alheio.pdf', data: 'alheio' },
    ]);
    expect(foreign).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', message: `id: No file ${elsewhere.options[0]!.id} in this list` } });
    const twice = await upload(t.admin.token, list.id, [
      { optionId, file: 'um.pdf', data: '1' },
      { optionId, file: 'dois.pdf', data: '2' },
    ]);
    expect(twice).toMatchObject({ status: 400, body: { message: 'id: An option appears twice' } });
    const type = await upload(t.admin.token, list.id, [{ optionId, file: 'virus.exe', data: 'MZ' }]);
    expect(type).toMatchObject({ status: 415, body: { error: 'ERR_MEDIA_TYPE_NOT_ALLOWED' } });

    const form = new FormData();
    form.append('files', new Blob(['a']), 'a.pdf');
    const noId = await fetch(`${server.url}/api/files/uploadList/${list.id}`, { method: 'POST', headers: { Authorization: `Bearer ${t.admin.token}` }, body: form });
    expect(await noId.json()).toMatchObject({ error: 'ERR_VALIDATION', message: 'id: Obrigatório' });

    expect((await companyMediaFiles(server, t.companyId)).length).toBe(before);
    expect((await server.call('GET', `/api/files/${list.id}`, { token: t.admin.token })).body).toEqual(list);
  });

  it('PUT with options keeps, renames, reorders and adds them; one left out goes with its file', async () => {
    const list = await listWithFiles('Reordenada');
    const [catalogo, precos] = list.options;
    const res = await server.call('PUT', `/api/files/${list.id}`, {
      token: t.admin.token,
      body: { message: 'Nova mensagem', options: [{ id: precos!.id, name: 'Preços' }, { name: 'Novo anexo' }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Reordenada',
      message: 'Nova mensagem',
      options: [
        { id: precos!.id, name: 'Preços', path: precos!.path },
        { name: 'Novo anexo', path: null },
      ],
    });
    await expect(storedBytes(server, t.companyId, catalogo!.path!)).rejects.toMatchObject({ code: 'ERR_NO_MEDIA_FOUND' });
    const foreign = await server.call('PUT', `/api/files/${list.id}`, { token: t.admin.token, body: { options: [{ id: catalogo!.id, name: 'Volta' }] } });
    expect(foreign.body).toMatchObject({ error: 'ERR_VALIDATION', message: `options.0.id: No file ${catalogo!.id} in this list` });
    expect((await storedBytes(server, t.companyId, precos!.path!)).toString()).toBe('jpeg precos Reordenada');
  });

  it('deleting a list removes its options and their files, live', async () => {
    const list = await listWithFiles('Apagada');
    const frame = fileFrame(agentSocket, t.companyId, (d) => d.action === 'delete' && d.fileListId === list.id);
    expect((await server.call('DELETE', `/api/files/${list.id}`, { token: t.admin.token })).status).toBe(204);
    await frame;
    for (const option of list.options) await expect(storedBytes(server, t.companyId, option.path!)).rejects.toMatchObject({ code: 'ERR_NO_MEDIA_FOUND' });
    expect(await db()('file_list_options').where({ fileListId: list.id })).toEqual([]);
    expect((await server.call('GET', `/api/files/${list.id}`, { token: t.admin.token })).status).toBe(404);
  });
});

describe('sending a list into a ticket', () => {
  it("the agent's open ticket gets the message, then each file in order with its name as caption", async () => {
    const list = await listWithFiles('Envio');
    const { ticketId, number } = await insertTicket(t, { queueId });
    const res = await server.call('POST', `/api/files/${list.id}/send`, { token: agent.token, body: { ticketId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messageIds).toHaveLength(3);

    const sent = await eventually(async () => {
      const mine = (await outbox(server, t, phone)).messages.filter((m) => m.to === number);
      return mine.length === 3 && mine;
    }, 10_000, 'the three messages on the phone');
    expect(sent.map((m) => [m.kind, m.body, m.media?.fileName ?? null])).toEqual([
      ['text', 'Mensagem de Envio', null],
      ['media', 'Catálogo', 'catalogo.pdf'],
      ['media', 'Tabela de preços', 'precos.jpg'],
    ]);
    expect(sent[1]!.media).toMatchObject({ mimeType: 'application/pdf', sha256: sha256('%PDF catalogo Envio') });
    expect(sent[2]!.media).toMatchObject({ mimeType: 'image/jpeg', sha256: sha256('jpeg precos Envio') });

    // Each message owns a copy: the list may go, the conversation keeps its files.
    const rows = await db()('messages').whereIn('id', res.body.messageIds).orderBy('id');
    expect(rows.map((m: { userId: number; ticketId: number }) => [m.userId, m.ticketId])).toEqual([
      [agent.id, ticketId],
      [agent.id, ticketId],
      [agent.id, ticketId],
    ]);
    expect((await server.call('DELETE', `/api/files/${list.id}`, { token: t.admin.token })).status).toBe(204);
    expect((await storedBytes(server, t.companyId, rows[1].mediaPath)).toString()).toBe('%PDF catalogo Envio');
  });

  it("a list whose options have no file yet sends its message only; an admin sends into anyone's ticket", async () => {
    const list = await createList(t.admin.token, { name: 'Só texto', message: 'Apenas o texto', options: [{ name: 'Ainda sem arquivo' }] });
    const { ticketId, number } = await insertTicket(t);
    const res = await server.call('POST', `/api/files/${list.id}/send`, { token: t.admin.token, body: { ticketId } });
    expect(res.status).toBe(201);
    expect(res.body.messageIds).toHaveLength(1);
    const sent = await eventually(async () => (await outbox(server, t, phone)).messages.find((m) => m.to === number), 10_000, 'the text');
    expect(sent).toMatchObject({ kind: 'text', body: 'Apenas o texto' });
  });

  it('follows the ticket rules of sending: not visible 404/403, not open 400, not theirs 403, and sends nothing', async () => {
    const list = await createList(t.admin.token, { name: 'Regras', message: 'Regras' });
    const outsider = await createMember(server, t, 'fora', { queueIds: [] });
    const queued = await insertTicket(t, { queueId });
    const pending = await insertTicket(t, { status: 'pending', userId: null, queueId });
    const theirs = await createConnection(server, other, 'Deles');
    const foreign = await insertTicket(other, { userId: other.admin.id, whatsappId: theirs });
    const cases: [string, number, number, string][] = [
      [outsider.token, queued.ticketId, 403, 'ERR_NO_PERMISSION'],
      [colleague.token, queued.ticketId, 403, 'ERR_NO_PERMISSION'],
      [agent.token, pending.ticketId, 400, 'ERR_TICKET_NOT_OPEN'],
      [agent.token, foreign.ticketId, 404, 'ERR_NO_TICKET_FOUND'],
      [t.admin.token, foreign.ticketId, 404, 'ERR_NO_TICKET_FOUND'],
    ];
    for (const [token, ticketId, status, error] of cases) {
      const res = await server.call('POST', `/api/files/${list.id}/send`, { token, body: { ticketId } });
      expect(res.status, error).toBe(status);
      expect(res.body).toMatchObject({ error });
    }
    const missing = await server.call('POST', `/api/files/${list.id}/send`, { token: agent.token, body: {} });
    expect(missing.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'ticketId: Obrigatório' });
    const ids = [queued, pending, foreign].map((x) => x.ticketId);
    expect(await db()('messages').whereIn('ticketId', ids)).toEqual([]);
  });

  it("another plugin (a campaign) sends a list with its own text and no author through app.plugin('files')", async () => {
    const list = await listWithFiles('Campanha');
    const { ticketId, number } = await insertTicket(t, { userId: null });
    const res = await server.call('POST', '/api/file-caller/send', { token: t.admin.token, body: { ticketId, fileListId: list.id, message: 'Olá Maria, oferta do mês!' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ messageIds: [expect.any(Number), expect.any(Number), expect.any(Number)], missing: null });
    const sent = await eventually(async () => {
      const mine = (await outbox(server, t, phone)).messages.filter((m) => m.to === number);
      return mine.length === 3 && mine;
    }, 10_000, 'the campaign on the phone');
    expect(sent.map((m) => m.body)).toEqual(['Olá Maria, oferta do mês!', 'Catálogo', 'Tabela de preços']);
    expect((await db()('messages').whereIn('id', res.body.messageIds)).map((m: { userId: number | null }) => m.userId)).toEqual([null, null, null]);

    const theirs = await createList(other.admin.token, { name: 'Lista de outra', message: 'x' });
    const foreign = await server.call('POST', '/api/file-caller/send', { token: t.admin.token, body: { ticketId, fileListId: theirs.id } });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_FILE_LIST_FOUND' } });
  });

  it('a file gone from the storage makes the send fail whole: nothing is queued and no copy is left', async () => {
    const list = await listWithFiles('Quebrada');
    await server.atende.container.media.remove(t.companyId, list.options[1]!.path!);
    const { ticketId } = await insertTicket(t);
    const before = (await companyMediaFiles(server, t.companyId)).length;
    const res = await server.call('POST', `/api/files/${list.id}/send`, { token: agent.token, body: { ticketId } });
    expect(res).toMatchObject({ status: 404, body: { error: 'ERR_NO_MEDIA_FOUND' } });
    expect(await db()('messages').where({ ticketId })).toEqual([]);
    await eventually(async () => (await companyMediaFiles(server, t.companyId)).length === before, 5000, 'the copy removed');
  });
});
