import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../core/config/load-config.js';
import type { Config, ConfigValues } from '../../core/config/config.schema.js';
import { createLogger } from '../../core/logger.js';
import { startAtende, type Atende } from '../../core/boot.js';
import { closeDatabase, createDatabase } from '../../core/db/database.js';
import { createMigrator } from '../../core/cli/migrations.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite database with every migration applied (tests/global-setup.ts), copied rather than migrated again. */
    sqliteTemplate?: string;
    /** On PostgreSQL, the name of a database with every migration applied, each test server's database a copy of it. */
    pgTemplate?: string;
  }
}

export const SUPER_EMAIL = 'super@atende.test';
export const SUPER_PASSWORD = 'super-secret';

/** Which database the API tests run on: SQLite by default, PostgreSQL when ATENDE_TEST_DB=pg. */
export const testDatabase = process.env.ATENDE_TEST_DB === 'pg' ? 'pg' : 'sqlite';

export interface TestServer {
  url: string;
  atende: Atende;
  config: Config;
  /** HTTP call with JSON in and out; `token` sends a bearer. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** Logs in and answers the access token (and the refresh cookie). */
  login(email: string, password: string): Promise<{ token: string; cookie: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
  headers: Headers;
}

/**
 * A fresh PostgreSQL database on the server of `base` (ATENDE_TEST_PG_URL), one per test server,
 * dropped on close: empty, or `migrated` as a copy of the run's migrated template when there is one.
 */
export async function createPgDatabase({ migrated = false, base = process.env.ATENDE_TEST_PG_URL } = {}): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  if (!base) throw new Error('ATENDE_TEST_DB=pg needs ATENDE_TEST_PG_URL');
  const name = `atende_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const template = migrated ? inject('pgTemplate') : undefined;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      // A connection of the stopped server may still be saying goodbye: wait for it rather than
      // cut it (a cut one raises an error in this process). Force only what lingers.
      for (let attempt = 0; ; attempt += 1) {
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name}${attempt >= 50 ? ' WITH (FORCE)' : ''}`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await client.end();
    },
  };
}

/**
 * A database that outlives its servers, for tests that stop a server and start another on the same
 * data (a restart): a fresh PostgreSQL database, or a SQLite file in a temporary folder. `drop`
 * removes it once the test's servers are closed.
 */
export async function restartableDatabase(): Promise<{ databaseUrl: string; drop: () => Promise<void> }> {
  if (testDatabase === 'pg') {
    const db = await createPgDatabase({ migrated: true });
    return { databaseUrl: db.url, drop: db.drop };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-restart-'));
  return { databaseUrl: path.join(dir, 'atende.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestServerOptions {
  /**
   * Another server whose database (and data folder, so its secrets) this one shares: a second
   * process of one installation. Close it before that server, which owns the database.
   */
  sameDatabaseAs?: TestServer;
}

const TEST_FLAGS = { port: 0, host: '127.0.0.1', adminEmail: SUPER_EMAIL, adminPassword: SUPER_PASSWORD } satisfies Partial<ConfigValues>;

/** Applies the core's and the plugins' migrations to the database `flags` name, as a test server's boot applies them. */
async function migrate(dir: string, flags: Partial<ConfigValues> = {}): Promise<Config> {
  const config = loadConfig({ dir, env: {}, flags: { ...TEST_FLAGS, logLevel: 'silent', ...flags } });
  const db = createDatabase(config.database);
  try {
    await (await createMigrator(db, config)).latest();
  } finally {
    await closeDatabase(db);
  }
  return config;
}

/** A migrated SQLite database in `dir`; answers its file. */
export async function migratedSqliteTemplate(dir: string): Promise<string> {
  const { database } = await migrate(dir);
  if (database.client !== 'sqlite') throw new Error('the template is a SQLite database');
  return database.filename;
}

/** A migrated PostgreSQL database on ATENDE_TEST_PG_URL's server (no connection left open on it, as a template needs). */
export async function migratedPgTemplate(): Promise<{ name: string; drop: () => Promise<void> }> {
  const template = await createPgDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-pg-template-'));
  try {
    await migrate(dir, { databaseUrl: template.url });
  } catch (err) {
    await template.drop();
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return template;
}

/** Starts the real server (boot sequence, HTTP on a free port) on a fresh database. */
export async function startTestServer(flags: Partial<ConfigValues> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const shared = options.sameDatabaseAs?.config;
  const dir = shared ? shared.dir : mkdtempSync(path.join(tmpdir(), 'atende-test-'));
  const pgDb = testDatabase === 'pg' && !shared ? await createPgDatabase({ migrated: true }) : undefined;
  const sharedUrl = shared?.database.client === 'pg' ? shared.database.connectionString : undefined;
  const config = loadConfig({
    dir,
    env: {},
    flags: {
      ...TEST_FLAGS,
      logLevel: (process.env.ATENDE_TEST_LOG as ConfigValues['logLevel']) ?? 'silent',
      ...(pgDb ? { databaseUrl: pgDb.url } : {}),
      ...(sharedUrl ? { databaseUrl: sharedUrl } : {}),
      ...flags,
    },
  });
  // A new SQLite file starts as the run's migrated template, when there is one: the boot then finds nothing to migrate.
  const template = inject('sqliteTemplate');
  if (template && config.database.client === 'sqlite' && config.database.filename !== ':memory:' && !existsSync(config.database.filename)) {
    mkdirSync(path.dirname(config.database.filename), { recursive: true });
    copyFileSync(template, config.database.filename);
  }
  let atende: Atende;
  try {
    atende = await startAtende(config, createLogger(config.logLevel, false));
  } catch (err) {
    // A start refused on purpose leaves no database or folder behind.
    if (!shared) {
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
    throw err;
  }
  const url = atende.server.url;

  const call = async (method: string, route: string, options: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.Cookie = options.cookie;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const res = await fetch(url + route, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  const login = async (email: string, password: string) => {
    const res = await call('POST', '/api/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    return { token: res.body.token as string, cookie, body: res.body as Record<string, unknown> };
  };

  return {
    url,
    atende,
    config,
    call,
    login,
    async close() {
      await atende.stop();
      if (shared) return;
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
