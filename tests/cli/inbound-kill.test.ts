import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, bin, cleanEnv as env, initSite, serving, startSimulatorServer, until } from '../helpers/cli.js';
import { createPgDatabase } from '../helpers/server.js';
import { SqliteDriver } from '../../core/db/sqlite-driver.js';

// The real binary (bin, running dist/), killed mid-burst.
const pgBase = process.env.ATENDE_TEST_PG_URL;

const EMAIL = 'super@atende.test';
const PASSWORD = 'kill-secret-123';
const CHATS = 10;
const MESSAGES = 300;
const KILL_AFTER = 150;

let work: string;
const running: ResultPromise[] = [];

/** Starts `serve` with the simulator on (its phones at `simulatorUrl` when given) and resolves with the process once it serves. */
function serve(dir: string, simulatorUrl?: string): Promise<{ sub: ResultPromise; url: string }> {
  const sub = execa('node', [bin, 'serve', '--dir', dir], {
    cwd: work,
    env: { ...env, ATENDE_SIMULATOR: '1', ATENDE_LOG_LEVEL: 'warn', ...(simulatorUrl && { ATENDE_SIMULATOR_URL: simulatorUrl }) },
    extendEnv: false,
    reject: false,
  });
  running.push(sub);
  return serving(sub, 60_000).then(({ url }) => ({ sub, url }));
}



/** The installation's database, read from the outside: SQL in, rows out. */
interface Reader {
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function sqliteReader(dir: string): Reader {
  const db = new SqliteDriver(path.join(work, dir, 'data/atende.sqlite'), { readonly: true });
  return { rows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[], close: async () => void db.close() };
}

async function pgReader(url: string): Promise<Reader> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { rows: async (sql) => (await client.query(sql)).rows as Record<string, unknown>[], close: () => client.end() };
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-kill-'));
});
afterAll(() => {
  for (const sub of running) sub.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const databases = [{ name: 'SQLite' }, ...(pgBase ? [{ name: 'PostgreSQL' }] : [])];

describe.each(databases)('kill -9 in the middle of an inbound burst ($name)', ({ name }) => {
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

  it('every message answered 201 is stored exactly once after the restart', async () => {
    const first = await serve(dir);
    const token = (await api(first.url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD })).body.token as string;
    const connection = (await api(first.url, 'POST', '/api/whatsapp', token, { name: 'Phone', provider: 'simulator' })).body.id as number;
    await until(async () => ((await api(first.url, 'POST', `/api/simulator/${connection}/scan`, token)).status === 200 ? true : undefined), 10_000, 'the scan');

    // Every chat gets its share of the burst; the server dies right after the 150th 201.
    const acknowledged: string[] = [];
    const burst = Array.from({ length: MESSAGES }, async (_, i) => {
      const id = `KILL-${i}`;
      const from = `55119${String(80_000_000 + (i % CHATS)).padStart(8, '0')}`;
      try {
        const res = await api(first.url, 'POST', `/api/simulator/${connection}/inbound`, token, { id, from, name: 'Cliente', body: `mensagem ${i}` });
        if (res.status !== 201) return;
        acknowledged.push(id);
        if (acknowledged.length === KILL_AFTER) first.sub.kill('SIGKILL');
      } catch {
        // the server died with this request in flight: never acknowledged
      }
    });
    await Promise.all(burst);
    first.sub.kill('SIGKILL'); // already dead, unless fewer than KILL_AFTER were answered
    await first.sub;
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await serve(dir);
    const reader = pgDatabase ? await pgReader(pgDatabase.url) : sqliteReader(dir);
    try {
      await until(
        async () => ((await reader.rows(`SELECT id FROM inbound_journal WHERE failed_at IS NULL`)).length === 0 ? true : undefined),
        15_000,
        'the journal to be processed',
      );
      const stored = await reader.rows(`SELECT wid, COUNT(*) AS copies FROM messages WHERE wid LIKE 'KILL-%' GROUP BY wid`);
      const copies = new Map(stored.map((row) => [row.wid as string, Number(row.copies)]));
      const lost = acknowledged.filter((id) => !copies.has(id));
      const doubled = [...copies].filter(([, n]) => n > 1);
      expect({ lost, doubled }).toEqual({ lost: [], doubled: [] });
    } finally {
      await reader.close();
      second.sub.kill('SIGTERM');
      await second.sub;
    }
  }, 240_000); // about 15 s on an idle machine; room for a loaded one

  it('with the phones at `atende simulate server`, every message given to it, before, during and after the kill, is stored once, in order per chat', async () => {
    const { sub: simulator, url: simulatorUrl } = await startSimulatorServer({ cwd: work });
    running.push(simulator);
    const first = await serve(dir, simulatorUrl);
    const token = (await api(first.url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD })).body.token as string;
    const connection = (await api(first.url, 'POST', '/api/whatsapp', token, { name: 'Remote phone', provider: 'simulator' })).body.id as number;
    await until(async () => ((await api(first.url, 'POST', `/api/simulator/${connection}/scan`, token)).status === 200 ? true : undefined), 10_000, 'the scan');

    // Customers write at the simulator server, a message per chat at a time; the node dies halfway.
    const ROUNDS = 30;
    const answers: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch = Array.from({ length: CHATS }, (_, chat) => ({
        id: `REMOTE-KILL-${String(round).padStart(2, '0')}-${chat}`,
        from: `55119${String(81_000_000 + chat).padStart(8, '0')}`,
        name: 'Cliente',
        body: `mensagem ${round}`,
      }));
      answers.push((await api(simulatorUrl, 'POST', `/connections/${connection}/inbound`, undefined, batch)).status);
      if (round === ROUNDS / 2) {
        first.sub.kill('SIGKILL');
        await first.sub;
      }
    }
    // Journaled by the node while it lived; kept by the server for the next one after.
    expect(answers).toEqual([...Array(ROUNDS / 2 + 1).fill(201), ...Array(ROUNDS / 2 - 1).fill(202)]);

    const second = await serve(dir, simulatorUrl);
    const reader = pgDatabase ? await pgReader(pgDatabase.url) : sqliteReader(dir);
    try {
      const rows = await until(async () => {
        const found = await reader.rows(`SELECT wid, remote_jid FROM messages WHERE wid LIKE 'REMOTE-KILL-%' ORDER BY id`);
        return found.length >= ROUNDS * CHATS ? found : undefined;
      }, 30_000, 'every message to be stored');
      expect(new Set(rows.map((row) => row.wid)).size).toBe(rows.length);
      for (let chat = 0; chat < CHATS; chat += 1) {
        const wids = rows.filter((row) => String(row.wid).endsWith(`-${chat}`)).map((row) => row.wid);
        expect(wids).toEqual(Array.from({ length: ROUNDS }, (_, round) => `REMOTE-KILL-${String(round).padStart(2, '0')}-${chat}`));
      }
    } finally {
      await reader.close();
      second.sub.kill('SIGTERM');
      await second.sub;
      simulator.kill('SIGTERM');
      await simulator;
    }
  }, 240_000);
});
