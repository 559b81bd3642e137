import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, bin, cleanEnv as env, initSite, freePort, serving, until } from '../helpers/cli.js';
import { createPgDatabase } from '../helpers/server.js';
import { SqliteDriver } from '../../core/db/sqlite-driver.js';

/**
 * Nodes without Redis (the real binary, running dist/): one alone on its database gets its sessions
 * back at once after a crash; a second one on the same database refuses to start.
 */
const pgBase = process.env.ATENDE_TEST_PG_URL;

const EMAIL = 'super@atende.test';
const PASSWORD = 'alone-secret-123';

let work: string;
const running: ResultPromise[] = [];

/** One statement on the installation's database, from the outside (the server is down). */
async function execute(dir: string, databaseUrl: string | undefined, sql: string): Promise<void> {
  if (!databaseUrl) {
    const db = new SqliteDriver(path.join(work, dir, 'data/atende.sqlite'));
    db.prepare(sql).run();
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

/** `serve` with the simulator on, without Redis, on a free port (in an object: the process is a promise of its end). */
async function serve(dir: string): Promise<{ sub: ResultPromise }> {
  const sub = execa('node', [bin, 'serve', '--dir', dir, '--port', String(await freePort())], {
    cwd: work,
    env: { ...env, ATENDE_SIMULATOR: '1', ATENDE_LOG_LEVEL: 'warn' },
    extendEnv: false,
    reject: false,
  });
  running.push(sub);
  return { sub };
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-alone-'));
});
afterAll(() => {
  for (const sub of running) sub.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const databases = [{ name: 'SQLite' }, ...(pgBase ? [{ name: 'PostgreSQL' }] : [])];

describe.each(databases)('a node without Redis ($name)', ({ name }) => {
  const dir = name.toLowerCase();
  let pgDatabase: Awaited<ReturnType<typeof createPgDatabase>> | undefined;

  beforeAll(async () => {
    pgDatabase = name === 'PostgreSQL' ? await createPgDatabase() : undefined;
    const init = await initSite(work, dir, { email: EMAIL, password: PASSWORD }, pgDatabase?.url);
    expect(init.exitCode, init.stderr).toBe(0);
  });
  afterAll(async () => {
    await pgDatabase?.drop();
  });

  it('refuses a second node on its database in one line; killed and started again, it runs its sessions again at once', async () => {
    const { sub: first } = await serve(dir);
    const { url } = await serving(first, 60_000);
    const login = await api(url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD });
    const token = login.body.token as string;
    const created = await api(url, 'POST', '/api/whatsapp', token, { name: 'Alone phone', provider: 'simulator' });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const ownerOf = async (at: string) => ((await api(at, 'GET', `/api/whatsapp/${id}`, token)).body as { node: string | null }).node;
    const crashed = await until(async () => (await ownerOf(url)) ?? undefined, 10_000, 'the session to be owned');

    const { sub: second } = await serve(dir);
    const refused = await second;
    expect(refused.exitCode).not.toBe(0);
    expect(String(refused.stderr).trim().split('\n')).toEqual([expect.stringMatching(/^atende: Another node \(.+\) runs WhatsApp sessions on this database \(or died less than 15 s ago\): every node of one installation needs redisUrl/)]);
    expect(String(refused.stderr)).toContain(crashed);
    expect(await ownerOf(url)).toBe(crashed);

    first.kill('SIGKILL');
    await first;
    // The crashed run's lease, live for an hour rather than the 15 s left at most: the new run takes
    // it before it serves, not at its expiry.
    await execute(dir, pgDatabase?.url, `UPDATE session_leases SET expires_at = expires_at + 3600000 WHERE connection_id = ${id}`);
    const { sub: again } = await serve(dir);
    const restarted = await serving(again, 60_000);
    const owner = await ownerOf(restarted.url);
    expect(owner).not.toBeNull();
    expect(owner).not.toBe(crashed);
    again.kill('SIGTERM');
    expect((await again).exitCode).toBe(0);
  }, 120_000);
});
