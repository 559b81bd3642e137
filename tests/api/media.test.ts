import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, createTenant, customerWrites, eventually, outbox, ticketTakenByAdmin, type InboxTenant } from '../helpers/inbox.js';
import { companyMediaFiles, sha256, storeMedia } from '../helpers/media.js';
import { startTestServer, testDatabase, type TestServer } from '../helpers/server.js';

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

/** A real failure of the database: from now on it refuses to store a message with this text. */
async function refuseMessages(on: TestServer, body: string): Promise<void> {
  const db = on.atende.container.db;
  if (testDatabase === 'pg') {
    await db.raw(`CREATE FUNCTION refuse_messages() RETURNS trigger AS $$ BEGIN
      IF NEW.body = '${body}' THEN RAISE EXCEPTION 'message refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.raw('CREATE TRIGGER refuse_messages BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_messages()');
  } else {
    await db.raw(`CREATE TRIGGER refuse_messages BEFORE INSERT ON messages WHEN NEW.body = '${body}' BEGIN SELECT RAISE(ABORT, 'message refused'); END`);
  }
}

async function allowMessages(on: TestServer): Promise<void> {
  const db = on.atende.container.db;
  await db.raw(testDatabase === 'pg' ? 'DROP TRIGGER refuse_messages ON messages' : 'DROP TRIGGER refuse_messages');
  if (testDatabase === 'pg') await db.raw('DROP FUNCTION refuse_messages()');
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  a = await tenant('Loja Midia');
  b = await tenant('Outra Midia');
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/media/:file', () => {
  it('serves a stored file of the own company with its content type; pictures inline, documents as attachments', async () => {
    const picture = await storeMedia(server, a.companyId, 'foto.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const sheet = await storeMedia(server, a.companyId, 'planilha.xlsx', 'PK');

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
    const theirs = await storeMedia(server, b.companyId, 'contrato.pdf', '%PDF');
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
    const file = await storeMedia(server, a.companyId, 'x.png', 'x');
    expect((await get(`/api/media/${file}`)).status).toBe(401);
  });
});

describe('stored media of long-named files', () => {
  const LONG_NAME = 'Proposta comercial detalhada para o cliente com todas as condicoes de pagamento e prazos de entrega acordados em 2026 v2.pdf';
  let t: InboxTenant;
  let connectionId: number;
  let customers = 0;

  beforeAll(async () => {
    t = await createTenant(server, 'Loja Arquivos');
    connectionId = await createConnection(server, t, 'Fone Arquivos');
  });

  /** A customer writes in; the admin takes the ticket. Answers the customer's number and the ticket. */
  async function openTicket(): Promise<{ number: string; ticketId: number }> {
    customers += 1;
    const number = `5511966${String(customers).padStart(6, '0')}`;
    return { number, ticketId: await ticketTakenByAdmin(server, t, connectionId, number) };
  }

  async function upload(ticketId: number, name: string, data: string) {
    const form = new FormData();
    form.append('medias', new Blob([data]), name);
    const res = await fetch(`${server.url}/api/messages/${ticketId}`, { method: 'POST', headers: { Authorization: `Bearer ${t.admin.token}` }, body: form });
    return { status: res.status, body: (await res.json()) as { messages: { id: number; wid: string; mediaUrl: string; mediaName: string }[] } };
  }

  const simulator = (path: string) => server.call('POST', `/api/simulator/${connectionId}/${path}`, { token: t.admin.token });

  it('two uploads of one long name, queued while the connection is down, each reach their own customer with their own bytes', async () => {
    expect(LONG_NAME).toHaveLength(124);
    const first = await openTicket();
    const second = await openTicket();
    expect((await simulator('disconnect')).status).toBe(200);

    const forFirst = await upload(first.ticketId, LONG_NAME, 'proposta do primeiro cliente');
    const forSecond = await upload(second.ticketId, LONG_NAME, 'proposta do segundo cliente, outra');
    expect([forFirst.status, forSecond.status]).toEqual([201, 201]);
    expect(forFirst.body.messages[0]!.mediaName).toBe(LONG_NAME);
    expect(forFirst.body.messages[0]!.mediaUrl).not.toBe(forSecond.body.messages[0]!.mediaUrl);

    expect((await server.call('POST', `/api/whatsappsession/${connectionId}`, { token: t.admin.token })).status).toBe(200);
    await eventually(async () => (await simulator('scan')).status === 200, 5000, 'a QR code to scan');
    const sent = await eventually(async () => {
      const { messages } = await outbox(server, t, connectionId);
      const of = (wid: string) => messages.find((m) => m.id === wid);
      const pair = [of(forFirst.body.messages[0]!.wid), of(forSecond.body.messages[0]!.wid)];
      return pair.every(Boolean) && pair;
    }, 10_000, 'both documents sent');
    expect(sent[0]).toMatchObject({ to: first.number, media: { fileName: LONG_NAME, sha256: sha256('proposta do primeiro cliente') } });
    expect(sent[1]).toMatchObject({ to: second.number, media: { fileName: LONG_NAME, sha256: sha256('proposta do segundo cliente, outra') } });
  });

  it("a 113-character upload and a customer's 107-character document are served with their bytes, under their original names", async () => {
    const { number, ticketId } = await openTicket();
    const uploadName = 'Contrato de prestacao de servicos de manutencao preventiva e corretiva assinado pelas partes em novembro xxx.docx';
    const inboundName = 'Comprovante de transferencia bancaria referente ao pagamento da primeira parcela do contrato numero 4 y.pdf';
    expect([uploadName.length, inboundName.length]).toEqual([113, 107]);

    const uploaded = await upload(ticketId, uploadName, 'contrato assinado');
    expect(uploaded.status).toBe(201);
    const wid = await customerWrites(server, t, connectionId, { from: number, body: '', mediaType: 'application', mediaBase64: Buffer.from('%PDF comprovante').toString('base64'), mediaName: inboundName });
    const inbound: { mediaPath: string; mediaName: string } = await eventually(() => server.atende.container.db('messages').where({ companyId: t.companyId, wid }).first('mediaPath', 'mediaName'));
    expect(inbound.mediaName).toBe(inboundName);

    for (const [url, name, bytes] of [
      [uploaded.body.messages[0]!.mediaUrl, uploadName, 'contrato assinado'],
      [`/api/media/${encodeURIComponent(inbound.mediaPath)}`, inboundName, '%PDF comprovante'],
    ] as const) {
      const res = await get(url, t.admin.token);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(bytes)));
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expect(await res.text()).toBe(bytes);
    }
  });

  it('an upload whose message cannot be written leaves no file behind; an inbound document that cannot be stored stays with its set-aside journal entry', async () => {
    const { number, ticketId } = await openTicket();
    const before = await companyMediaFiles(server, t.companyId);
    await refuseMessages(server, 'recusada');
    try {
      const form = new FormData();
      form.set('body', 'recusada');
      form.append('medias', new Blob(['bytes que ficariam orfaos']), 'orfao.pdf');
      const res = await fetch(`${server.url}/api/messages/${ticketId}`, { method: 'POST', headers: { Authorization: `Bearer ${t.admin.token}` }, body: form });
      expect(res.status).toBe(500);
      expect(await companyMediaFiles(server, t.companyId)).toEqual(before);

      // The simulator saves the document before it answers; the pipeline fails to store it, tries
      // again, then sets the entry aside: the customer's file is kept with it, never lost.
      await customerWrites(server, t, connectionId, { from: number, body: 'recusada', mediaType: 'application', mediaBase64: Buffer.from('%PDF').toString('base64'), mediaName: 'orfao.pdf' });
      const entry: { event: string } = await eventually(
        () => server.atende.container.db('inbound_journal').where({ companyId: t.companyId }).whereNotNull('failedAt').first('event'),
        20_000,
        'the entry set aside',
      );
      const kept = (JSON.parse(entry.event) as { message: { media: { path: string } } }).message.media.path;
      expect((await companyMediaFiles(server, t.companyId)).sort()).toEqual([...before, kept].sort());
    } finally {
      await allowMessages(server);
    }
    expect(await server.atende.container.db('messages').where({ companyId: t.companyId, body: 'recusada' })).toEqual([]);
  });
});
