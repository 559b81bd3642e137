import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWebRoot } from '../../core/http/web-app.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The built web app (npm test builds it before the tests run).
let server: TestServer;
beforeAll(async () => {
  if (!defaultWebRoot) throw new Error('dist/web is missing: run `npm run build` before these tests');
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('serving the web app', () => {
  it('answers index.html, never cached, for the root and for any app route (history fallback)', async () => {
    for (const route of ['/', '/users', '/tickets/abc-123', '/login']) {
      const res = await fetch(server.url + route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root"></div>');
    }
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const html = readFileSync(`${defaultWebRoot}/index.html`, 'utf8');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const res = await fetch(server.url + asset);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('sends the precompressed brotli or gzip copy to a browser that takes it, the plain file otherwise', async () => {
    const html = readFileSync(`${defaultWebRoot}/index.html`, 'utf8');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const plain = readFileSync(`${defaultWebRoot}${asset}`);

    const br = await rawGet(asset, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.length).toBeLessThan(plain.length / 2);
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);

    const gz = await rawGet(asset, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);

    const identity = await rawGet(asset, 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain)).toBe(true);
    expect(Number(identity.headers['content-length'])).toBe(plain.length);
  });

  it('answers 404 for a missing asset and never leaves the web folder', async () => {
    expect((await fetch(`${server.url}/assets/nothing-here.js`)).status).toBe(404);
    const traversal = await fetch(`${server.url}/..%2f..%2fpackage.json`);
    expect(await traversal.text()).not.toContain('"name": "atende"');
  });

  it('keeps /api for the API: an unknown API path is JSON, not the app', async () => {
    const res = await server.call('GET', '/api/not-a-route');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_ROUTE_NOT_FOUND');
  });
});

/** A GET that shows the bytes on the wire (fetch would decompress them). */
function rawGet(path: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(server.url + path, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
