import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignView } from '../../plugins/campaigns/campaigns/campaign.contract.js';
import { createConnection, createMember, createTenant, type InboxTenant, type Member } from '../helpers/inbox.js';
import { companyMediaFiles, storedBytes } from '../helpers/media.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
/** A user of t (not an admin): reads campaigns, changes none. */
let agent: Member;
let agentSocket: TestSocket;
let otherSocket: TestSocket;
let connectionId: number;
let contactListId: number;

const db = () => server.atende.container.db;
const HOUR = 60 * 60 * 1000;

/** The wall clock 'YYYY-MM-DD HH:mm:ss' of an instant in a timezone, as the dialog sends it. */
function wallIn(zone: string, at: number): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(at));
}

async function create(body: Record<string, unknown>, token = t.admin.token): Promise<CampaignView> {
  const res = await server.call('POST', '/api/campaigns', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as CampaignView;
}

async function rowOf(id: number): Promise<Record<string, unknown>> {
  return db()('campaigns').where({ id }).first();
}

async function setStatus(id: number, status: string): Promise<void> {
  await db()('campaigns').where({ id }).update({ status });
}

/** POST /campaigns/:id/media-upload as the dialog sends it (multipart field `file`). */
async function upload(token: string, id: number, name: string, data: string) {
  const form = new FormData();
  form.set('file', new Blob([data]), name);
  const res = await fetch(`${server.url}/api/campaigns/${id}/media-upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
}

function campaignFrame(socket: TestSocket, companyId: number, match: (data: Record<string, any>) => boolean) { // eslint-disable-line @typescript-eslint/no-explicit-any -- frames of any shape
  return socket.next((f) => f.channel === `company-${companyId}-campaign` && match(f.data as Record<string, unknown>));
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Campanhas Loja');
  other = await createTenant(server, 'Outras Campanhas');
  agent = await createMember(server, t, 'agente');
  agentSocket = await openSocket(server.url, agent.token);
  otherSocket = await openSocket(server.url, other.admin.token);
  connectionId = await createConnection(server, t, 'Principal', {}, false);
  contactListId = (await server.call('POST', '/api/contact-lists', { token: t.admin.token, body: { name: 'Clientes' } })).body.id;
});
afterAll(async () => {
  await agentSocket?.close();
  await otherSocket?.close();
  await server?.close();
});

describe('campaigns', () => {
  it('an admin creates an INATIVA campaign; every user of the company hears it live, no other company', async () => {
    const created = await create({ name: '  Black Friday  ', whatsappId: connectionId, contactListId, message1: 'Olá {nome}!', confirmation: false, status: 'FINALIZADA' });
    expect(created).toMatchObject({
      name: 'Black Friday',
      status: 'INATIVA',
      scheduledAt: null,
      completedAt: null,
      confirmation: false,
      tagListId: null,
      fileListId: null,
      message1: 'Olá {nome}!',
      message2: null,
      contactList: { id: contactListId, name: 'Clientes' },
      whatsapp: { id: connectionId, name: 'Principal' },
      mediaPath: null,
    });
    const frame = await campaignFrame(agentSocket, t.companyId, (d) => d.action === 'create' && d.record.id === created.id);
    expect((frame.data as { record: unknown }).record).toEqual(created);
    expect((await server.call('GET', `/api/campaigns/${created.id}`, { token: agent.token })).body).toEqual(created);
    await quietFor();
    expect(otherSocket.frames.some((f) => String(f.channel).endsWith('-campaign'))).toBe(false);
  });

  it('lists 20 a page, newest first, with a count, searched by name', async () => {
    const tenant = await createTenant(server, 'Campanhas Paginadas');
    for (let i = 0; i < 21; i += 1) await create({ name: `Campanha ${String(i).padStart(2, '0')}` }, tenant.admin.token);
    const first = await server.call('GET', '/api/campaigns', { token: tenant.admin.token });
    expect(first.body).toMatchObject({ count: 21, hasMore: true });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.records[0].name).toBe('Campanha 20');
    const second = await server.call('GET', '/api/campaigns/?pageNumber=2', { token: tenant.admin.token });
    expect(second.body).toMatchObject({ count: 21, hasMore: false });
    expect(second.body.records.map((c: CampaignView) => c.name)).toEqual(['Campanha 00']);
    const found = await server.call('GET', '/api/campaigns?searchParam=HA%2007', { token: tenant.admin.token });
    expect(found.body.records.map((c: CampaignView) => c.name)).toEqual(['Campanha 07']);
    expect(found.body.count).toBe(1);
  });

  it("answers the spec's validation messages and the audience and schedule rules", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name: Required'],
      [{ name: '' }, 'name: Required'],
      [{ name: 'a' }, 'name: Too Short!'],
      [{ name: 'x'.repeat(51) }, 'name: Too Long!'],
      [{ name: 'Ambas', contactListId, tagListId: 1 }, 'tagListId: Choose a contact list or a tag, not both'],
      [{ name: 'Data', scheduledAt: '31/12/2030 10:00' }, 'scheduledAt: Must be a date and time (YYYY-MM-DD HH:mm:ss)'],
      [{ name: 'Data', scheduledAt: '2030-02-30 10:00:00', message1: 'Oi' }, 'scheduledAt: Must be a date and time (YYYY-MM-DD HH:mm:ss)'],
      [{ name: 'Passado', scheduledAt: '2020-01-01 10:00:00', message1: 'Oi' }, 'scheduledAt: Must be in the future'],
      [{ name: 'Longa', message1: 'x'.repeat(4097) }, 'message1: Too Long!'],
    ];
    for (const [body, message] of cases) {
      const res = await server.call('POST', '/api/campaigns', { token: t.admin.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
    const future = wallIn('America/Sao_Paulo', Date.now() + 3 * HOUR);
    const noMessage = await server.call('POST', '/api/campaigns', { token: t.admin.token, body: { name: 'Muda', scheduledAt: future, message1: '   ' } });
    expect(noMessage).toMatchObject({ status: 400, body: { error: 'ERR_CAMPAIGN_NO_MESSAGE' } });
    // A sixth message is no field of a campaign: dropped, never stored.
    const sixth = await create({ name: 'Seis', message1: 'Um', message6: 'Seis' });
    expect(sixth).not.toHaveProperty('message6');
  });

  it("reads scheduledAt on the company's clock and answers the instant; a schedule makes it PROGRAMADA, none INATIVA", async () => {
    const saoPaulo = await create({ name: 'Natal', scheduledAt: '2030-12-24 10:00:00', message1: 'Feliz Natal' });
    expect(saoPaulo).toMatchObject({ status: 'PROGRAMADA', scheduledAt: '2030-12-24T13:00:00.000Z' });

    const tokyo = await createTenant(server, 'Campanhas Tokyo');
    expect((await server.call('PUT', '/api/settings/timezone', { token: tokyo.admin.token, body: { value: 'Asia/Tokyo' } })).status).toBe(200);
    const there = await create({ name: 'Ano novo', scheduledAt: '2030-12-31T23:30', message2: 'Feliz ano novo' }, tokyo.admin.token);
    expect(there).toMatchObject({ status: 'PROGRAMADA', scheduledAt: '2030-12-31T14:30:00.000Z' });

    const unscheduled = await server.call('PUT', `/api/campaigns/${saoPaulo.id}`, { token: t.admin.token, body: { scheduledAt: '' } });
    expect(unscheduled.body).toMatchObject({ status: 'INATIVA', scheduledAt: null, message1: 'Feliz Natal' });
    const empty = await create({ name: 'Vazia', scheduledAt: '' });
    expect(empty).toMatchObject({ status: 'INATIVA', scheduledAt: null });
  });

  it('changes a campaign only while INATIVA, PROGRAMADA more than 1 hour ahead, or CANCELADA (which stays so)', async () => {
    const ahead = await create({ name: 'Longe', scheduledAt: wallIn('America/Sao_Paulo', Date.now() + 3 * HOUR), message1: 'Oi' });
    const edited = await server.call('PUT', `/api/campaigns/${ahead.id}`, { token: t.admin.token, body: { name: 'Longe editada', confirmation: true, confirmationMessage1: 'Quer receber?' } });
    expect(edited.body).toMatchObject({ status: 'PROGRAMADA', name: 'Longe editada', confirmation: true, confirmationMessage1: 'Quer receber?', message1: 'Oi' });

    const soon = await create({ name: 'Perto', scheduledAt: wallIn('America/Sao_Paulo', Date.now() + 30 * 60 * 1000), message1: 'Oi' });
    expect(soon.status).toBe('PROGRAMADA');
    const refused = await server.call('PUT', `/api/campaigns/${soon.id}`, { token: t.admin.token, body: { name: 'Mudou' } });
    expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_CAMPAIGN_NOT_EDITABLE' } });
    expect((await upload(t.admin.token, soon.id, 'a.pdf', '%PDF')).body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    expect((await rowOf(soon.id)).name).toBe('Perto');

    const running = await create({ name: 'Rodando', message1: 'Oi' });
    await setStatus(running.id, 'EM_ANDAMENTO');
    expect((await server.call('PUT', `/api/campaigns/${running.id}`, { token: t.admin.token, body: { name: 'Mudou' } })).body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    const deleting = await server.call('DELETE', `/api/campaigns/${running.id}`, { token: t.admin.token });
    expect(deleting).toMatchObject({ status: 400, body: { error: 'ERR_CAMPAIGN_RUNNING' } });
    expect(await rowOf(running.id)).toMatchObject({ name: 'Rodando', status: 'EM_ANDAMENTO' });

    const finished = await create({ name: 'Acabou', message1: 'Oi' });
    await setStatus(finished.id, 'FINALIZADA');
    expect((await server.call('PUT', `/api/campaigns/${finished.id}`, { token: t.admin.token, body: { name: 'Mudou' } })).body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    expect((await server.call('DELETE', `/api/campaigns/${finished.id}`, { token: t.admin.token })).status).toBe(204);

    const cancelled = await create({ name: 'Cancelada', message1: 'Oi' });
    await setStatus(cancelled.id, 'CANCELADA');
    const saved = await server.call('PUT', `/api/campaigns/${cancelled.id}`, {
      token: t.admin.token,
      body: { message2: 'Nova variante', scheduledAt: wallIn('America/Sao_Paulo', Date.now() + 5 * HOUR) },
    });
    expect(saved.body).toMatchObject({ status: 'CANCELADA', message2: 'Nova variante' });
    const frame = await campaignFrame(agentSocket, t.companyId, (d) => d.action === 'update' && d.record.id === cancelled.id);
    expect((frame.data as { record: CampaignView }).record.message2).toBe('Nova variante');
  });

  it('keeps one attachment: stored without spaces in its name, replaced, removed, and gone with the campaign', async () => {
    const campaign = await create({ name: 'Com anexo', message1: 'Veja' });
    const first = await upload(t.admin.token, campaign.id, 'meu catálogo 2030.pdf', '%PDF-1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.mediaName).toBe('meu catálogo 2030.pdf');
    expect(first.body.mediaPath).not.toMatch(/\s/);
    expect((await storedBytes(server, t.companyId, first.body.mediaPath)).toString()).toBe('%PDF-1');
    const served = await fetch(`${server.url}${first.body.mediaUrl}`, { headers: { Authorization: `Bearer ${agent.token}` } });
    expect(served.status).toBe(200);

    const second = await upload(t.admin.token, campaign.id, 'outro.pdf', '%PDF-2');
    expect(second.body.mediaName).toBe('outro.pdf');
    await expect(storedBytes(server, t.companyId, first.body.mediaPath)).rejects.toThrow();
    expect((await upload(t.admin.token, campaign.id, 'programa.exe', 'MZ')).status).toBe(415);

    const removed = await server.call('DELETE', `/api/campaigns/${campaign.id}/media-upload`, { token: t.admin.token });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
    await expect(storedBytes(server, t.companyId, second.body.mediaPath)).rejects.toThrow();

    const third = await upload(t.admin.token, campaign.id, 'ultimo.pdf', '%PDF-3');
    expect((await server.call('DELETE', `/api/campaigns/${campaign.id}`, { token: t.admin.token })).status).toBe(204);
    expect(await companyMediaFiles(server, t.companyId)).not.toContain(third.body.mediaPath);
    const frame = await campaignFrame(agentSocket, t.companyId, (d) => d.action === 'delete' && d.record.id === campaign.id);
    expect((frame.data as { record: CampaignView }).record.name).toBe('Com anexo');
    expect((await server.call('GET', `/api/campaigns/${campaign.id}`, { token: t.admin.token })).status).toBe(404);
  });

  it('a user reads campaigns; only admins create, change, attach to and delete them (403, nothing changed)', async () => {
    const campaign = await create({ name: 'Dos admins', message1: 'Oi' });
    expect((await server.call('GET', '/api/campaigns', { token: agent.token })).status).toBe(200);
    expect((await server.call('GET', `/api/campaigns/${campaign.id}`, { token: agent.token })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/campaigns', { name: 'Do agente' }],
      ['PUT', `/api/campaigns/${campaign.id}`, { name: 'Do agente' }],
      ['DELETE', `/api/campaigns/${campaign.id}`, undefined],
      ['DELETE', `/api/campaigns/${campaign.id}/media-upload`, undefined],
    ] as const) {
      const res = await server.call(method, path, { token: agent.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await upload(agent.token, campaign.id, 'a.pdf', '%PDF')).status).toBe(403);
    expect(await rowOf(campaign.id)).toMatchObject({ name: 'Dos admins', mediaPath: null });
    expect(await db()('campaigns').where({ companyId: t.companyId, name: 'Do agente' }).first()).toBeUndefined();
  });
});

describe('tenancy, the plan flag and campaignsEnabled', () => {
  it("another company's campaign ids answer 404 and change nothing", async () => {
    const campaign = await create({ name: 'Só nossa', message1: 'Oi' });
    const token = other.admin.token;
    for (const [method, path, body] of [
      ['GET', `/api/campaigns/${campaign.id}`, undefined],
      ['PUT', `/api/campaigns/${campaign.id}`, { name: 'Roubada' }],
      ['DELETE', `/api/campaigns/${campaign.id}`, undefined],
      ['DELETE', `/api/campaigns/${campaign.id}/media-upload`, undefined],
      ['GET', '/api/campaigns/abc', undefined],
    ] as const) {
      const res = await server.call(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CAMPAIGN_FOUND');
    }
    expect((await upload(token, campaign.id, 'a.pdf', '%PDF')).status).toBe(404);
    expect(await rowOf(campaign.id)).toMatchObject({ name: 'Só nossa', mediaPath: null });
    expect((await server.call('GET', '/api/campaigns', { token })).body.records.some((c: CampaignView) => c.id === campaign.id)).toBe(false);
  });

  it("refuses another company's connection, contact list, tag and file list (404), on create and on change", async () => {
    const theirConnection = await createConnection(server, other, 'Deles', {}, false);
    const theirList = (await server.call('POST', '/api/contact-lists', { token: other.admin.token, body: { name: 'Deles' } })).body.id;
    const theirTag = (await server.call('POST', '/api/tags', { token: other.admin.token, body: { name: 'Deles', color: '#112233' } })).body.id;
    const theirFiles = (await server.call('POST', '/api/files', { token: other.admin.token, body: { name: 'Arquivos deles', message: 'Veja' } })).body.id;
    const mine = await create({ name: 'Minha', message1: 'Oi' });
    for (const [body, error] of [
      [{ whatsappId: theirConnection }, 'ERR_NO_WAPP_FOUND'],
      [{ contactListId: theirList }, 'ERR_NO_CONTACT_LIST_FOUND'],
      [{ tagListId: theirTag }, 'ERR_NO_TAG_FOUND'],
      [{ fileListId: theirFiles }, 'ERR_NO_FILE_LIST_FOUND'],
      [{ fileListId: 999999 }, 'ERR_NO_FILE_LIST_FOUND'],
    ] as const) {
      const created = await server.call('POST', '/api/campaigns', { token: t.admin.token, body: { name: 'Alheia', ...body } });
      expect(created, JSON.stringify(body)).toMatchObject({ status: 404, body: { error } });
      const changed = await server.call('PUT', `/api/campaigns/${mine.id}`, { token: t.admin.token, body });
      expect(changed, JSON.stringify(body)).toMatchObject({ status: 404, body: { error } });
    }
    expect(await rowOf(mine.id)).toMatchObject({ whatsappId: null, contactListId: null, tagListId: null, fileListId: null });

    const ownTag = (await server.call('POST', '/api/tags', { token: t.admin.token, body: { name: 'VIP', color: '#445566' } })).body.id;
    const ownFiles = (await server.call('POST', '/api/files', { token: t.admin.token, body: { name: 'Catálogo', message: 'Veja' } })).body.id;
    const withTag = await server.call('PUT', `/api/campaigns/${mine.id}`, { token: t.admin.token, body: { tagListId: ownTag, fileListId: ownFiles } });
    expect(withTag.body).toMatchObject({ tagListId: ownTag, fileListId: ownFiles, contactList: null });
    const both = await server.call('PUT', `/api/campaigns/${mine.id}`, { token: t.admin.token, body: { contactListId } });
    expect(both).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    const swapped = await server.call('PUT', `/api/campaigns/${mine.id}`, { token: t.admin.token, body: { contactListId, tagListId: 'Nenhuma' } });
    expect(swapped.body).toMatchObject({ contactListId, tagListId: null });
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED when the company's plan has no campaigns", async () => {
    const bare = await withPlan(server, { features: { useCampaigns: false } });
    for (const [method, path] of [
      ['GET', '/api/campaigns'],
      ['POST', '/api/campaigns'],
      ['GET', '/api/campaigns/1'],
      ['PUT', '/api/campaigns/1'],
      ['DELETE', '/api/campaigns/1/media-upload'],
    ] as const) {
      const res = await server.call(method, path, { token: bare.token, body: method === 'GET' ? undefined : { name: 'Campanha' } });
      expect(res, path).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    }
    const [{ n }] = await db()('campaigns').where('companyId', bare.companyId).count({ n: '*' });
    expect(Number(n)).toBe(0);
  });

  it("answers 403 ERR_CAMPAIGNS_DISABLED when the company's campaignsEnabled setting is off", async () => {
    const tenant = await createTenant(server, 'Campanhas Desligadas');
    const before = await create({ name: 'Antes', message1: 'Oi' }, tenant.admin.token);
    const { companies } = server.atende.container.services;
    await companies.update(tenant.companyId, { campaignsEnabled: false });
    for (const [method, path] of [
      ['GET', '/api/campaigns'],
      ['GET', `/api/campaigns/${before.id}`],
      ['POST', '/api/campaigns'],
      ['PUT', `/api/campaigns/${before.id}`],
      ['DELETE', `/api/campaigns/${before.id}`],
    ] as const) {
      const res = await server.call(method, path, { token: tenant.admin.token, body: method === 'GET' || method === 'DELETE' ? undefined : { name: 'Depois' } });
      expect(res, path).toMatchObject({ status: 403, body: { error: 'ERR_CAMPAIGNS_DISABLED' } });
    }
    expect((await rowOf(before.id)).name).toBe('Antes');
    await companies.update(tenant.companyId, { campaignsEnabled: true });
    expect((await server.call('GET', '/api/campaigns', { token: tenant.admin.token })).status).toBe(200);
  });
});
