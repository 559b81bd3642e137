import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createConnection, createTenant, customerWrites, eventually, outbox, ticketTakenByAdmin, type InboxTenant } from '../helpers/inbox.js';
import { sha256, storeMedia, storedBytes } from '../helpers/media.js';
import { startFakeS3, type FakeS3 } from '../helpers/fake-s3.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The whole media path of a server whose storage is an S3-compatible bucket: upload, inbound, serve, send. */

let s3: FakeS3;
let server: TestServer;
let t: InboxTenant;
let connectionId: number;
let customers = 0;
/** This file's own temporary folder (the server runs in this process), to see what is left in it. */
const temporary = mkdtempSync(path.join(tmpdir(), 'atende-s3-api-'));

beforeAll(async () => {
  vi.stubEnv('TMPDIR', temporary);
  s3 = await startFakeS3();
  server = await startTestServer({
    simulator: true,
    storage: 's3',
    s3Endpoint: s3.endpoint,
    s3Bucket: s3.bucket,
    s3AccessKeyId: s3.accessKeyId,
    s3SecretAccessKey: s3.secretAccessKey,
    s3Prefix: 'atende',
  });
  t = await createTenant(server, 'Loja Nuvem');
  connectionId = await createConnection(server, t, 'Fone Nuvem');
});
afterAll(async () => {
  await server?.close();
  await s3?.close();
  vi.unstubAllEnvs();
  rmSync(temporary, { recursive: true, force: true });
});

const get = (route: string) => fetch(server.url + route, { headers: { Authorization: `Bearer ${t.admin.token}` } });
const objectOf = (stored: string) => s3.objects.get(`atende/${t.companyId}/${stored}`);

/** A customer writes in; the admin takes the ticket. */
async function openTicket(): Promise<{ number: string; ticketId: number }> {
  customers += 1;
  const number = `5511955${String(customers).padStart(6, '0')}`;
  return { number, ticketId: await ticketTakenByAdmin(server, t, connectionId, number) };
}

describe('media in an S3-compatible bucket', () => {
  it("an agent's upload goes to the bucket, is served back from it, and the simulated phone sends its bytes", async () => {
    const { number, ticketId } = await openTicket();
    const bytes = Buffer.alloc(200_000, 'orçamento ');
    const form = new FormData();
    form.append('medias', new Blob([bytes]), 'Orçamento 2026.pdf');
    form.append('body', 'Segue o orçamento');
    const res = await fetch(`${server.url}/api/messages/${ticketId}`, { method: 'POST', headers: { Authorization: `Bearer ${t.admin.token}` }, body: form });
    expect(res.status).toBe(201);
    const [message] = ((await res.json()) as { messages: { wid: string; mediaUrl: string; mediaName: string }[] }).messages;
    expect(message!.mediaName).toBe('Orçamento 2026.pdf');
    const stored = decodeURIComponent(message!.mediaUrl.split('/').pop()!);
    expect(stored).toMatch(/^\d+-[0-9a-f]{8}-Orcamento_2026\.pdf$/);
    expect(objectOf(stored)?.equals(bytes)).toBe(true);
    // Nothing on this node's disk: another node reads the same bucket.
    expect(await readdir(server.config.mediaDir).catch(() => [])).toEqual([]);

    const served = await get(message!.mediaUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-length')).toBe(String(bytes.length));
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    const sent = await eventually(async () => (await outbox(server, t, connectionId)).messages.find((m) => m.id === message!.wid), 10_000, 'the document sent');
    expect(sent).toMatchObject({ to: number, body: 'Segue o orçamento', media: { fileName: 'Orçamento 2026.pdf', mimeType: 'application/pdf', size: bytes.length, sha256: sha256(bytes) } });
  });

  it("a customer's picture is stored in the bucket by the simulator driver and served to the agent", async () => {
    const { number } = await openTicket();
    const picture = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const wid = await customerWrites(server, t, connectionId, { from: number, body: '', mediaType: 'image', mediaBase64: picture.toString('base64'), mediaName: 'foto.png' });
    const row: { mediaPath: string } = await eventually(() => server.atende.container.db('messages').where({ companyId: t.companyId, wid }).first('mediaPath'));
    expect(objectOf(row.mediaPath)).toEqual(picture);

    const served = await get(`/api/media/${encodeURIComponent(row.mediaPath)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(picture);
  });

  it('a direct send (campaigns, plugins) downloads the stored file for the driver', async () => {
    const stored = await storeMedia(server, t.companyId, 'tabela.csv', 'produto;preco\n');
    const whatsapp = server.atende.container.services.whatsapp;
    const messageId = whatsapp.newMessageId();
    await whatsapp.sendDirect({ companyId: t.companyId, whatsappId: connectionId, number: '5511955999999', messageId, media: { path: stored, name: 'tabela.csv', mime: 'text/csv' } });
    const sent = (await outbox(server, t, connectionId)).messages.find((m) => m.id === messageId);
    expect(sent).toMatchObject({ to: '5511955999999', media: { fileName: 'tabela.csv', size: 14, sha256: sha256('produto;preco\n') } });
  });

  it('an object gone from the bucket answers 404 ERR_NO_MEDIA_FOUND; removing deletes the object', async () => {
    const stored = await storeMedia(server, t.companyId, 'sumiu.png', 'png');
    expect((await storedBytes(server, t.companyId, stored)).toString()).toBe('png');
    await server.atende.container.media.remove(t.companyId, stored);
    expect(objectOf(stored)).toBeUndefined();
    const res = await get(`/api/media/${stored}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('ERR_NO_MEDIA_FOUND');
  });

  it('leaves no spooled stream or downloaded copy behind', async () => {
    expect((await readdir(temporary)).filter((name) => name.startsWith('atende-media-'))).toEqual([]);
  });

  it('a bucket that is not there, or refused keys, fail the start with the reason', async () => {
    const options = { storage: 's3' as const, s3Endpoint: s3.endpoint, s3Bucket: s3.bucket, s3AccessKeyId: s3.accessKeyId, s3SecretAccessKey: s3.secretAccessKey };
    await expect(startTestServer({ ...options, s3Bucket: 'no-such-bucket' })).rejects.toThrow(
      `media storage: the bucket "no-such-bucket" at ${s3.endpoint} cannot be used (HTTP 404`,
    );
    await expect(startTestServer({ ...options, s3SecretAccessKey: 'a-wrong-secret' })).rejects.toThrow(/cannot be used \(HTTP 403/);
  });
});
