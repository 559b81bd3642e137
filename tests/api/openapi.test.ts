import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { requiredScope } from '../../core/auth/api-scopes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { get } from 'node:http';
import { createRequire } from 'node:module';

const VIEWER_VERSION = (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** The routes other systems may call: those an API token's scopes reach, and the messages API. */
function publicRoutes(): string[] {
  return server.atende.server.routes
    .filter(({ method, path }) => requiredScope(method, path) !== null || path === '/api/messages/send')
    .map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
}

function described(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
}

describe('the OpenAPI document', () => {
  it('is served without login and is a valid OpenAPI 3.1 document', async () => {
    const res = await server.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(res.body));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every public route, and nothing else', async () => {
    const document = (await server.call('GET', '/api/openapi.json')).body;
    const routes = publicRoutes();
    expect(routes.length).toBeGreaterThan(30);
    expect(described(document).sort()).toEqual([...new Set(routes)].sort());
  });

  it("takes the routes' own schemas: inputs, answers and errors", async () => {
    const { paths } = (await server.call('GET', '/api/openapi.json')).body;
    const list = paths['/api/tickets'].get;
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'status', in: 'query', required: false, schema: expect.objectContaining({ enum: ['open', 'pending', 'closed'] }) }));
    expect(list.responses['200'].content['application/json'].schema.properties.tickets.items.properties.contact.properties).toHaveProperty('number');
    const send = paths['/api/messages/{ticketId}'].post;
    expect(send.parameters).toContainEqual(expect.objectContaining({ name: 'ticketId', in: 'path', required: true }));
    expect(Object.keys(send.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(send.responses['403'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const external = paths['/api/messages/send'].post;
    expect(external.security).toEqual([{ connectionToken: [] }]);
    expect(external.requestBody.content['application/json'].schema.properties.number).toMatchObject({ type: 'string', pattern: '^\\d{8,20}$' });
    expect(external.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    const contact = paths['/api/contacts'].post.requestBody.content['application/json'].schema;
    expect(contact.required).toContain('name');
  });
});

describe('the API docs page', () => {
  it('serves Swagger UI from the installed package, not a CDN', async () => {
    const page = await fetch(`${server.url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`/api/docs/swagger-ui/${VIEWER_VERSION}/swagger-ui-bundle.js`);
    expect(html).not.toMatch(/https?:\/\//);
    for (const file of [`swagger-ui/${VIEWER_VERSION}/swagger-ui-bundle.js`, `swagger-ui/${VIEWER_VERSION}/swagger-ui.css`, 'init.js']) {
      const res = await fetch(`${server.url}/api/docs/${file}`);
      expect(res.status, file).toBe(200);
      expect((await res.text()).length).toBeGreaterThan(50);
    }
    expect((await fetch(`${server.url}/api/docs/swagger-ui/${VIEWER_VERSION}/package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/docs/swagger-ui/${VIEWER_VERSION}/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/docs/swagger-ui.css`)).status).toBe(404);
  });

  it('caches the viewer\'s files for good under their version, revalidates the page, never keeps the description', async () => {
    const viewer = await fetch(`${server.url}/api/docs/swagger-ui/${VIEWER_VERSION}/swagger-ui.css`);
    expect(viewer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(viewer.headers.get('content-type')).toBe('text/css; charset=utf-8');
    // Another version's URL is not this file.
    const stale = await fetch(`${server.url}/api/docs/swagger-ui/0.0.1/swagger-ui.css`);
    expect(stale.status).toBe(404);
    expect(stale.headers.get('cache-control') ?? '').not.toContain('immutable');

    for (const file of ['/api/docs', '/api/docs/init.js']) {
      const first = await fetch(server.url + file);
      expect(first.headers.get('cache-control'), file).toBe('no-cache');
      const etag = first.headers.get('etag');
      expect(etag, file).toMatch(/^"[\w-]+"$/);
      // As a browser revalidates (fetch would add Cache-Control: no-cache, which asks for the whole answer).
      const again = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        get(server.url + file, { headers: { 'If-None-Match': etag! } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        }).on('error', reject);
      });
      expect(again, file).toEqual({ status: 304, body: '' });
    }

    const description = await fetch(`${server.url}/api/openapi.json`);
    expect(description.headers.get('cache-control')).toBe('no-store');
    expect(description.headers.get('etag')).toBeNull();
  });
});
