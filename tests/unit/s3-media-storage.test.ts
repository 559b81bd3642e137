import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3MediaStorage, type S3Options } from '../../core/storage/s3-media-storage.js';
import { withLocalCopy } from '../../core/storage/media-storage.js';
import { startFakeS3, type FakeS3 } from '../helpers/fake-s3.js';
import { createLogger } from '../../core/logger.js';

const log = createLogger('silent', false);

let s3: FakeS3;
let media: S3MediaStorage;

function optionsOf(fake: FakeS3, extra: Partial<S3Options> = {}): S3Options {
  return {
    endpoint: fake.endpoint,
    region: 'us-east-1',
    bucket: fake.bucket,
    accessKeyId: fake.accessKeyId,
    secretAccessKey: fake.secretAccessKey,
    forcePathStyle: true,
    prefix: '',
    ...extra,
  };
}

beforeAll(async () => {
  s3 = await startFakeS3();
  media = new S3MediaStorage(optionsOf(s3), log);
});
afterAll(async () => {
  await s3?.close();
});

describe('S3MediaStorage', () => {
  it('saves a stream under <companyId>/<stored name>, with the disk driver\'s names, and opens it with its size', async () => {
    const saved = await media.save(7, 'Foto da Loja (1).JPG', Readable.from([Buffer.from('jp'), Buffer.from('eg bytes')]));
    expect(saved.name).toMatch(/^\d+-[0-9a-f]{8}-Foto_da_Loja_1_.JPG$/);
    expect(saved.size).toBe(10);
    expect(s3.objects.get(`7/${saved.name}`)).toEqual(Buffer.from('jpeg bytes'));

    const file = await media.open(7, saved.name);
    expect(file.size).toBe(10);
    expect((await buffer(file.stream)).toString()).toBe('jpeg bytes');
  });

  it('saves a file on disk as it is (an upload\'s temporary copy)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atende-s3-test-'));
    const bytes = Buffer.alloc(300_000, 7);
    writeFileSync(path.join(dir, 'upload'), bytes);
    const saved = await media.save(7, 'planilha.xlsx', { path: path.join(dir, 'upload') });
    expect(saved).toMatchObject({ size: 300_000 });
    expect(saved.name).toMatch(/-planilha\.xlsx$/);
    expect(s3.objects.get(`7/${saved.name}`)?.equals(bytes)).toBe(true);
  });

  it('a local copy holds the bytes until released; remove deletes the object', async () => {
    const { name } = await media.save(8, 'voz.ogg', Readable.from(Buffer.from('OggS')));
    const copy = await media.localCopy(8, name);
    expect(readFileSync(copy.path, 'utf8')).toBe('OggS');
    await copy.release();
    expect(existsSync(copy.path)).toBe(false);

    let seen = '';
    await expect(
      withLocalCopy(media, 8, name, async (file) => {
        seen = file;
        throw new Error('send failed');
      }),
    ).rejects.toThrow('send failed');
    expect(seen).not.toBe('');
    expect(existsSync(seen)).toBe(false);

    await media.remove(8, name);
    expect(s3.objects.has(`8/${name}`)).toBe(false);
    await media.remove(8, name);
  });

  it('a missing object, another company\'s and a name that is a path are ERR_NO_MEDIA_FOUND', async () => {
    const { name } = await media.save(9, 'a.pdf', Readable.from(Buffer.from('%PDF')));
    for (const [companyId, stored] of [
      [9, '1700000000000-deadbeef-nada.pdf'],
      [10, name],
      [9, `../9/${name}`],
      [9, 'a.pdf'],
    ] as const) {
      await expect(media.open(companyId, stored), stored).rejects.toMatchObject({ code: 'ERR_NO_MEDIA_FOUND', status: 404 });
      await expect(media.localCopy(companyId, stored), stored).rejects.toMatchObject({ code: 'ERR_NO_MEDIA_FOUND' });
    }
    expect(s3.requests.filter((r) => r.key.includes('..') || r.key.endsWith('/a.pdf'))).toEqual([]);
  });

  it('puts keys under the prefix', async () => {
    const prefixed = new S3MediaStorage(optionsOf(s3, { prefix: '/atende/media/' }), log);
    const { name } = await prefixed.save(3, 'x.png', Readable.from(Buffer.from('png')));
    expect(s3.objects.has(`atende/media/3/${name}`)).toBe(true);
    expect((await buffer((await prefixed.open(3, name)).stream)).toString()).toBe('png');
  });

  it('a wrong access key id or secret is refused by the server, and nothing is stored', async () => {
    const before = s3.objects.size;
    for (const wrong of [{ accessKeyId: 'AKIAWRONG' }, { secretAccessKey: 'not-the-secret' }]) {
      const other = new S3MediaStorage(optionsOf(s3, wrong), log);
      await expect(other.save(1, 'x.txt', Readable.from(Buffer.from('x')))).rejects.toMatchObject({
        name: 'accessKeyId' in wrong ? 'InvalidAccessKeyId' : 'SignatureDoesNotMatch',
      });
    }
    expect(s3.objects.size).toBe(before);
  });
});
