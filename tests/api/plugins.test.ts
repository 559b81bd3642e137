import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAtende } from '../../core/boot.js';
import { loadConfig } from '../../core/config/load-config.js';
import { createLogger } from '../../core/logger.js';
import { pluginMigrationDirs } from '../../core/plugins/plugin-loader.js';
import { withPlan } from '../helpers/plans.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { hookCalls, SAMPLE_JOB } from '../fixtures/plugins/sample/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/plugins/', import.meta.url));
const SAMPLE = path.join(fixtures, 'sample');
const BROKEN = path.join(fixtures, 'broken');
const PASSWORD = 'secret-123';

let server: TestServer;
beforeAll(async () => {
  // The broken plugin comes first, so its throwing hook runs before the sample's.
  server = await startTestServer({ plugins: [BROKEN, SAMPLE] });
});
afterAll(async () => {
  await server?.close();
});

/** The company's notes once the plugins' event hooks have handled every event so far. */
async function notes(companyId: number): Promise<{ text: string }[]> {
  await server.atende.container.bus.idle();
  return server.atende.container.db('sample_notes').where('companyId', companyId).orderBy('id');
}

/** Polls until `check` passes (jobs finish on their own schedule). */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(100);
    }
  }
}

describe('plugin host', () => {
  it("runs a plugin's migrations after the core's, in the one migrations table", async () => {
    const names: string[] = await server.atende.container.db('knex_migrations').orderBy('id').pluck('name');
    expect(names).toContain('20261122000000_core_init');
    // The fixture's file is dated before the core's: order comes from the host, not from names.
    expect(names.at(-1)).toBe('20200101000000_sample_notes');
    // The built-in plugins' folders come first, the config's plugins after them.
    expect((await pluginMigrationDirs(server.config)).at(-1)).toBe(path.join(SAMPLE, 'migrations'));
  });

  it('runs register before the database work and bootstrap after it, each once', () => {
    expect(hookCalls).toEqual([
      { hook: 'register', tableExists: false },
      { hook: 'bootstrap', tableExists: true },
    ]);
  });

  it("lets a logged-in user of a company whose plan has the flag use the plugin's routes, within the company", async () => {
    const { token } = await server.login(SUPER_EMAIL, SUPER_PASSWORD);
    const created = await server.call('POST', '/api/sample/notes', { token, body: { text: 'first note', extra: 'dropped' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), text: 'first note' });
    expect(created.body).not.toHaveProperty('extra');

    const list = await server.call('GET', '/api/sample/notes', { token });
    expect(list.status).toBe(200);
    expect(list.body.notes.map((n: { text: string }) => n.text)).toContain('first note');

    const other = await withPlan(server, { features: { useKanban: true } });
    const theirs = await server.call('GET', '/api/sample/notes', { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.notes.map((n: { text: string }) => n.text)).not.toContain('first note');
  });

  it('validates input on plugin routes like on the core', async () => {
    const { token } = await server.login(SUPER_EMAIL, SUPER_PASSWORD);
    const res = await server.call('POST', '/api/sample/notes', { token, body: { text: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it('answers 401 on plugin routes without a token', async () => {
    expect((await server.call('GET', '/api/sample/notes')).status).toBe(401);
    const res = await server.call('POST', '/api/sample/notes', { body: { text: 'anonymous' } });
    expect(res.status).toBe(401);
    expect(await server.atende.container.db('sample_notes').where('text', 'anonymous')).toEqual([]);
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED when the company's plan lacks the flag, and keeps its data", async () => {
    const t = await withPlan(server, { features: { useKanban: true } });
    expect((await server.call('POST', '/api/sample/notes', { token: t.token, body: { text: 'kept' } })).status).toBe(201);

    const { plans } = server.atende.container.services;
    await plans.update(t.planId, { useKanban: false });
    const off = await server.call('GET', '/api/sample/notes', { token: t.token });
    expect(off.status).toBe(403);
    expect(off.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', message: expect.any(String) });
    expect((await server.call('POST', '/api/sample/notes', { token: t.token, body: { text: 'refused' } })).status).toBe(403);

    await plans.update(t.planId, { useKanban: true });
    const on = await server.call('GET', '/api/sample/notes', { token: t.token });
    expect(on.status).toBe(200);
    expect(on.body.notes.map((n: { text: string }) => n.text)).toContain('kept');
    expect(on.body.notes.map((n: { text: string }) => n.text)).not.toContain('refused');
  });

  it('serves public routes without a token, whatever the plans', async () => {
    const res = await server.call('GET', '/api/sample/public/ping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pong: true });
  });

  it("does not put a plugin's login check on the core's or other plugins' routes", async () => {
    expect((await server.call('GET', '/api/version')).status).toBe(200);
    expect((await server.call('GET', '/api/plans/list')).status).toBe(200);
  });

  it('isolates a throwing event hook: the write that emitted the event succeeds and the other hooks run', async () => {
    const { token } = await server.login(SUPER_EMAIL, SUPER_PASSWORD);
    const res = await server.call('POST', '/api/users', {
      token,
      body: { name: 'Hooked', email: 'hooked@atende.test', password: PASSWORD, profile: 'user' },
    });
    expect(res.status).toBe(201);
    const { db } = server.atende.container;
    const user = await db('users').where('email', 'hooked@atende.test').first();
    expect(user).toBeDefined();
    expect((await notes(user.companyId)).map((n) => n.text)).toContain('welcome hooked@atende.test');
  });

  it("calls event hooks only for companies whose plan has the plugin's flag", async () => {
    const on = await withPlan(server, { features: { useKanban: true } });
    const off = await withPlan(server, { features: { useKanban: false } });
    expect((await notes(on.companyId)).map((n) => n.text)).toEqual([`welcome ${on.email}`]);
    expect(await notes(off.companyId)).toEqual([]);
  });

  it("checks a plugin job's flag again when it runs, for the job's company", async () => {
    const on = await withPlan(server, { features: { useKanban: true } });
    const off = await withPlan(server, { features: { useKanban: false } });
    const { jobs } = server.atende.container;
    await jobs.now(SAMPLE_JOB, { companyId: on.companyId });
    await jobs.now(SAMPLE_JOB, { companyId: off.companyId });
    await eventually(async () => {
      const { jobs: done } = await jobs.query({ name: SAMPLE_JOB });
      expect(done.map((j) => j.state)).toEqual(['completed', 'completed']);
    });
    expect((await notes(on.companyId)).map((n) => n.text)).toContain('job ran');
    expect(await notes(off.companyId)).toEqual([]);
  });
});

describe('plugin loading', () => {
  /** Starts on a throw-away SQLite folder: these failures happen before any database work that matters. */
  async function startWith(plugins: string[]) {
    const dir = mkdtempSync(path.join(tmpdir(), 'atende-plugins-'));
    try {
      const config = loadConfig({ dir, env: {}, flags: { port: 0, host: '127.0.0.1', logLevel: 'silent', plugins } });
      const atende = await startAtende(config, createLogger('silent', false));
      await atende.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('refuses to start with two plugins of one name', async () => {
    await expect(startWith([SAMPLE, path.join(fixtures, 'duplicate')])).rejects.toThrow(
      `Two plugins are named "sample": ${SAMPLE} and ${path.join(fixtures, 'duplicate')}`,
    );
  });

  it('refuses router-level middleware, which would run for every later /api route', async () => {
    await expect(startWith([path.join(fixtures, 'router-use')])).rejects.toThrow(/plugin router-use: publicRoutes used router\.use\(\)/);
  });

  it('names a configured plugin folder that does not exist', async () => {
    await expect(startWith(['./no-such-plugin'])).rejects.toThrow(/plugins: no such folder .*no-such-plugin/);
  });

  it('names a configured package that is not installed', async () => {
    await expect(startWith(['atende-plugin-not-installed'])).rejects.toThrow(
      'plugins: "atende-plugin-not-installed" is neither a folder nor an installed npm package',
    );
  });
});
