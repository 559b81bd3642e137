import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('HTTP core', () => {
  it('GET /api/version answers the package version', async () => {
    const res = await server.call('GET', '/api/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: server.config.version });
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('an unknown /api path answers a JSON 404, never HTML', async () => {
    const res = await server.call('GET', '/api/nothing/here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_ROUTE_NOT_FOUND', message: expect.any(String) });
  });

  it('keeps a sane incoming request id', async () => {
    const res = await server.call('GET', '/api/version', { headers: { 'X-Request-Id': 'abc-12345678' } });
    expect(res.headers.get('x-request-id')).toBe('abc-12345678');
  });

  it('malformed JSON is a 400 with a code', async () => {
    const res = await server.call('POST', '/api/auth/login', { body: '{"email":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_BAD_REQUEST');
    // An error's answer is kept nowhere and carries the security headers like any other.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a body over the limit is refused with 413', async () => {
    const res = await server.call('POST', '/api/auth/login', { body: { email: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });
});
