import { PostgresBackend } from '@agendajs/postgres-backend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobBackend, createJobEngine, DeferredMongoBackend } from '../../core/jobs/job-backend.js';
import type { AgendaBackend } from 'agenda';
import { aroundLocks, JobEngine, type JobData } from '../../core/jobs/job-engine.js';
import { KnexBackend } from '../../core/jobs/knex-backend.js';
import { eventually } from '../helpers/inbox.js';
import { startTestServer, testDatabase, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Defines `name` on `engine`; the promise settles with the data of its first run. */
function firstRun(engine: JobEngine, name: string, runs: { data: JobData; at: number }[] = []): Promise<JobData> {
  return new Promise((resolve) => {
    engine.define(name, async (data) => {
      runs.push({ data, at: Date.now() });
      resolve(data);
    });
  });
}

/** Another engine on the test server's job store, polling fast. */
function engineOnSameStore(): JobEngine {
  const { config, db, log } = server.atende.container;
  return createJobEngine(config, db, log, { processEvery: 100 });
}

describe('job engine', () => {
  it('stores jobs in MongoDB when jobsUrl names it, else beside the main database', () => {
    const { db } = server.atende.container;
    const sqlite = { client: 'sqlite', filename: '/tmp/unused.sqlite' } as const;
    const pg = { client: 'pg', connectionString: 'postgres://atende@127.0.0.1:5432/unused' } as const;
    expect(createJobBackend({ jobsUrl: 'mongodb://127.0.0.1:27017/atende', database: sqlite }, db)).toBeInstanceOf(DeferredMongoBackend);
    expect(createJobBackend({ jobsUrl: 'mongodb+srv://cluster.example/atende', database: pg }, db)).toBeInstanceOf(DeferredMongoBackend);
    expect(createJobBackend({ database: pg }, db)).toBeInstanceOf(PostgresBackend);
    expect(createJobBackend({ database: sqlite }, db)).toBeInstanceOf(KnexBackend);
    expect(server.atende.container.jobs.backend).toBeInstanceOf(testDatabase === 'pg' ? PostgresBackend : KnexBackend);
  });

  it('refuses a jobsUrl that is not MongoDB without repeating its secret', () => {
    const { db } = server.atende.container;
    const attempt = () => createJobBackend({ jobsUrl: 'redis://:hunter2@cache:6379', database: { client: 'sqlite', filename: 'x' } }, db);
    expect(attempt).toThrow('jobsUrl: must be a MongoDB address');
    expect(attempt).not.toThrow(/hunter2/);
  });

  it('runs a job enqueued with now()', async () => {
    const { jobs } = server.atende.container;
    const ran = firstRun(jobs, 'test.now');
    await jobs.now('test.now', { ticketId: 12 });
    expect(await ran).toEqual({ ticketId: 12 });
  });

  it('runs a scheduled job once, not before its time', async () => {
    const { jobs } = server.atende.container;
    const runs: { data: JobData; at: number }[] = [];
    const ran = firstRun(jobs, 'test.scheduled', runs);
    const when = new Date(Date.now() + 1000);
    await jobs.schedule(when, 'test.scheduled', { messageId: 3 });
    await ran;
    expect(runs[0]!.at).toBeGreaterThanOrEqual(when.getTime());
    // Two more polls of the container's engine (every 1 s): still one run.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(runs).toHaveLength(1);
    const { jobs: stored } = await jobs.query({ name: 'test.scheduled' });
    expect(stored.map((j) => j.state)).toEqual(['completed']);
  });

  it('keeps one row for a repeating job registered twice, one per key when it has data', async () => {
    const { jobs } = server.atende.container;
    await jobs.every(60_000, 'test.every');
    await jobs.every(60_000, 'test.every');
    expect((await jobs.query({ name: 'test.every' })).total).toBe(1);

    await jobs.every(60_000, 'test.every.company', { companyId: 1 });
    await jobs.every(30_000, 'test.every.company', { companyId: 1 });
    await jobs.every(60_000, 'test.every.company', { companyId: 2 });
    const { jobs: rows } = await jobs.query({ name: 'test.every.company' });
    const company = (j: { data: unknown }) => (j.data as JobData).companyId as number;
    const byCompany = rows.sort((a, b) => company(a) - company(b));
    expect(byCompany.map((j) => [j.data, Number(j.repeatInterval), j.state])).toEqual([
      [{ companyId: 1 }, 30_000, 'repeating'],
      [{ companyId: 2 }, 60_000, 'repeating'],
    ]);
  });

  it('cancels jobs by name and data', async () => {
    const { jobs } = server.atende.container;
    const later = new Date(Date.now() + 3_600_000);
    await jobs.schedule(later, 'test.cancel', { campaignId: 5, contactId: 1 });
    await jobs.schedule(later, 'test.cancel', { campaignId: 6, contactId: 1 });
    expect(await jobs.cancel({ name: 'test.cancel', data: { campaignId: 5 } })).toBe(1);
    const { jobs: left } = await jobs.query({ name: 'test.cancel' });
    expect(left.map((j) => j.data)).toEqual([{ campaignId: 6, contactId: 1 }]);
  });

  it('runs a scheduled job after a restart: the store, not the process, holds it', async () => {
    const runs: { data: JobData; at: number }[] = [];
    const first = engineOnSameStore();
    void firstRun(first, 'test.restart', runs);
    await first.start();
    await first.schedule(new Date(Date.now() + 700), 'test.restart', { contactId: 7 });
    await first.stop();
    expect(runs).toEqual([]);

    const second = engineOnSameStore();
    const ran = firstRun(second, 'test.restart', runs);
    await second.start();
    try {
      expect(await ran).toEqual({ contactId: 7 });
    } finally {
      await second.stop();
    }
    expect(runs).toHaveLength(1);
  });

  it('waits at stop for a running job to save its state', async () => {
    const engine = engineOnSameStore();
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      engine.define('test.slow', async () => {
        resolve();
        await new Promise<void>((done) => (release = done));
      });
    });
    await engine.start();
    await engine.now('test.slow', {});
    await started;
    const stopped = engine.stop();
    setTimeout(() => release(), 200);
    await stopped;
    const { jobs: rows } = await server.atende.container.jobs.query({ name: 'test.slow' });
    expect(rows.map((j) => j.state)).toEqual(['completed']);
  });

  it('jobs a stopping engine was locking run on the next engine at once, not when their locks expire', async () => {
    const name = 'test.locked-at-stop';
    const { config, db, jobs, log } = server.atende.container;
    const store = createJobBackend(config, db);
    // Each lock request of these jobs reaches the database a moment late: the engine stops while
    // the first is under way, and Agenda asks for the next job of the name once it is answered.
    let asked!: () => void;
    const asking = new Promise<void>((resolve) => (asked = resolve));
    let underWay = 0;
    // getNextJobToRun(name, …) and lockJob(job, …).
    const slowToLock = aroundLocks(store.repository, async (lock, [job]) => {
      if (job !== name && (job as { name?: string }).name !== name) return lock();
      underWay += 1;
      asked();
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return await lock();
      } finally {
        underWay -= 1;
      }
    });
    const backend: AgendaBackend = {
      name: store.name,
      repository: slowToLock,
      ownsConnection: true,
      connect: () => store.connect(),
      disconnect: () => store.disconnect(),
    };
    await jobs.now(name, { ticketId: 5 });
    await jobs.now(name, { ticketId: 6 });
    const stopping = new JobEngine(backend, log, { processEvery: 100 });
    const early: JobData[] = [];
    stopping.define(name, async (data) => void early.push(data));
    await stopping.start();
    await asking;
    await stopping.stop();
    await eventually(async () => underWay === 0, 5000, 'the lock requests answered');
    expect(early).toEqual([]);

    const next = engineOnSameStore();
    const runs: { data: JobData; at: number }[] = [];
    void firstRun(next, name, runs);
    await next.start();
    try {
      await eventually(async () => runs.length === 2, 10_000, 'both jobs run');
      expect(runs.map((r) => r.data.ticketId).sort()).toEqual([5, 6]);
    } finally {
      await next.stop();
    }
  });

  it('refuses a second definition of one job name', () => {
    const engine = engineOnSameStore();
    engine.define('test.twice', async () => {});
    expect(() => engine.define('test.twice', async () => {})).toThrow('The job "test.twice" is defined twice');
  });
});
