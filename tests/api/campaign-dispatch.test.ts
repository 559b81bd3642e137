import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignReport } from '../../plugins/campaigns/dispatch/dispatch.contract.js';
import { createCampaign as createCampaignOf, createList as createListOf, people, type Recipient } from '../helpers/campaigns.js';
import { createConnection, createMember, createTenant, customerWrites, eventually, outbox, type InboxTenant } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let other: InboxTenant;

const db = () => server.atende.container.db;
/** Runs take seconds of planned waits; the server sleeps a thousandth of them. */
const WAIT_SCALE = 0.001;

const createList = (companyId: number, recipients: Recipient[]) => createListOf(server, companyId, recipients);
const createCampaign = (companyId: number, fields: Record<string, unknown>) => createCampaignOf(server, companyId, fields);

async function saveSettings(tenant: InboxTenant, settings: Record<string, unknown>): Promise<void> {
  const res = await server.call('POST', '/api/campaign-settings', { token: tenant.admin.token, body: { settings } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const NO_WAITS = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 };

async function report(tenant: InboxTenant, id: number): Promise<CampaignReport> {
  const res = await server.call('GET', `/api/campaigns/${id}/report`, { token: tenant.admin.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CampaignReport;
}

async function until(tenant: InboxTenant, id: number, check: (r: CampaignReport) => boolean, what: string, ms = 15_000): Promise<CampaignReport> {
  return eventually(async () => {
    const r = await report(tenant, id);
    return check(r) ? r : undefined;
  }, ms, what);
}

/** A tenant with a connected simulated connection and settings without waits. */
async function fresh(name: string): Promise<{ t: InboxTenant; connection: number }> {
  const t = await createTenant(server, `${name} ${Math.random().toString(36).slice(2, 7)}`);
  const connection = await createConnection(server, t, 'Campanhas');
  await saveSettings(t, NO_WAITS);
  return { t, connection };
}

async function sentTo(t: InboxTenant, connection: number): Promise<Map<string, string[]>> {
  const byNumber = new Map<string, string[]>();
  for (const m of (await outbox(server, t, connection)).messages) byNumber.set(m.to, [...(byNumber.get(m.to) ?? []), m.body]);
  return byNumber;
}

async function shippings(campaignId: number): Promise<{ number: string; state: string; waitMs: number | null; waMessageId: string | null }[]> {
  return db()('campaign_shippings').where({ campaignId }).orderBy('id').select('number', 'state', 'waitMs', 'waMessageId');
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true, pluginConfig: { campaigns: { waitScale: WAIT_SCALE, tickEveryMs: 500 } } });
  other = await createTenant(server, 'Outra Empresa Campanhas');
});
afterAll(async () => {
  await server?.close();
});

describe('campaign dispatch', () => {
  it('starts at its time, sends each valid contact one filled-in variant, opens no ticket and ends FINALIZADA with its acks', async () => {
    const { t, connection } = await fresh('Variantes');
    await saveSettings(t, { variables: [{ key: 'cupom', value: 'X10' }] });
    const recipients = people(8);
    const listId = await createList(t.companyId, recipients);
    // An invalid number of the list is not a contact of the campaign.
    const now = new Date().toISOString();
    await db()('contact_list_items').insert({ companyId: t.companyId, contactListId: listId, name: 'Sem Zap', number: '5511960000000', email: '', isWhatsappValid: false, whatsappCheckedAt: now, createdAt: now, updatedAt: now });
    const later = await createCampaign(t.companyId, { whatsappId: connection, contactListId: listId, message1: 'x', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    const id = await createCampaign(t.companyId, {
      whatsappId: connection,
      contactListId: listId,
      message1: 'Olá {nome} ({numero}, {email}): cupom {cupom} {desconhecida}',
      message3: 'Oi {NOME}, use {cupom}',
      message4: '   ',
    });

    const done = await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    expect(done.campaign.completedAt).not.toBeNull();
    expect(done.validContacts).toBe(8);
    const sent = await sentTo(t, connection);
    expect([...sent.keys()].sort()).toEqual(recipients.map((r) => r.number).sort());
    for (const r of recipients) {
      expect(sent.get(r.number)).toHaveLength(1);
      expect([`Olá ${r.name} (${r.number}, ${r.email}): cupom X10 {desconhecida}`, `Oi ${r.name}, use X10`]).toContain(sent.get(r.number)![0]);
    }
    // Campaign messages open no ticket and leave no message row.
    expect((await db()('tickets').where({ companyId: t.companyId })).length).toBe(0);
    expect((await db()('messages').where({ companyId: t.companyId })).length).toBe(0);
    // The scheduled one waits for its hour.
    expect((await report(t, later)).campaign.status).toBe('PROGRAMADA');
    const acked = await until(t, id, (r) => r.counts.read === 8, 'the read acks');
    expect(acked).toMatchObject({ delivered: 8, deliveredPercent: 100, estimatedCompletionAt: null, pauseReason: null });
  });

  it("drops the provider's echo of a campaign message (no ticket), while a message typed on the phone still makes one", async () => {
    const { t, connection } = await fresh('Eco');
    const [ana] = people(1, 150);
    const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, [ana!]), message1: 'Olá' });
    await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    const [row] = await shippings(id);
    const echo = (wid: string, body: string) =>
      server.atende.container.bus.emit('message.received', t.companyId, {
        connectionId: connection,
        companyId: t.companyId,
        message: { id: wid, chatId: ana!.number, isGroup: false, fromMe: true, from: { number: ana!.number, name: '' }, body, timestamp: new Date().toISOString() },
      } as never);
    await echo(row!.waMessageId!, 'Olá');
    await echo('3EB0TYPEDONPHONE0001', 'digitado no celular');
    const stored = await eventually(async () => {
      const rows = await db()('messages').where({ companyId: t.companyId }).select('wid');
      return rows.length > 0 ? rows : undefined;
    }, 5_000, 'the phone message');
    expect(stored.map((m: { wid: string }) => m.wid)).toEqual(['3EB0TYPEDONPHONE0001']);
  });

  it('skips the numbers of the opt-out list, and says so on the report', async () => {
    const { t, connection } = await fresh('Opt-out');
    const recipients = people(3, 100);
    const now = new Date().toISOString();
    await db()('campaign_opt_outs').insert({ companyId: t.companyId, number: recipients[1]!.number, word: 'SAIR', createdAt: now, updatedAt: now });
    const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, recipients), message1: 'Promoção' });
    const done = await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    expect(done.counts.skipped).toBe(1);
    expect(done.validContacts).toBe(2);
    expect([...(await sentTo(t, connection)).keys()].sort()).toEqual([recipients[0]!.number, recipients[2]!.number].sort());
  });

  it("a tag's campaign goes to the contacts whose tickets hold the tag, each once, with their names", async () => {
    const { t, connection } = await fresh('Tag');
    const [vip, also, plain] = people(3, 800);
    for (const p of [vip!, also!, plain!]) await customerWrites(server, t, connection, { from: p.number, name: p.name, body: 'Oi' });
    const ticketOf = async (number: string): Promise<number> =>
      eventually(async () => (await db()('tickets').join('contacts', 'contacts.id', 'tickets.contactId').where({ 'tickets.companyId': t.companyId, 'contacts.number': number }).first('tickets.id'))?.id as number | undefined, 10_000, 'the ticket');
    const tag = (await server.call('POST', '/api/tags', { token: t.admin.token, body: { name: 'VIP', color: '#aa3300' } })).body.id as number;
    for (const p of [vip!, also!]) {
      const synced = await server.call('POST', '/api/tags/sync', { token: t.admin.token, body: { ticketId: await ticketOf(p.number), tags: [{ id: tag }] } });
      expect(synced.status, JSON.stringify(synced.body)).toBeLessThan(300);
    }
    const before = await sentTo(t, connection);
    const id = await createCampaign(t.companyId, { whatsappId: connection, tagListId: tag, message1: 'Oi {nome}, você é VIP' });
    const done = await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    expect(done.validContacts).toBe(2);
    const sent = await sentTo(t, connection);
    expect(sent.get(vip!.number)?.slice(before.get(vip!.number)?.length ?? 0)).toEqual([`Oi ${vip!.name}, você é VIP`]);
    expect(sent.get(also!.number)?.slice(before.get(also!.number)?.length ?? 0)).toEqual([`Oi ${also!.name}, você é VIP`]);
    expect(sent.get(plain!.number)?.length ?? 0).toBe(before.get(plain!.number)?.length ?? 0);
  }, 60_000);

  it('sends the file list first, then the media with the message as caption', async () => {
    const { t, connection } = await fresh('Arquivos');
    const media = server.atende.container.media;
    const stored = async (name: string) => (await media.save(t.companyId, name, Readable.from(Buffer.from(`conteúdo de ${name}`)))).name;
    const now = new Date().toISOString();
    const [list] = await db()('file_lists').insert({ companyId: t.companyId, name: 'Catálogo', message: '', createdAt: now, updatedAt: now }).returning('id');
    const fileListId = typeof list === 'object' ? (list as { id: number }).id : (list as number);
    for (const [position, name] of ['tabela.pdf', 'foto.png'].entries()) {
      await db()('file_list_options').insert({ companyId: t.companyId, fileListId, name: `Opção ${position}`, position, path: await stored(name), mediaName: name, mediaType: null, createdAt: now, updatedAt: now });
    }
    const recipients = people(2, 200);
    const id = await createCampaign(t.companyId, {
      whatsappId: connection,
      contactListId: await createList(t.companyId, recipients),
      fileListId,
      message1: 'Veja {nome}',
      mediaPath: await stored('banner.jpg'),
      mediaName: 'banner.jpg',
    });
    await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    const messages = (await outbox(server, t, connection)).messages;
    for (const r of recipients) {
      const mine = messages.filter((m) => m.to === r.number);
      expect(mine.map((m) => [m.kind, m.media?.fileName, m.body])).toEqual([
        ['media', 'tabela.pdf', 'Opção 0'],
        ['media', 'foto.png', 'Opção 1'],
        ['media', 'banner.jpg', `Veja ${r.name}`],
      ]);
    }
  });

  it('paces by the settings: no wait first, the longer pause after every N messages, a random wait up to the interval otherwise', async () => {
    const { t, connection } = await fresh('Ritmo');
    await saveSettings(t, { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 10 });
    const recipients = people(11, 300);
    const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, recipients), message1: 'Olá' });
    await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA', 30_000);
    const rows = await shippings(id);
    expect(rows[0]!.waitMs).toBe(0);
    for (const [i, row] of rows.entries()) {
      if (i === 0) continue;
      if (i % 5 === 0) expect(row.waitMs).toBe(10_000);
      else expect(row.waitMs! >= 0 && row.waitMs! <= 5_000, `wait ${row.waitMs}`).toBe(true);
    }
    // Sent in the rows' order, each with the id chosen before its send.
    const messages = (await outbox(server, t, connection)).messages;
    expect(messages.map((m) => m.to)).toEqual(rows.map((r) => r.number));
    expect(messages.map((m) => m.id)).toEqual(rows.map((r) => r.waMessageId));
  });

  it('with confirmation on asks first, sends the message after the reply; an opt-out word confirms nothing and ends that contact, so the campaign finishes', async () => {
    const { t, connection } = await fresh('Confirmação');
    const [ana, bia] = people(2, 400);
    const id = await createCampaign(t.companyId, {
      whatsappId: connection,
      contactListId: await createList(t.companyId, [ana!, bia!]),
      confirmation: true,
      message1: 'Aqui está sua oferta, {nome}',
      confirmationMessage1: '{nome}, podemos enviar a oferta? Responda qualquer coisa',
    });
    const asked = await until(t, id, (r) => r.confirmationsRequested === 2, 'the confirmation requests');
    expect(asked.campaign.status).toBe('EM_ANDAMENTO');
    expect((await sentTo(t, connection)).get(ana!.number)).toEqual([`${ana!.name}, podemos enviar a oferta? Responda qualquer coisa`]);

    await customerWrites(server, t, connection, { from: bia!.number, body: 'sair' });
    // Bia's answer was an opt-out word: she is skipped, and with Ana still awaiting the campaign runs on.
    const optedOut = await until(t, id, (r) => r.counts.skipped === 1, 'the opted-out contact skipped');
    expect(optedOut).toMatchObject({ optOuts: 1, confirmations: 0, counts: { awaiting: 1 } });
    expect(optedOut.campaign.status).toBe('EM_ANDAMENTO');

    await customerWrites(server, t, connection, { from: ana!.number, body: 'pode sim' });
    await eventually(async () => (await sentTo(t, connection)).get(ana!.number)?.length === 2, 15_000, 'the confirmed message');
    expect((await sentTo(t, connection)).get(ana!.number)![1]).toBe(`Aqui está sua oferta, ${ana!.name}`);
    // Every contact has a final state: FINALIZADA, without waiting for Bia's confirmation window.
    const done = await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    expect(done.confirmations).toBe(1);
    expect(done.counts).toMatchObject({ awaiting: 0, pending: 0, queued: 0, skipped: 1 });
    expect(await shippings(id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ number: bia!.number, state: 'skipped' })]),
    );
    const toBia = await eventually(async () => (await sentTo(t, connection)).get(bia!.number)?.length === 2 && (await sentTo(t, connection)).get(bia!.number));
    expect(toBia).toEqual([`${bia!.name}, podemos enviar a oferta? Responda qualquer coisa`, 'Pronto! Você não receberá mais mensagens das nossas campanhas.']);
  });

  it('replies that arrive together each confirm their own contact, and a stranger among them confirms nobody', async () => {
    const { t, connection } = await fresh('Respostas juntas');
    const awaiting = people(3, 450);
    const id = await createCampaign(t.companyId, {
      whatsappId: connection,
      contactListId: await createList(t.companyId, awaiting),
      confirmation: true,
      message1: 'Oferta para {nome}',
      confirmationMessage1: '{nome}, podemos enviar?',
    });
    await until(t, id, (r) => r.confirmationsRequested === 3, 'the confirmation requests');

    // One array through the simulator: the pipeline stores the messages together and checks them side by side.
    const [stranger] = people(1, 470);
    const replies = [...awaiting, stranger!].map((p, k) => ({ id: `REPLY-${k}`, from: p.number, name: p.name, body: 'pode' }));
    const res = await server.call('POST', `/api/simulator/${connection}/inbound`, { token: t.admin.token, body: replies });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const done = await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    expect(done.confirmations).toBe(3);
    const sent = await sentTo(t, connection);
    for (const p of awaiting) expect(sent.get(p.number)).toEqual([`${p.name}, podemos enviar?`, `Oferta para ${p.name}`]);
    expect(sent.get(stranger!.number)).toBeUndefined();
  });

  it('stops at the daily cap of the connection with the reason shown, and goes on when the cap allows', async () => {
    const { t, connection } = await fresh('Limite');
    await saveSettings(t, { dailyCap: 2 });
    const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, people(5, 500)), message1: 'Olá' });
    const capped = await until(t, id, (r) => r.pauseReason === 'daily_cap', 'the daily cap pause');
    expect(capped.counts.pending).toBe(3);
    expect((await outbox(server, t, connection)).messages).toHaveLength(2);
    // The estimate pushes the rest to the next day.
    expect(new Date(capped.estimatedCompletionAt!).getTime()).toBeGreaterThan(Date.now());
    await saveSettings(t, { dailyCap: 10 });
    const done = await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    expect(done.pauseReason).toBeNull();
    expect((await outbox(server, t, connection)).messages).toHaveLength(5);
  });

  it('pauses while the connection is down and resumes when it is back', async () => {
    const { t, connection } = await fresh('Desconectada');
    const socket: TestSocket = await openSocket(server.url, t.admin.token);
    try {
      const dropped = await server.call('POST', `/api/simulator/${connection}/disconnect`, { token: t.admin.token });
      expect(dropped.status).toBe(200);
      const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, people(3, 600)), message1: 'Olá' });
      const paused = await until(t, id, (r) => r.campaign.status === 'EM_ANDAMENTO' && r.pauseReason === 'disconnected', 'the disconnected pause');
      expect(paused.counts.pending).toBe(3);
      const frame = await socket.next((f) => f.channel === `company-${t.companyId}-campaign` && (f.data as { record: { pauseReason: string } }).record.pauseReason === 'disconnected');
      expect(frame.data).toMatchObject({ action: 'update', record: { id, status: 'EM_ANDAMENTO' } });

      // The phone links it again: a new session, a new scan.
      expect((await server.call('POST', `/api/whatsappsession/${connection}`, { token: t.admin.token })).status).toBe(200);
      await eventually(async () => (await server.call('POST', `/api/simulator/${connection}/scan`, { token: t.admin.token })).status === 200, 10_000, 'the scan');
      const done = await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
      expect(done.pauseReason).toBeNull();
      expect((await outbox(server, t, connection)).messages).toHaveLength(3);
    } finally {
      await socket.close();
    }
  });

  it("pauses on WhatsApp's reach-out limit and goes on when it is lifted", async () => {
    const { t, connection } = await fresh('Limitada');
    await saveSettings(t, { dailyCap: 1 });
    const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, people(3, 700)), message1: 'Olá' });
    await until(t, id, (r) => r.pauseReason === 'daily_cap', 'the daily cap pause');
    expect((await server.call('POST', `/api/simulator/${connection}/limit`, { token: t.admin.token, body: { active: true } })).status).toBe(200);
    const limited = await until(t, id, (r) => r.pauseReason === 'rate_limited', 'the rate-limit pause');
    expect(limited.resumeAt).not.toBeNull();
    await saveSettings(t, { dailyCap: 10 });
    expect((await server.call('POST', `/api/simulator/${connection}/limit`, { token: t.admin.token, body: { active: false } })).status).toBe(200);
    await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');
    expect((await outbox(server, t, connection)).messages).toHaveLength(3);
  });

  it('cancel answers once nothing more leaves; restart goes on with those not sent, each contact once', async () => {
    const { t, connection } = await fresh('Cancelar');
    // A long pause every 5 messages gives the cancel a run to stop in the middle of.
    await saveSettings(t, { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 120 });
    const recipients = people(30, 800);
    const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, recipients), message1: 'Olá {nome}' });
    await eventually(async () => (await outbox(server, t, connection)).messages.length >= 3, 15_000, 'the first messages');

    const cancelled = await server.call('POST', `/api/campaigns/${id}/cancel`, { token: t.admin.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('CANCELADA');
    const atAnswer = (await outbox(server, t, connection)).messages.length;
    expect(atAnswer).toBeLessThan(30);
    // Longer than the run's longest pause: had the loop gone on, more would have left meanwhile.
    await new Promise((r) => setTimeout(r, 600));
    expect((await outbox(server, t, connection)).messages).toHaveLength(atAnswer);
    const stopped = await report(t, id);
    expect(stopped.counts.sent + stopped.counts.delivered + stopped.counts.read).toBe(atAnswer);
    expect(stopped.estimatedCompletionAt).toBeNull();

    const again = await server.call('POST', `/api/campaigns/${id}/cancel`, { token: t.admin.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_CAMPAIGN_STATUS');

    const restarted = await server.call('POST', `/api/campaigns/${id}/restart`, { token: t.admin.token });
    expect(restarted.status, JSON.stringify(restarted.body)).toBe(200);
    expect(restarted.body.status).toBe('EM_ANDAMENTO');
    await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA', 30_000);
    const sent = await sentTo(t, connection);
    expect(sent.size).toBe(30);
    expect([...sent.values()].every((bodies) => bodies.length === 1)).toBe(true);
  });

  it('cancel of a scheduled campaign, restart then starts it; another company gets 404 and changes nothing; plan flag and campaignsEnabled guard the routes', async () => {
    const { t, connection } = await fresh('Inquilinos');
    const id = await createCampaign(t.companyId, { whatsappId: connection, contactListId: await createList(t.companyId, people(2, 900)), message1: 'Olá', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
    for (const [method, path] of [
      ['POST', `/api/campaigns/${id}/cancel`],
      ['POST', `/api/campaigns/${id}/restart`],
      ['GET', `/api/campaigns/${id}/report`],
    ] as const) {
      const res = await server.call(method, path, { token: other.admin.token });
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CAMPAIGN_FOUND');
    }
    expect((await server.call('GET', '/api/campaigns/abc/report', { token: t.admin.token })).status).toBe(404);
    // A user of the company reads the report; cancel and restart are the admins'.
    const agent = await createMember(server, t, 'agente');
    expect((await server.call('GET', `/api/campaigns/${id}/report`, { token: agent.token })).status).toBe(200);
    for (const action of ['cancel', 'restart']) {
      expect((await server.call('POST', `/api/campaigns/${id}/${action}`, { token: agent.token })).status, action).toBe(403);
    }
    expect((await report(t, id)).campaign.status).toBe('PROGRAMADA');
    expect((await server.call('POST', `/api/campaigns/${id}/restart`, { token: t.admin.token })).body.error).toBe('ERR_CAMPAIGN_STATUS');

    expect((await server.call('POST', `/api/campaigns/${id}/cancel`, { token: t.admin.token })).body.status).toBe('CANCELADA');
    expect((await server.call('POST', `/api/campaigns/${id}/restart`, { token: t.admin.token })).body.status).toBe('EM_ANDAMENTO');
    await until(t, id, (r) => r.campaign.status === 'FINALIZADA', 'FINALIZADA');

    const off = await withPlan(server, { features: { useCampaigns: false } });
    const denied = await server.call('GET', `/api/campaigns/${id}/report`, { token: off.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');

    await server.atende.container.services.companies.update(t.companyId, { campaignsEnabled: false });
    const gated = await server.call('GET', `/api/campaigns/${id}/report`, { token: t.admin.token });
    expect(gated.status).toBe(403);
    expect(gated.body.error).toBe('ERR_CAMPAIGNS_DISABLED');
  });
});
