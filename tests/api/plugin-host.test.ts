import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAtende } from '../../core/boot.js';
import { createMigrator } from '../../core/cli/migrations.js';
import { loadConfig } from '../../core/config/load-config.js';
import { describeMissing } from '../../core/db/migrator.js';
import { createLogger } from '../../core/logger.js';
import { loadPlugins } from '../../core/plugins/plugin-loader.js';
import { destroyed } from '../fixtures/plugins/destroy-log.js';
import { openSocket, quietFor } from '../helpers/socket.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
const plugin = (name: string) => path.join(fixtures, name);
const HOSTED = plugin('hosted');
const LATE = plugin('late');

/** A throw-away folder with an atende.config.json; these checks stop start-up before any database work that matters. */
function installation(file: Record<string, unknown> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-plugin-host-'));
  writeFileSync(path.join(dir, 'atende.config.json'), JSON.stringify(file));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function startWith(plugins: string[], file: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const { dir, remove } = installation(file);
  try {
    const config = loadConfig({ dir, env, flags: { port: 0, host: '127.0.0.1', logLevel: 'silent', plugins } });
    const atende = await startAtende(config, createLogger('silent', false));
    await atende.stop();
  } finally {
    remove();
  }
}

describe('plugin config', () => {
  it('comes from pluginConfig in atende.config.json, each key overridden by ATENDE_PLUGIN_<NAME>_<KEY>', async () => {
    const { dir, remove } = installation({ plugins: [HOSTED], pluginConfig: { hosted: { greeting: 'from the file', retries: 2 } } });
    try {
      const fileOnly = await loadPlugins(loadConfig({ dir, env: {} }));
      expect(fileOnly.find((p) => p.definition.name === 'hosted')!.config).toEqual({ greeting: 'from the file', retries: 2 });

      const env = { ATENDE_PLUGIN_HOSTED_RETRIES: '5', ATENDE_PLUGIN_HOSTED_GREETING: 'from the environment' };
      const layered = await loadPlugins(loadConfig({ dir, env }));
      // A value that parses as JSON is taken as such (5), anything else as text.
      expect(layered.find((p) => p.definition.name === 'hosted')!.config).toEqual({ greeting: 'from the environment', retries: 5 });
    } finally {
      remove();
    }
  });

  it('stops start-up with one line naming the plugin and the key of a bad value', async () => {
    await expect(startWith([HOSTED], { pluginConfig: { hosted: { greeting: 42 } } })).rejects.toThrow(
      /^plugin hosted: config greeting: Invalid input: expected string, received number \(atende\.config\.json pluginConfig\.hosted\.greeting or ATENDE_PLUGIN_HOSTED_GREETING\)$/,
    );
    await expect(startWith([HOSTED], {}, { ATENDE_PLUGIN_HOSTED_RETRIES: '-1' })).rejects.toThrow(
      /^plugin hosted: config retries: .*ATENDE_PLUGIN_HOSTED_RETRIES\)$/,
    );
  });
});

describe('plugin host at start-up', () => {
  it("refuses a join rule that would replace the core's, naming both", async () => {
    await expect(startWith([plugin('join-clash')])).rejects.toThrow(
      'plugin join-clash: realtime join rule "joinChatBox" is already declared by the core',
    );
  });

  it("refuses a join rule that would replace another plugin's", async () => {
    await expect(startWith([HOSTED, plugin('board-clash')])).rejects.toThrow(
      'plugin board-clash: realtime join rule "joinBoard" is already declared by plugin hosted',
    );
  });

  it("refuses a route that shadows the core's, naming both", async () => {
    await expect(startWith([plugin('shadow')])).rejects.toThrow(
      'plugin shadow: route GET /api/tickets/:id shadows GET /api/tickets/:id of the core',
    );
  });

  it('calls destroy on shutdown in reverse order of loading; a failing one does not stop the others', async () => {
    const server = await startTestServer({ plugins: [HOSTED, LATE] });
    destroyed.length = 0;
    await server.close();
    expect(destroyed).toEqual(['late', 'hosted']);
  });
});

describe('a running plugin', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [HOSTED], pluginConfig: { hosted: { greeting: 'hello' } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gets its parsed config, defaults filled in, as app.config', async () => {
    const res = await server.call('GET', '/api/hosted/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ greeting: 'hello', retries: 1 });
  });

  it('receives the raw body byte for byte on a public route, beside the parsed JSON', async () => {
    const raw = '{ "amount":10.50,\n  "name": "Jo\u00e3o \u{1F600}" }';
    const res = await server.call('POST', '/api/hosted/webhook', { body: raw });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sha256: createHash('sha256').update(raw, 'utf8').digest('hex'),
      length: Buffer.byteLength(raw),
      body: { amount: 10.5, name: 'Jo\u00e3o \u{1F600}' },
    });
  });

  it('answers 400 for a raw-body route sent bad JSON, like any route', async () => {
    const res = await server.call('POST', '/api/hosted/webhook', { body: '{"broken":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_BAD_REQUEST');
  });

  it("lets a company with the flag join the plugin's room, namespaced, and hear what the plugin publishes there", async () => {
    const on = await withPlan(server, { features: { useKanban: true } });
    const socket = await openSocket(server.url, on.token);
    try {
      socket.send('joinBoard', 7);
      await socket.next((f) => f.type === 'joined' && f.room === 'hosted:board:7');
      expect((await server.call('POST', '/api/hosted/boards/7/ping', { token: on.token })).status).toBe(204);
      const frame = await socket.next((f) => f.channel === 'hosted-board');
      expect(frame.data).toEqual({ board: '7' });
    } finally {
      await socket.close();
    }
  });

  it('sends a frame to the chosen users of the company only, with no join', async () => {
    const on = await withPlan(server, { features: { useKanban: true } });
    const colleague = await server.call('POST', '/api/users', {
      token: on.token,
      body: { name: 'Colega', email: `colega-${on.companyId}@cedro.test`, password: 'secret-123', profile: 'user', queueIds: [] },
    });
    expect(colleague.status, JSON.stringify(colleague.body)).toBe(201);
    const admin = await openSocket(server.url, on.token);
    const other = await openSocket(server.url, (await server.login(`colega-${on.companyId}@cedro.test`, 'secret-123')).token);
    try {
      const me = (await server.call('GET', '/api/auth/me', { token: on.token })).body.user.id as number;
      expect((await server.call('POST', '/api/hosted/notify', { token: on.token, body: { userIds: [me] } })).status).toBe(204);
      const frame = await admin.next((f) => f.channel === 'hosted-notice');
      expect(frame.data).toEqual({ to: [me] });
      expect((await server.call('POST', '/api/hosted/notify', { token: on.token, body: { userIds: [] } })).status).toBe(204);
      await quietFor();
      expect(other.frames.some((f) => f.channel === 'hosted-notice')).toBe(false);
      expect(admin.frames.filter((f) => f.channel === 'hosted-notice')).toHaveLength(1);
    } finally {
      await admin.close();
      await other.close();
    }
  });

  it("refuses the plugin's room to a company whose plan lacks the flag", async () => {
    const off = await withPlan(server, { features: { useKanban: false } });
    const socket = await openSocket(server.url, off.token);
    try {
      socket.send('joinBoard', 7);
      const refused = await socket.next((f) => f.type === 'error');
      expect(refused).toMatchObject({ error: 'ERR_NO_PERMISSION' });
      expect(socket.frames.some((f) => f.type === 'joined')).toBe(false);
    } finally {
      await socket.close();
    }
  });
});

describe('a plugin removed from the installation', () => {
  let installed: TestServer;
  let removed: TestServer | undefined;
  beforeAll(async () => {
    installed = await startTestServer({ plugins: [plugin('gone')] });
  });
  afterAll(async () => {
    await removed?.close();
    await installed?.close();
  });

  it('leaves serve and migrate working, says whose migrations are no longer installed, and keeps its tables', async () => {
    // The same database without the plugin: its migration is in knex_migrations, its folder is gone.
    removed = await startTestServer({}, { sameDatabaseAs: installed });
    expect((await removed.call('GET', '/api/version')).status).toBe(200);

    const { db } = removed.atende.container;
    const migrator = await createMigrator(db, removed.config);
    const status = await migrator.status();
    expect(status.missing).toEqual(['20200102000000_gone_items']);
    expect(status.done).toContain('20200102000000_gone_items');
    expect(status.pending).toEqual([]);
    expect(describeMissing(status.missing)).toEqual([
      'plugin gone is no longer installed: its applied migrations (20200102000000_gone_items) are kept and its tables left in place',
    ]);
    expect(await migrator.latest()).toEqual([]);
    expect(await db.schema.hasTable('gone_items')).toBe(true);
  });
});
