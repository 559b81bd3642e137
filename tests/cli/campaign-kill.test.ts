import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, bin, cleanEnv as env, initSite, serving, until } from '../helpers/cli.js';
import { createPgDatabase } from '../helpers/server.js';
import { SqliteDriver } from '../../core/db/sqlite-driver.js';

// The real binary (bin, running dist/), killed in the middle of a campaign.
const pgBase = process.env.ATENDE_TEST_PG_URL;

const EMAIL = 'super@atende.test';
const PASSWORD = 'kill-secret-123';
const CONTACTS = 120;
const KILL_AFTER = 40;

let work: string;
const running: ResultPromise[] = [];

/** `serve` with the simulator on, the campaign waits cut to a hundredth and a quick tick. */
function serve(dir: string): Promise<{ sub: ResultPromise; url: string }> {
  const sub = execa('node', [bin, 'serve', '--dir', dir], {
    cwd: work,
    env: { ...env, ATENDE_SIMULATOR: '1', ATENDE_LOG_LEVEL: 'warn', ATENDE_PLUGIN_CAMPAIGNS_WAIT_SCALE: '0.01', ATENDE_PLUGIN_CAMPAIGNS_TICK_EVERY_MS: '500' },
    extendEnv: false,
    reject: false,
  });
  running.push(sub);
  return serving(sub, 60_000).then(({ url }) => ({ sub, url }));
}

/** The installation's database from the outside: SQL in, rows out. */
interface Sql {
  rows(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function sqliteSql(dir: string): Sql {
  const db = new SqliteDriver(path.join(work, dir, 'data/atende.sqlite'));
  db.pragma('busy_timeout = 5000');
  return {
    rows: async (sql, params = []) => {
      const statement = db.prepare(sql.replace(/\$\d+/g, '?'));
      return statement.reader ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), []);
    },
    close: async () => void db.close(),
  };
}

async function pgSql(url: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { rows: async (sql, params = []) => (await client.query(sql, params)).rows as Record<string, unknown>[], close: () => client.end() };
}

/** What the simulated network took from the connection, across both processes (its outbox file). */
function sentLines(dir: string, connection: number): { id: string; to: string; body: string }[] {
  const file = path.join(work, dir, `data/simulator/outbox-${connection}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    // The line being written as it is read is left for the next read.
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { id: string; to: string; body: string }];
      } catch {
        return [];
      }
    });
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-campaign-kill-'));
});
// A test that failed leaves its servers running: they go before the next test (or its retry) serves the same site.
afterEach(async () => {
  for (const sub of running.splice(0)) {
    sub.kill('SIGKILL');
    await sub;
  }
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const databases = [{ name: 'SQLite' }, ...(pgBase ? [{ name: 'PostgreSQL' }] : [])];

describe.each(databases)('kill -9 in the middle of a campaign ($name)', ({ name }) => {
  const dir = `campaign-${name.toLowerCase()}`;
  let pgDatabase: Awaited<ReturnType<typeof createPgDatabase>> | undefined;

  beforeAll(async () => {
    pgDatabase = name === 'PostgreSQL' ? await createPgDatabase() : undefined;
    const init = await initSite(work, dir, { email: EMAIL, password: PASSWORD }, pgDatabase?.url);
    expect(init.exitCode, init.stderr).toBe(0);
  });
  afterAll(async () => {
    await pgDatabase?.drop();
  });

  it('every contact gets its message exactly once after the restart', async () => {
    const first = await serve(dir);
    const login = await api(first.url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD });
    const token = login.body.token as string;
    const companyId = login.body.user.companyId as number;
    const connection = (await api(first.url, 'POST', '/api/whatsapp', token, { name: 'Campanhas', provider: 'simulator' })).body.id as number;
    await until(async () => ((await api(first.url, 'POST', `/api/simulator/${connection}/scan`, token)).status === 200 ? true : undefined), 10_000, 'the scan');
    expect((await api(first.url, 'POST', '/api/campaign-settings', token, { settings: { messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 } })).status).toBe(200);

    // A list through the API; its numbers are checked on the simulated WhatsApp.
    const list = (await api(first.url, 'POST', '/api/contact-lists', token, { name: 'Clientes' })).body.id as number;
    const numbers = Array.from({ length: CONTACTS }, (_, i) => `55119${String(60_000_000 + i).padStart(8, '0')}`);
    for (const [i, number] of numbers.entries()) {
      const res = await api(first.url, 'POST', '/api/contact-list-items', token, { name: `Cliente ${i}`, number, email: '', contactListId: list });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const sql = pgDatabase ? await pgSql(pgDatabase.url) : sqliteSql(dir);
    try {
      await until(
        async () => (Number((await sql.rows(`SELECT COUNT(*) AS n FROM contact_list_items WHERE contact_list_id = ${list} AND is_whatsapp_valid = ${pgDatabase ? 'true' : '1'}`))[0]!.n) === CONTACTS ? true : undefined),
        30_000,
        'the WhatsApp check',
      );
      const now = new Date().toISOString();
      await sql.rows(
        `INSERT INTO campaigns (company_id, name, status, confirmation, scheduled_at, whatsapp_id, contact_list_id, message1, created_at, updated_at)
         VALUES ($1, 'Black Friday', 'PROGRAMADA', $2, $3, $4, $5, 'Olá {nome}', $6, $7)`,
        [companyId, pgDatabase ? false : 0, now, connection, list, now, now],
      );

      await until(async () => (sentLines(dir, connection).length >= KILL_AFTER ? true : undefined), 60_000, 'the first messages');
      first.sub.kill('SIGKILL');
      await first.sub;
      const atKill = sentLines(dir, connection).length;
      expect(atKill).toBeLessThan(CONTACTS);

      const second = await serve(dir);
      try {
        await until(
          async () => ((await sql.rows(`SELECT status FROM campaigns WHERE name = 'Black Friday'`))[0]?.status === 'FINALIZADA' ? true : undefined),
          90_000,
          'FINALIZADA',
        );
      } finally {
        second.sub.kill('SIGTERM');
        await second.sub;
      }
      const sent = sentLines(dir, connection);
      const copies = new Map<string, number>();
      for (const m of sent) copies.set(m.to, (copies.get(m.to) ?? 0) + 1);
      const lost = numbers.filter((n) => !copies.has(n));
      const doubled = [...copies].filter(([, n]) => n > 1);
      expect({ lost, doubled, total: sent.length }).toEqual({ lost: [], doubled: [], total: CONTACTS });
      const states = await sql.rows(`SELECT state, COUNT(*) AS n FROM campaign_shippings GROUP BY state`);
      expect(states.filter((s) => !['sent', 'delivered', 'read'].includes(s.state as string))).toEqual([]);
    } finally {
      await sql.close();
    }
  }, 300_000);

  it('a reply that confirms a contact sends its message once, even when the server is killed right after the reply', async () => {
    const first = await serve(dir);
    const login = await api(first.url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD });
    const token = login.body.token as string;
    const companyId = login.body.user.companyId as number;
    const connection = (await api(first.url, 'POST', '/api/whatsapp', token, { name: 'Confirmações', provider: 'simulator' })).body.id as number;
    await until(async () => ((await api(first.url, 'POST', `/api/simulator/${connection}/scan`, token)).status === 200 ? true : undefined), 10_000, 'the scan');
    const number = '5511970000001';
    const list = (await api(first.url, 'POST', '/api/contact-lists', token, { name: 'Confirmar' })).body.id as number;
    expect((await api(first.url, 'POST', '/api/contact-list-items', token, { name: 'Ana', number, email: '', contactListId: list })).status).toBe(201);
    const sql = pgDatabase ? await pgSql(pgDatabase.url) : sqliteSql(dir);
    try {
      await until(
        async () => (Number((await sql.rows(`SELECT COUNT(*) AS n FROM contact_list_items WHERE contact_list_id = ${list} AND is_whatsapp_valid = ${pgDatabase ? 'true' : '1'}`))[0]!.n) === 1 ? true : undefined),
        30_000,
        'the WhatsApp check',
      );
      const now = new Date().toISOString();
      await sql.rows(
        `INSERT INTO campaigns (company_id, name, status, confirmation, scheduled_at, whatsapp_id, contact_list_id, message1, confirmation_message1, created_at, updated_at)
         VALUES ($1, 'Confirmação', 'PROGRAMADA', $2, $3, $4, $5, 'A oferta, {nome}', 'Podemos enviar a oferta?', $6, $7)`,
        [companyId, pgDatabase ? true : 1, now, connection, list, now, now],
      );
      await until(async () => (sentLines(dir, connection).length === 1 ? true : undefined), 60_000, 'the confirmation request');

      // The customer answers; the server dies as soon as the message is received, before the offer can leave.
      const reply = await api(first.url, 'POST', `/api/simulator/${connection}/inbound`, token, { from: number, name: 'Ana', body: 'pode mandar' });
      first.sub.kill('SIGKILL');
      expect(reply.status).toBe(201);
      await first.sub;

      const second = await serve(dir);
      try {
        await until(
          async () => ((await sql.rows(`SELECT status FROM campaigns WHERE name = 'Confirmação'`))[0]?.status === 'FINALIZADA' ? true : undefined),
          90_000,
          'FINALIZADA',
        );
      } finally {
        second.sub.kill('SIGTERM');
        await second.sub;
      }
      expect(sentLines(dir, connection).map((m) => [m.to, m.body])).toEqual([
        [number, 'Podemos enviar a oferta?'],
        [number, 'A oferta, Ana'],
      ]);
    } finally {
      await sql.close();
    }
  }, 300_000);
});
