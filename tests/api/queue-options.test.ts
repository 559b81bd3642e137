import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Queue } from '../../core/modules/queues/queue.model.js';
import { QueueOption } from '../../core/modules/queue-options/queue-option.model.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Tenant {
  adminToken: string;
  userToken: string;
  queueId: number;
}

/** A company (its first queue holds the menus), its admin and one agent signed in. */
async function tenant(name: string): Promise<Tenant> {
  const { db, services } = server.atende.container;
  const slug = name.toLowerCase().replace(/\W/g, '');
  const { company } = await services.companies.createTenant({ name, email: `admin@${slug}.test`, password: PASSWORD });
  const adminToken = (await server.login(`admin@${slug}.test`, PASSWORD)).token;
  await server.call('POST', '/api/users', { token: adminToken, body: { name: 'Agent', email: `agent@${slug}.test`, password: PASSWORD, profile: 'user' } });
  const userToken = (await server.login(`agent@${slug}.test`, PASSWORD)).token;
  const queue = await Queue.query(db).where('companyId', company.id).first();
  return { adminToken, userToken, queueId: queue!.id };
}

interface OptionNode {
  id: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  children: OptionNode[];
}

async function addOption(t: Tenant, body: Record<string, unknown>): Promise<OptionNode> {
  const res = await server.call('POST', '/api/queue-options', { token: t.adminToken, body: { queueId: t.queueId, ...body } });
  if (res.status !== 201) throw new Error(`create option: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as OptionNode;
}

async function menu(t: Tenant, parentId: number | string = -1): Promise<OptionNode[]> {
  const res = await server.call('GET', `/api/queue-options?queueId=${t.queueId}&parentId=${parentId}`, { token: t.userToken });
  expect(res.status).toBe(200);
  return res.body as OptionNode[];
}

/** A tree as keys and titles only, easier to compare. */
const shape = (nodes: OptionNode[]): unknown[] => nodes.map((n) => [n.option, n.title, ...(n.children.length ? [shape(n.children)] : [])]);

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant('Alpha Menu');
  b = await tenant('Beta Menu');
});
afterAll(async () => {
  await server?.close();
});

describe('the options tree', () => {
  it('an admin builds a two-level menu; every user reads it nested, siblings ordered by key', async () => {
    const t = await tenant('Arvore Menu');
    const sales = await addOption(t, { parentId: -1, title: 'Vendas', message: 'Escolha o produto', option: '1' });
    expect(sales).toMatchObject({ id: expect.any(Number), queueId: t.queueId, parentId: null, title: 'Vendas', message: 'Escolha o produto', option: '1', children: [] });
    await addOption(t, { parentId: null, title: 'Suporte', option: 2 });
    await addOption(t, { title: 'Financeiro', option: '10' });
    await addOption(t, { parentId: sales.id, title: 'Planos', option: '2' });
    const phones = await addOption(t, { parentId: sales.id, title: 'Telefones', option: '1' });
    await addOption(t, { parentId: phones.id, title: 'Android', option: 'a' });

    expect(shape(await menu(t))).toEqual([
      ['1', 'Vendas', [['1', 'Telefones', [['a', 'Android']]], ['2', 'Planos']]],
      ['2', 'Suporte'],
      ['10', 'Financeiro'],
    ]);
    // Without parentId the first level comes too; with one, that option's branch.
    const noParent = await server.call('GET', `/api/queue-options?queueId=${t.queueId}`, { token: t.userToken });
    expect(shape(noParent.body)).toEqual(shape(await menu(t)));
    expect(shape(await menu(t, sales.id))).toEqual([['1', 'Telefones', [['a', 'Android']]], ['2', 'Planos']]);
  });

  it('renames an option, changes its message and its key; the answer keeps its branch', async () => {
    const t = await tenant('Renomear Menu');
    const root = await addOption(t, { title: 'Antigo', option: '1' });
    await addOption(t, { parentId: root.id, title: 'Filho', option: '1' });
    const res = await server.call('PUT', `/api/queue-options/${root.id}`, {
      token: t.adminToken,
      body: { title: ' Novo ', message: 'Nova mensagem', option: '3', queueId: 999, parentId: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: root.id, parentId: null, queueId: t.queueId, title: 'Novo', message: 'Nova mensagem', option: '3' });
    expect(shape(res.body.children)).toEqual([['1', 'Filho']]);
  });

  it('a key taken by a sibling is 409 ERR_QUEUE_OPTION_EXISTS; cousins and other queues may reuse it', async () => {
    const t = await tenant('Chaves Menu');
    const one = await addOption(t, { title: 'Um', option: '1' });
    const two = await addOption(t, { title: 'Dois', option: '2' });
    const taken = await server.call('POST', '/api/queue-options', { token: t.adminToken, body: { queueId: t.queueId, title: 'Outro', option: ' 1 ' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('ERR_QUEUE_OPTION_EXISTS');

    await addOption(t, { parentId: one.id, title: 'Filho de um', option: '1' });
    await addOption(t, { parentId: two.id, title: 'Filho de dois', option: '1' });
    const childTaken = await server.call('POST', '/api/queue-options', { token: t.adminToken, body: { queueId: t.queueId, parentId: two.id, title: 'Repetido', option: '1' } });
    expect(childTaken.status).toBe(409);

    const renamed = await server.call('PUT', `/api/queue-options/${two.id}`, { token: t.adminToken, body: { option: '1' } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toBe('ERR_QUEUE_OPTION_EXISTS');
    const own = await server.call('PUT', `/api/queue-options/${two.id}`, { token: t.adminToken, body: { option: '2', title: 'Dois!' } });
    expect(own.status).toBe(200);

    const db = server.atende.container.db;
    const other = await Queue.query(db).insert({ companyId: (await Queue.query(db).findById(t.queueId))!.companyId, name: 'Outra', color: '#000001', schedules: [] });
    const res = await server.call('POST', '/api/queue-options', { token: t.adminToken, body: { queueId: other.id, title: 'Um', option: '1' } });
    expect(res.status).toBe(201);
  });

  it('the unique indexes hold even when the check is skipped (two admins at once)', async () => {
    const db = server.atende.container.db;
    const t = await tenant('Indice Menu');
    const companyId = (await Queue.query(db).findById(t.queueId))!.companyId;
    const row = { companyId, queueId: t.queueId, title: 'X', message: '', option: '1' };
    const root = await QueueOption.query(db).insert({ ...row, parentId: null });
    await expect(QueueOption.query(db).insert({ ...row, parentId: null })).rejects.toThrow();
    await QueueOption.query(db).insert({ ...row, parentId: root.id });
    await expect(QueueOption.query(db).insert({ ...row, parentId: root.id })).rejects.toThrow();
  });

  it('deleting an option takes its whole branch and leaves its siblings', async () => {
    const t = await tenant('Apagar Menu');
    const root = await addOption(t, { title: 'Raiz', option: '1' });
    const keep = await addOption(t, { title: 'Fica', option: '2' });
    const child = await addOption(t, { parentId: root.id, title: 'Filho', option: '1' });
    const grandchild = await addOption(t, { parentId: child.id, title: 'Neto', option: '1' });
    const res = await server.call('DELETE', `/api/queue-options/${root.id}`, { token: t.adminToken });
    expect(res.status).toBe(204);
    const db = server.atende.container.db;
    expect(await QueueOption.query(db).whereIn('id', [root.id, child.id, grandchild.id])).toEqual([]);
    expect(shape(await menu(t))).toEqual([['2', 'Fica']]);
    expect(keep.id).toBeGreaterThan(0);
    const again = await server.call('DELETE', `/api/queue-options/${root.id}`, { token: t.adminToken });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
  });
});

describe('validation', () => {
  it.each([
    [{ option: '1' }, 'title: Required'],
    [{ title: '   ', option: '1' }, 'title: Required'],
    [{ title: 'x'.repeat(101), option: '1' }, 'title: Too Long!'],
    [{ title: 'Sem chave' }, 'option: Required'],
    [{ title: 'Chave longa', option: 'x'.repeat(21) }, 'option: Too Long!'],
    [{ title: 'Voltar', option: '0' }, "option: '0' and '#' are reserved for going back and to the main menu"],
    [{ title: 'Menu', option: '#' }, "option: '0' and '#' are reserved for going back and to the main menu"],
  ])('%j → "%s"', async (body, message) => {
    const res = await server.call('POST', '/api/queue-options', { token: a.adminToken, body: { queueId: a.queueId, ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it('queueId is required, in the body and in the query', async () => {
    const post = await server.call('POST', '/api/queue-options', { token: a.adminToken, body: { title: 'T', option: '1' } });
    expect(post.status).toBe(400);
    expect(post.body.message).toMatch(/^queueId: /);
    const get = await server.call('GET', '/api/queue-options', { token: a.adminToken });
    expect(get.status).toBe(400);
    expect(get.body.message).toMatch(/^queueId: /);
  });
});

describe('tenancy and permissions', () => {
  it('another company’s queue is 404 ERR_NO_QUEUE_FOUND, to read and to write', async () => {
    const read = await server.call('GET', `/api/queue-options?queueId=${b.queueId}&parentId=-1`, { token: a.adminToken });
    expect(read.status).toBe(404);
    expect(read.body.error).toBe('ERR_NO_QUEUE_FOUND');
    const write = await server.call('POST', '/api/queue-options', { token: a.adminToken, body: { queueId: b.queueId, title: 'Intruso', option: '1' } });
    expect(write.status).toBe(404);
    expect(write.body.error).toBe('ERR_NO_QUEUE_FOUND');
  });

  it('another company’s option is 404 ERR_NO_QUEUE_OPTION_FOUND and stays as it was', async () => {
    const theirs = await addOption(b, { title: 'Deles', option: '7' });
    const attempts = [
      server.call('PUT', `/api/queue-options/${theirs.id}`, { token: a.adminToken, body: { title: 'Meu' } }),
      server.call('DELETE', `/api/queue-options/${theirs.id}`, { token: a.adminToken }),
      server.call('GET', `/api/queue-options?queueId=${a.queueId}&parentId=${theirs.id}`, { token: a.adminToken }),
      server.call('POST', '/api/queue-options', { token: a.adminToken, body: { queueId: a.queueId, parentId: theirs.id, title: 'Filho', option: '1' } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
    }
    expect((await QueueOption.query(server.atende.container.db).findById(theirs.id))!.title).toBe('Deles');
  });

  it('a parent from another queue of the same company is 404', async () => {
    const db = server.atende.container.db;
    const companyId = (await Queue.query(db).findById(a.queueId))!.companyId;
    const other = await Queue.query(db).insert({ companyId, name: 'Segunda', color: '#000002', schedules: [] });
    const parent = await addOption(a, { title: 'Pai', option: '5' });
    const res = await server.call('POST', '/api/queue-options', { token: a.adminToken, body: { queueId: other.id, parentId: parent.id, title: 'Filho', option: '1' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
  });

  it('a user who is not admin reads but gets 403 on writes', async () => {
    const option = await addOption(a, { title: 'Admin', option: '8' });
    const calls = [
      server.call('POST', '/api/queue-options', { token: a.userToken, body: { queueId: a.queueId, title: 'Nope', option: '9' } }),
      server.call('PUT', `/api/queue-options/${option.id}`, { token: a.userToken, body: { title: 'Nope' } }),
      server.call('DELETE', `/api/queue-options/${option.id}`, { token: a.userToken }),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(403);
    expect((await menu(a)).some((n) => n.id === option.id)).toBe(true);
  });
});
