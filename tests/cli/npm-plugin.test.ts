import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, bin, cleanEnv, freePort, serving, until } from '../helpers/cli.js';
import { ECHO_PACKAGE as PACKAGE, installEchoPackage, usePlugins } from '../helpers/npm-plugin.js';

// tests/fixtures/npm-plugin, packed and installed into an installation as a user would: `npm
// install atende-plugin-echo` beside atende.config.json, then the package's name in `plugins`.
const MIGRATION = '20200103000000_echo_heard';
const NO_LONGER_INSTALLED = `plugin echo is no longer installed: its applied migrations (${MIGRATION}) are kept and its tables left in place`;
const ADMIN = { email: 'admin@atende.local', password: 'a-long-admin-password' };

let work: string;
let inst: string;
const running: ResultPromise[] = [];

function atende(args: string[]) {
  return execa('node', [bin, ...args], { cwd: inst, env: cleanEnv, extendEnv: false, reject: false, timeout: 180_000 });
}

function serve(port: number) {
  const sub = execa('node', [bin, 'serve', '--port', String(port)], {
    cwd: inst,
    env: { ...cleanEnv, ATENDE_SIMULATOR: '1', ATENDE_LOG_LEVEL: 'warn' },
    extendEnv: false,
    reject: false,
  });
  running.push(sub);
  return sub;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-npm-plugin-'));
  inst = path.join(work, 'inst');
  mkdirSync(inst);
  await installEchoPackage(work, inst);
  const init = await atende(['init', '--yes', '--admin-email', ADMIN.email, '--admin-password', ADMIN.password]);
  expect(init.exitCode, init.stderr).toBe(0);
}, 240_000);

afterAll(() => {
  for (const sub of running) sub.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('a plugin installed from npm', () => {
  it('migrate runs its migration, found in the installation\'s node_modules', async () => {
    usePlugins(inst, [PACKAGE], { echo: { greeting: 'olá', replyDelayMs: 1500 } });
    const migrate = await atende(['migrate']);
    expect(migrate.stderr).toBe('');
    expect(migrate.exitCode).toBe(0);
    expect(migrate.stdout).toContain(`migrated ${MIGRATION}`);
  });

  it('serves its route with its config, records messages by its hook, and its step answers "ping" while another chat flows', async () => {
    const sub = serve(await freePort());
    const { url } = await serving(sub);
    const token = (await api(url, 'POST', '/api/auth/login', undefined, ADMIN)).body.token as string;
    const heard = async () => (await api(url, 'GET', '/api/echo/heard', token)).body as { greeting: string; heard: { ticketId: number; body: string; fromMe: boolean }[] };

    // Its route (behind login), its table, its config.
    expect(await heard()).toEqual({ greeting: 'olá', heard: [] });
    expect((await api(url, 'GET', '/api/echo/heard')).status).toBe(401);

    const connection = (await api(url, 'POST', '/api/whatsapp', token, { name: 'Phone', provider: 'simulator' })).body.id as number;
    await until(async () => ((await api(url, 'GET', `/api/whatsapp/${connection}`, token)).body.status === 'qrcode' || undefined), 20_000, 'the QR code');
    expect((await api(url, 'POST', `/api/simulator/${connection}/scan`, token, {})).status).toBe(200);
    await until(async () => ((await api(url, 'GET', `/api/whatsapp/${connection}`, token)).body.status === 'CONNECTED' || undefined), 20_000, 'the connection');

    // The step thinks 1.5 s before it answers; the other chat of the same number is not held meanwhile.
    expect((await api(url, 'POST', `/api/simulator/${connection}/inbound`, token, { from: '5511987650001', name: 'Carla', body: 'ping' })).status).toBe(201);
    expect((await api(url, 'POST', `/api/simulator/${connection}/inbound`, token, { from: '5511987650002', name: 'Davi', body: 'bom dia' })).status).toBe(201);
    const rows = await until(async () => {
      const { heard: seen } = await heard();
      return seen.some((row) => row.body === 'pong olá') ? seen : undefined;
    }, 20_000, 'the pong');
    const ping = rows.find((row) => row.body === 'ping')!;
    const other = rows.find((row) => row.body === 'bom dia')!;
    const pong = rows.find((row) => row.body === 'pong olá')!;
    expect(ping).toMatchObject({ fromMe: false });
    expect(pong).toMatchObject({ fromMe: true, ticketId: ping.ticketId });
    expect(rows.indexOf(other)).toBeLessThan(rows.indexOf(pong));
    expect((await api(url, 'GET', `/api/echo/heard/${other.ticketId}`, token)).body).toEqual({ heard: ['bom dia'] });
    expect(await api(url, 'GET', '/api/echo/heard/99999', token)).toEqual({
      status: 404,
      body: { error: 'ERR_ECHO_NOT_HEARD', message: 'The plugin heard nothing of this ticket' },
    });

    // The customer's conversation shows the answer, sent by the core's send queue.
    const messages = (await api(url, 'GET', `/api/messages/${ping.ticketId}`, token)).body.messages as { body: string; fromMe: boolean }[];
    expect(messages.map(({ body, fromMe }) => ({ body, fromMe }))).toEqual([
      { body: 'ping', fromMe: false },
      { body: 'pong olá', fromMe: true },
    ]);

    sub.kill('SIGTERM');
    expect((await sub).exitCode).toBe(0);
  });

  it('removed from the config, it leaves migrate, migrate --status and serve running, saying so', async () => {
    usePlugins(inst, []);
    const status = await atende(['migrate', '--status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(NO_LONGER_INSTALLED);
    expect(status.stdout).toContain(`done     ${MIGRATION}`);
    const migrate = await atende(['migrate']);
    expect(migrate.exitCode).toBe(0);
    expect(migrate.stdout).toContain(NO_LONGER_INSTALLED);

    const sub = serve(await freePort());
    const { url, output } = await serving(sub);
    expect(output).toContain(NO_LONGER_INSTALLED);
    const token = (await api(url, 'POST', '/api/auth/login', undefined, ADMIN)).body.token as string;
    const gone = await api(url, 'GET', '/api/echo/heard', token);
    expect(gone).toEqual({ status: 404, body: { error: 'ERR_ROUTE_NOT_FOUND', message: expect.any(String) } });
    sub.kill('SIGTERM');
    expect((await sub).exitCode).toBe(0);
  });
});
