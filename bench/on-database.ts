import type { Knex } from 'knex';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../core/config/load-config.js';
import { createLogger } from '../core/logger.js';
import { startAtende, type Atende } from '../core/boot.js';
import { benchDatabase, PASSWORD, type BenchDatabase, type DatasetMeta } from './dataset.js';
import type { Figures } from './figures.js';

/**
 * The server under measurement runs in this process (which `npm run bench` starts with the
 * server's node flags, SERVER_NODE_FLAGS), on a run copy of the dataset, with the
 * simulator on (the dataset's paired simulator connection takes the inbound load); every client
 * runs in the load generator's own process (bench/load.ts).
 */
async function startServer(database: BenchDatabase): Promise<{ atende: Atende; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-bench-server-'));
  const config = loadConfig({
    dir,
    env: {},
    flags: {
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      databaseUrl: database.databaseUrl,
      adminEmail: 'super@bench.local',
      adminPassword: 'bench-super-secret',
      simulator: true,
    },
  });
  return { atende: await startAtende(config, createLogger('silent', false)), dir };
}

export async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  if (res.status !== 200) throw new Error(`bench login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A bench on a running server; `db` is the server's own database, for checks of what it stored. */
export type OnServer = (url: string, meta: DatasetMeta, kind: 'sqlite' | 'pg', db: Knex) => Promise<Figures>;

/** A run copy of the dataset on `kind`, a server on it, and `run`'s figures labelled with the database. */
async function onDatabase(kind: 'sqlite' | 'pg', run: OnServer, pgUrl?: string): Promise<Figures> {
  const started = performance.now();
  const database = await benchDatabase(kind, { pgUrl });
  const figures: Figures = {};
  try {
    figures.dataset = `${database.meta.messages.toLocaleString('en')} messages, ${database.built ? `built in ${database.meta.buildSeconds} s` : 'from the cache'}; ready in ${Math.round((performance.now() - started) / 1000)} s`;
    const { atende, dir } = await startServer(database);
    try {
      Object.assign(figures, await run(atende.server.url, database.meta, kind, atende.container.db));
    } finally {
      await atende.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await database.release();
  }
  return Object.fromEntries(Object.entries(figures).map(([label, value]) => [`[${kind}] ${label}`, value]));
}

/**
 * `run` on SQLite, then on PostgreSQL when ATENDE_BENCH_PG_URL (or ATENDE_TEST_PG_URL) names a
 * server; ATENDE_BENCH_DB=sqlite or =pg runs on that one only (a 10× dataset of each takes tens of
 * GB: one at a time).
 */
export async function onEachDatabase(run: OnServer): Promise<Figures> {
  const only = process.env.ATENDE_BENCH_DB;
  if (only !== undefined && only !== 'sqlite' && only !== 'pg') throw new Error(`ATENDE_BENCH_DB must be sqlite or pg (got ${only})`);
  const figures = only === 'pg' ? {} : await onDatabase('sqlite', run);
  if (only === 'sqlite') return figures;
  const pgUrl = process.env.ATENDE_BENCH_PG_URL ?? process.env.ATENDE_TEST_PG_URL;
  if (pgUrl) Object.assign(figures, await onDatabase('pg', run, pgUrl));
  else figures['[pg]'] = 'skipped: set ATENDE_BENCH_PG_URL=postgres://… to run on PostgreSQL too';
  return figures;
}
