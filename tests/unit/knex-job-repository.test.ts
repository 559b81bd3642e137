import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toJobId, type JobParameters } from 'agenda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase, type Database } from '../../core/db/database.js';
import { Migrator } from '../../core/db/migrator.js';
import { KnexJobRepository } from '../../core/jobs/knex-backend.js';

// The repository behind Agenda on SQLite, on a migrated SQLite file of its own.
const dir = mkdtempSync(path.join(tmpdir(), 'atende-jobs-'));
let db: Database;
beforeAll(async () => {
  db = createDatabase({ client: 'sqlite', filename: path.join(dir, 'jobs.sqlite') });
  await new Migrator(db).latest();
});
afterAll(async () => {
  if (db) await closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe('Knex job repository (the SQLite job store)', () => {
  const repository = () => new KnexJobRepository(db);
  const job = (name: string, nextRunAt: Date | null): JobParameters => ({ name, priority: 0, nextRunAt, type: 'normal', data: {} });

  it('locks a due job for one caller only', async () => {
    const repo = repository();
    const saved = await repo.saveJob(job('repo.lock', new Date(Date.now() - 1000)), undefined);
    const scan = () => repo.getNextJobToRun('repo.lock', new Date(), new Date(Date.now() - 60_000), undefined, { lastModifiedBy: 'test' });
    const [a, b] = await Promise.all([scan(), scan()]);
    expect([a?._id, b?._id].filter(Boolean)).toEqual([saved._id]);
    expect((a ?? b)!.lockedAt).toBeInstanceOf(Date);
  });

  it('takes over a job whose lock expired', async () => {
    const repo = repository();
    const saved = await repo.saveJob(job('repo.expired', new Date(Date.now() - 1000)), undefined);
    await repo.getNextJobToRun('repo.expired', new Date(), new Date(Date.now() - 60_000), new Date(Date.now() - 120_000), undefined);
    expect(await repo.getNextJobToRun('repo.expired', new Date(), new Date(Date.now() - 60_000), undefined, undefined)).toMatchObject({
      _id: saved._id,
    });
  });

  it('leaves a job without a next run locked on unlockJob', async () => {
    const repo = repository();
    const saved = await repo.saveJob(job('repo.unlock', new Date(Date.now() - 1000)), undefined);
    const locked = (await repo.getNextJobToRun('repo.unlock', new Date(), new Date(0), undefined, undefined))!;
    await repo.saveJobState({ ...locked, nextRunAt: null }, undefined);
    await repo.unlockJob({ ...locked, nextRunAt: null });
    expect((await repo.getJobById(saved._id!))!.lockedAt).toBeInstanceOf(Date);
  });

  it('refuses to save the state of a job that is gone', async () => {
    const repo = repository();
    const saved = await repo.saveJob(job('repo.gone', null), undefined);
    await repo.removeJobs({ id: saved._id });
    await expect(repo.saveJobState(saved, undefined)).rejects.toThrow(/cannot be updated in the database/);
    expect(await repo.getJobById(toJobId('not-a-number'))).toBeNull();
  });

  it('upserts a repeating job by name without pushing back a due run', async () => {
    const repo = repository();
    const due = new Date(Date.now() - 5000);
    const first = await repo.saveJob({ ...job('repo.single', due), type: 'single', repeatInterval: 60_000 }, undefined);
    const again = await repo.saveJob({ ...job('repo.single', new Date()), type: 'single', repeatInterval: 30_000 }, undefined);
    expect(again._id).toBe(first._id);
    expect(again.nextRunAt).toEqual(due);
    expect(again.repeatInterval).toBe('30000');
  });

  it('counts jobs by state in the overview', async () => {
    const repo = repository();
    await repo.saveJob(job('repo.overview', new Date(Date.now() + 60_000)), undefined);
    await repo.disableJobs({ name: 'repo.overview' });
    const overview = (await repo.getJobsOverview()).find((o) => o.name === 'repo.overview');
    expect(overview).toMatchObject({ total: 1, scheduled: 1, paused: 1 });
    expect((await repo.queryJobs({ name: 'repo.overview', includeDisabled: false })).total).toBe(0);
  });
});
