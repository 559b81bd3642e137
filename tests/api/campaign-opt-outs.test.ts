import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptOutView } from '../../plugins/campaigns/opt-outs/opt-out.contract.js';
import { OPT_OUT_CONFIRMATION, optedOut } from '../../plugins/campaigns/opt-outs/opt-outs.service.js';
import { createConnection, createMember, createTenant, customerWrites, eventually, outbox, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
let agent: Member;
let adminSocket: TestSocket;
let agentSocket: TestSocket;
let otherSocket: TestSocket;
let connectionId: number;
let campaignId: number;

const db = () => server.atende.container.db;
/** Numbers the campaign was sent to. */
const ANA = '5511987650001';
const BETO = '5511987650002';
const CAIO = '5511987650003';
const DIVA = '5511987650004';
/** No campaign was sent to it. */
const ELIS = '5511987650005';

async function list(token = t.admin.token, query = ''): Promise<{ records: OptOutView[]; count: number; hasMore: boolean }> {
  const res = await server.call('GET', `/api/campaign-opt-outs${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function entryOf(number: string): Promise<OptOutView | undefined> {
  return (await list(t.admin.token, `?searchParam=${number}`)).records.find((r) => r.number === number);
}

/** The durable jobs the plugin wrote for the company's messages (only opt-out words make one), once each has run. */
async function handledWords(companyId: number, count: number): Promise<void> {
  await eventually(async () => {
    const { jobs } = await server.atende.container.jobs.query({ name: 'campaigns.events' });
    const mine = jobs.filter((j) => (j.data as { companyId?: number }).companyId === companyId && (j.data as { event?: string }).event === 'message.created');
    return mine.length === count && mine.every((j) => j.state === 'completed');
  }, 10_000, `${count} opt-out jobs to have run`);
}

async function confirmationsTo(number: string): Promise<number> {
  return (await outbox(server, t, connectionId)).messages.filter((m) => m.to.startsWith(number) && m.body === OPT_OUT_CONFIRMATION).length;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  t = await createTenant(server, 'Descadastro Loja');
  other = await createTenant(server, 'Outro Descadastro');
  agent = await createMember(server, t, 'agente');
  adminSocket = await openSocket(server.url, t.admin.token);
  adminSocket.send('joinCampaignOptOuts');
  agentSocket = await openSocket(server.url, agent.token);
  agentSocket.send('joinCampaignOptOuts');
  otherSocket = await openSocket(server.url, other.admin.token);
  otherSocket.send('joinCampaignOptOuts');
  connectionId = await createConnection(server, t, 'Principal');
  const listId = (await server.call('POST', '/api/contact-lists', { token: t.admin.token, body: { name: 'Clientes' } })).body.id;
  for (const [name, number] of [['Ana', ANA], ['Beto', BETO], ['Caio', CAIO], ['Diva', DIVA]]) {
    expect((await server.call('POST', '/api/contact-list-items', { token: t.admin.token, body: { name, number, contactListId: listId } })).status).toBe(201);
  }
  const campaign = await server.call('POST', '/api/campaigns', { token: t.admin.token, body: { name: 'Promoção', contactListId: listId, message1: 'Oferta!' } });
  campaignId = campaign.body.id;
  // The campaign reached them (what its dispatch records): their answers are answers to it.
  const now = new Date().toISOString();
  await server.atende.container.db('campaign_shippings').insert(
    [ANA, BETO, CAIO, DIVA].map((number) => ({ campaignId, companyId: t.companyId, number, state: 'sent', message: 'Oferta!', sentAt: now, createdAt: now, updatedAt: now })),
  );
});
afterAll(async () => {
  await adminSocket?.close();
  await agentSocket?.close();
  await otherSocket?.close();
  await server?.close();
});

describe('a customer opting out', () => {
  it("'sair' puts the number on the list with one confirmation; a second 'SAIR' sends nothing more", async () => {
    await customerWrites(server, t, connectionId, { from: ANA, name: 'Ana', body: 'sair' });
    const entry = await eventually(() => entryOf(ANA), 10_000, 'the opt-out');
    expect(entry).toMatchObject({ number: ANA, word: 'SAIR', campaign: { id: campaignId, name: 'Promoção' } });
    const frame = await adminSocket.next((f) => f.channel === `company-${t.companyId}-campaignOptOut` && (f.data as { record: OptOutView }).record.number === ANA);
    expect(frame.data).toEqual({ action: 'create', record: entry });
    await eventually(async () => (await confirmationsTo(ANA)) === 1, 10_000, 'the confirmation on the phone');

    await customerWrites(server, t, connectionId, { from: ANA, name: 'Ana', body: '  SAIR ' });
    await handledWords(t.companyId, 2);
    expect(await confirmationsTo(ANA)).toBe(1);
    expect((await list()).records.filter((r) => r.number === ANA)).toHaveLength(1);
  });

  it("any case and accents: 'Párar' opts out; the company's own word does too; 'sair agora' and a number no campaign was meant for do not", async () => {
    await customerWrites(server, t, connectionId, { from: BETO, name: 'Beto', body: 'Párar' });
    expect(await eventually(() => entryOf(BETO), 10_000, 'Beto on the list')).toMatchObject({ word: 'PARAR' });

    const saved = await server.call('POST', '/api/campaign-settings', { token: t.admin.token, body: { settings: { optOutWords: ['descadastrar'] } } });
    expect(saved.status).toBe(200);
    await customerWrites(server, t, connectionId, { from: CAIO, name: 'Caio', body: 'Descadastrar' });
    expect(await eventually(() => entryOf(CAIO), 10_000, 'Caio on the list')).toMatchObject({ word: 'DESCADASTRAR' });
    await eventually(async () => (await confirmationsTo(CAIO)) === 1, 10_000, "Caio's confirmation");

    await customerWrites(server, t, connectionId, { from: DIVA, name: 'Diva', body: 'sair agora' });
    await customerWrites(server, t, connectionId, { from: ELIS, name: 'Elis', body: 'STOP' });
    // Ana's two, Beto's, Caio's and Elis's: a sentence makes no job at all.
    await handledWords(t.companyId, 5);
    expect(await entryOf(DIVA)).toBeUndefined();
    expect(await entryOf(ELIS)).toBeUndefined();
    expect(await confirmationsTo(ELIS)).toBe(0);
    expect(await optedOut(db(), t.companyId, [ANA, BETO, CAIO, DIVA, ELIS])).toEqual(new Set([ANA, BETO, CAIO]));
  });
});

describe('the list for admins', () => {
  it('an admin adds a number (canonical), searches, removes it and exports the list; only admins of the company hear it', async () => {
    const added = await server.call('POST', '/api/campaign-opt-outs', { token: t.admin.token, body: { number: '+55 (21) 8765-4321' } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ number: '5521987654321', word: null, campaign: null });
    const again = await server.call('POST', '/api/campaign-opt-outs', { token: t.admin.token, body: { number: '5521987654321' } });
    expect(again).toMatchObject({ status: 409, body: { error: 'ERR_CAMPAIGN_OPT_OUT_EXISTS' } });
    const bad = await server.call('POST', '/api/campaign-opt-outs', { token: t.admin.token, body: { number: '123' } });
    expect(bad).toMatchObject({ status: 400, body: { message: 'number: Too Short!' } });

    expect((await list(t.admin.token, '?searchParam=21 98765')).records.map((r) => r.number)).toEqual(['5521987654321']);
    expect((await list(t.admin.token, '?searchParam=parar')).records.map((r) => r.number)).toEqual([BETO]);
    const all = await list();
    expect(all.count).toBe(4);
    expect(all.records[0]!.number).toBe('5521987654321');

    const exported = await fetch(`${server.url}/api/campaign-opt-outs/export`, { headers: { Authorization: `Bearer ${t.admin.token}` } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('text/csv');
    expect(exported.headers.get('content-disposition')).toContain('descadastros.csv');
    const csv = (await exported.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv[0]).toBe('number;word;campaign;createdAt');
    expect(csv.slice(1).map((line) => line.split(';').slice(0, 3).join(';'))).toEqual([`${ANA};SAIR;Promoção`, `${BETO};PARAR;Promoção`, `${CAIO};DESCADASTRAR;Promoção`, '5521987654321;;']);

    expect((await server.call('DELETE', `/api/campaign-opt-outs/${added.body.id}`, { token: t.admin.token })).status).toBe(204);
    const gone = await adminSocket.next((f) => f.channel === `company-${t.companyId}-campaignOptOut` && (f.data as { action: string }).action === 'delete');
    expect((gone.data as { record: OptOutView }).record.id).toBe(added.body.id);
    expect((await list()).count).toBe(3);
    await quietFor();
    expect(agentSocket.frames.some((f) => String(f.channel).endsWith('-campaignOptOut'))).toBe(false);
    expect(otherSocket.frames.some((f) => String(f.channel).endsWith('-campaignOptOut'))).toBe(false);
  });

  it('a user of the company gets 403 on every call, another company 404 on an id, and nothing changes', async () => {
    const entry = (await entryOf(ANA))!;
    for (const [method, path] of [
      ['GET', '/api/campaign-opt-outs'],
      ['GET', '/api/campaign-opt-outs/export'],
      ['POST', '/api/campaign-opt-outs'],
      ['DELETE', `/api/campaign-opt-outs/${entry.id}`],
    ] as const) {
      const res = await server.call(method, path, { token: agent.token, body: method === 'POST' ? { number: '5511999990000' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const theirs = await server.call('DELETE', `/api/campaign-opt-outs/${entry.id}`, { token: other.admin.token });
    expect(theirs).toMatchObject({ status: 404, body: { error: 'ERR_NO_CAMPAIGN_OPT_OUT_FOUND' } });
    expect((await server.call('DELETE', '/api/campaign-opt-outs/abc', { token: t.admin.token })).status).toBe(404);
    expect((await list(other.admin.token)).count).toBe(0);
    expect(await entryOf(ANA)).toMatchObject({ id: entry.id });
  });

  it("answers 403 when the plan has no campaigns or the company's campaignsEnabled is off", async () => {
    const bare = await withPlan(server, { features: { useCampaigns: false } });
    for (const [method, path] of [
      ['GET', '/api/campaign-opt-outs'],
      ['GET', '/api/campaign-opt-outs/export'],
      ['POST', '/api/campaign-opt-outs'],
      ['DELETE', '/api/campaign-opt-outs/1'],
    ] as const) {
      const res = await server.call(method, path, { token: bare.token, body: method === 'POST' ? { number: '5511999990000' } : undefined });
      expect(res, path).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    }
    const tenant = await createTenant(server, 'Descadastro Desligado');
    await server.atende.container.services.companies.update(tenant.companyId, { campaignsEnabled: false });
    const off = await server.call('POST', '/api/campaign-opt-outs', { token: tenant.admin.token, body: { number: '5511999990000' } });
    expect(off).toMatchObject({ status: 403, body: { error: 'ERR_CAMPAIGNS_DISABLED' } });
    const [{ n }] = await db()('campaign_opt_outs').whereIn('companyId', [bare.companyId, tenant.companyId]).count({ n: '*' });
    expect(Number(n)).toBe(0);
  });
});
