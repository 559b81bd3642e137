import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { TestServer } from './server.js';

/** Stores bytes in the server's media storage as a driver or an upload would; answers the stored name. */
export async function storeMedia(server: TestServer, companyId: number, name: string, bytes: Buffer | string): Promise<string> {
  return (await server.atende.container.media.save(companyId, name, Readable.from(Buffer.from(bytes)))).name;
}

/** The bytes of a stored file (rejects with ERR_NO_MEDIA_FOUND when it is gone). */
export async function storedBytes(server: TestServer, companyId: number, storedName: string): Promise<Buffer> {
  return buffer((await server.atende.container.media.open(companyId, storedName)).stream);
}

/** Every file in the company's media folder, whatever the database says. */
export async function companyMediaFiles(server: TestServer, companyId: number): Promise<string[]> {
  return readdir(path.join(server.config.mediaDir, String(companyId))).catch(() => []);
}

/** What the simulator's outbox records of the bytes it sent. */
export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
