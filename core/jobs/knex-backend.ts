import {
  computeJobState,
  InMemoryNotificationChannel,
  toJobId,
  type AgendaBackend,
  type JobId,
  type JobParameters,
  type JobRepository,
  type JobRepositoryOptions,
  type JobsOverview,
  type JobsQueryOptions,
  type JobsResult,
  type JobsSort,
  type RemoveJobsOptions,
} from 'agenda';
import type { Knex } from 'knex';
import type { Database } from '../db/database.js';

/** Created by migrations/20261122000100_core_jobs.ts. */
export const JOBS_TABLE = 'jobs';

/** A row as the snake-case mappers hand it back: dates in epoch ms, data as JSON text. */
interface JobRow {
  id: number;
  name: string;
  priority: number;
  nextRunAt: number | string | null;
  type: 'normal' | 'single';
  lockedAt: number | string | null;
  lastFinishedAt: number | string | null;
  failedAt: number | string | null;
  failCount: number | null;
  failReason: string | null;
  repeatTimezone: string | null;
  lastRunAt: number | string | null;
  repeatInterval: string | null;
  data: string | null;
  repeatAt: string | null;
  disabled: boolean | number;
  progress: number | null;
  fork: boolean | number;
  lastModifiedBy: string | null;
  debounceStartedAt: number | string | null;
  startDate: number | string | null;
  endDate: number | string | null;
  skipDays: string | null;
}

/** Columns a `unique` key may name besides `data.<path>`; anything else is refused. */
const UNIQUE_COLUMNS = new Set(['name', 'priority', 'type', 'repeatInterval', 'repeatTimezone', 'repeatAt', 'disabled']);

const SORT_COLUMNS: Record<keyof JobsSort, string> = {
  nextRunAt: 'nextRunAt',
  lastRunAt: 'lastRunAt',
  lastFinishedAt: 'lastFinishedAt',
  priority: 'priority',
  name: 'name',
  data: 'data',
};

type DateInput = Date | string | number | null | undefined;

function ms(value: DateInput): number | null {
  if (value === null || value === undefined) return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : time;
}

function date(value: number | string | null): Date | undefined {
  return value === null ? undefined : new Date(Number(value));
}

/** A SQLite JSON path for the keys of `data`, each quoted so dots and spaces inside keys are kept. */
function jsonPath(keys: string[]): string {
  return `$${keys.map((k) => `."${k.replace(/"/g, '\\"')}"`).join('')}`;
}

/** One condition: the JSON value at `path` equals `value`, compared as SQLite types it. */
function whereJsonValue(query: Knex.QueryBuilder, path: string, value: unknown): void {
  if (value === null) {
    query.whereRaw("json_type(data, ?) = 'null'", [path]);
  } else if (typeof value === 'boolean') {
    query.whereRaw('json_extract(data, ?) = ?', [path, value ? 1 : 0]);
  } else if (typeof value === 'number' || typeof value === 'string') {
    query.whereRaw('json_extract(data, ?) = ?', [path, value]);
  } else {
    query.whereRaw('json_extract(data, ?) = json(?)', [path, JSON.stringify(value)]);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Partial match like PostgreSQL's `data @> value`: every leaf of an object pattern must be present and equal. */
function whereDataContains(query: Knex.QueryBuilder, pattern: unknown, keys: string[] = []): void {
  if (isPlainObject(pattern)) {
    for (const [key, value] of Object.entries(pattern)) whereDataContains(query, value, [...keys, key]);
  } else if (keys.length === 0) {
    query.whereRaw('json(data) = json(?)', [JSON.stringify(pattern)]);
  } else {
    whereJsonValue(query, jsonPath(keys), pattern);
  }
}

function idList(ids: (JobId | string)[]): number[] {
  return ids.map(Number).filter((id) => Number.isInteger(id) && id > 0);
}

/**
 * Agenda's JobRepository on the main Knex connection, for the embedded SQLite default. Its
 * semantics follow @agendajs/postgres-backend: `single` jobs upsert by name, getNextJobToRun locks
 * with one UPDATE … WHERE id = (SELECT …) RETURNING (SQLite serialises writers, so no row locks are
 * needed), unlockJob leaves jobs without a next run locked, and saveJobState throws when the row is
 * gone. One process per database file.
 */
export class KnexJobRepository implements JobRepository {
  constructor(private readonly db: Database) {}

  private table(db: Knex = this.db): Knex.QueryBuilder<JobRow> {
    return db<JobRow>(JOBS_TABLE);
  }

  async connect(): Promise<void> {
    if (!(await this.db.schema.hasTable(JOBS_TABLE))) {
      throw new Error(`The "${JOBS_TABLE}" table is missing: run \`atende migrate\` first`);
    }
  }

  private toJob(row: JobRow): JobParameters {
    return {
      _id: toJobId(String(row.id)),
      name: row.name,
      priority: row.priority,
      nextRunAt: date(row.nextRunAt) ?? null,
      type: row.type,
      lockedAt: date(row.lockedAt),
      lastFinishedAt: date(row.lastFinishedAt),
      failedAt: date(row.failedAt),
      failCount: row.failCount ?? undefined,
      failReason: row.failReason ?? undefined,
      repeatTimezone: row.repeatTimezone ?? undefined,
      lastRunAt: date(row.lastRunAt),
      repeatInterval: row.repeatInterval ?? undefined,
      data: row.data === null ? null : JSON.parse(row.data),
      repeatAt: row.repeatAt ?? undefined,
      disabled: Boolean(row.disabled),
      progress: row.progress ?? undefined,
      fork: Boolean(row.fork),
      lastModifiedBy: row.lastModifiedBy ?? undefined,
      debounceStartedAt: date(row.debounceStartedAt),
      startDate: date(row.startDate),
      endDate: date(row.endDate),
      skipDays: row.skipDays === null ? undefined : (JSON.parse(row.skipDays) as number[]),
    };
  }

  /** The columns a save writes (never the processor-managed ones but the failure fields). */
  private definitionColumns(job: JobParameters, options: JobRepositoryOptions | undefined): Partial<JobRow> {
    return {
      name: job.name,
      priority: job.priority,
      nextRunAt: ms(job.nextRunAt),
      type: job.type,
      repeatTimezone: job.repeatTimezone ?? null,
      repeatInterval: job.repeatInterval === undefined ? null : String(job.repeatInterval),
      data: JSON.stringify(job.data ?? null),
      repeatAt: job.repeatAt ?? null,
      disabled: job.disabled ?? false,
      fork: job.fork ?? false,
      lastModifiedBy: options?.lastModifiedBy ?? null,
      startDate: ms(job.startDate),
      endDate: ms(job.endDate),
      skipDays: job.skipDays ? JSON.stringify(job.skipDays) : null,
    };
  }

  /** Applies id/name/data filters; answers false when the options name no criterion at all. */
  private filter(query: Knex.QueryBuilder, options: RemoveJobsOptions): boolean {
    let any = false;
    if (options.id !== undefined) {
      query.whereIn('id', idList([options.id]));
      any = true;
    } else if (options.ids && options.ids.length > 0) {
      query.whereIn('id', idList(options.ids));
      any = true;
    }
    if (options.name) {
      query.where('name', options.name);
      any = true;
    } else if (options.names && options.names.length > 0) {
      query.whereIn('name', options.names);
      any = true;
    } else if (options.notNames && options.notNames.length > 0) {
      query.whereNotIn('name', options.notNames);
      any = true;
    }
    if (options.data !== undefined) {
      whereDataContains(query, options.data);
      any = true;
    }
    return any;
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const [numeric] = idList([id]);
    if (numeric === undefined) return null;
    const row = await this.table().where('id', numeric).first();
    return row ? this.toJob(row) : null;
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const { name, names, state, id, ids, search, data, includeDisabled = true, sort, skip = 0, limit = 0 } = options;
    const query = this.table();
    this.filter(query, { id, ids, name, names, data });
    if (search) query.whereRaw('instr(lower(name), lower(?)) > 0', [search]);
    if (!includeDisabled) query.where('disabled', false);
    const order = Object.entries(sort ?? {}) as [keyof JobsSort, JobsSort[keyof JobsSort]][];
    if (order.length === 0) {
      query.orderBy('nextRunAt', 'desc', 'last').orderBy('lastRunAt', 'desc', 'last');
    }
    for (const [key, direction] of order) {
      query.orderBy(SORT_COLUMNS[key], direction ?? 'desc', 'last');
    }
    const now = new Date();
    const rows: JobRow[] = await query;
    const jobs = rows
      .map((row) => {
        const job = this.toJob(row);
        return { ...job, _id: job._id!, state: computeJobState(job, now) };
      })
      .filter((job) => !state || (state === 'paused' ? job.disabled === true : job.state === state));
    const page = limit > 0 ? jobs.slice(skip, skip + limit) : jobs.slice(skip);
    return { jobs: page, total: jobs.length };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    const overviews = new Map<string, JobsOverview>();
    for (const row of await this.table().orderBy('name')) {
      const job = this.toJob(row);
      const overview = overviews.get(job.name) ?? {
        name: job.name,
        total: 0,
        running: 0,
        scheduled: 0,
        queued: 0,
        completed: 0,
        failed: 0,
        repeating: 0,
        paused: 0,
      };
      overview.total++;
      overview[computeJobState(job, now)]++;
      if (job.disabled) overview.paused++;
      overviews.set(job.name, overview);
    }
    return [...overviews.values()];
  }

  async getDistinctJobNames(): Promise<string[]> {
    const rows = await this.table().distinct('name').orderBy('name');
    return rows.map((row) => row.name);
  }

  async getQueueSize(): Promise<number> {
    const [row] = await this.table().where('nextRunAt', '<', Date.now()).count({ count: '*' });
    return Number(row?.count ?? 0);
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const query = this.table();
    if (!this.filter(query, options)) return 0;
    return query.del();
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, true);
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, false);
  }

  private async setDisabled(options: RemoveJobsOptions, disabled: boolean): Promise<number> {
    const query = this.table();
    if (!this.filter(query, options)) return 0;
    return query.update({ disabled });
  }

  async purgeAllJobs(): Promise<number> {
    return this.table().del();
  }

  async unlockJob(job: JobParameters): Promise<void> {
    if (!job._id) return;
    // A job without a next run is being processed for the last time: its lock stays until it finishes.
    await this.table().where('id', Number(job._id)).whereNotNull('nextRunAt').update({ lockedAt: null });
  }

  async unlockJobs(jobIds: (JobId | string)[]): Promise<void> {
    if (jobIds.length === 0) return;
    await this.table().whereIn('id', idList(jobIds)).update({ lockedAt: null });
  }

  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    const nextRunAt = ms(job.nextRunAt);
    if (!job._id || nextRunAt === null) return undefined;
    const [row] = await this.table()
      .where({ id: Number(job._id), name: job.name, nextRunAt, disabled: false })
      .whereNull('lockedAt')
      .update({ lockedAt: Date.now(), lastModifiedBy: options?.lastModifiedBy ?? null })
      .returning('*');
    return row ? this.toJob(row) : undefined;
  }

  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const next = this.table()
      .select('id')
      .where({ name: jobName, disabled: false })
      .where((q) =>
        q
          .where((due) => due.whereNull('lockedAt').where('nextRunAt', '<=', nextScanAt.getTime()))
          .orWhere('lockedAt', '<=', lockDeadline.getTime()),
      )
      .orderBy('nextRunAt', 'asc', 'last')
      .orderBy('priority', 'desc')
      .limit(1);
    const [row] = await this.table()
      .where('id', next)
      .update({ lockedAt: (now ?? new Date()).getTime(), lastModifiedBy: options?.lastModifiedBy ?? null })
      .returning('*');
    return row ? this.toJob(row) : undefined;
  }

  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    if (!job._id) throw new Error('Cannot save job state without job ID');
    const updated = await this.table()
      .where({ id: Number(job._id), name: job.name })
      .update({
        lockedAt: ms(job.lockedAt),
        nextRunAt: ms(job.nextRunAt),
        lastRunAt: ms(job.lastRunAt),
        progress: job.progress ?? null,
        failReason: job.failReason ?? null,
        failCount: job.failCount ?? null,
        failedAt: ms(job.failedAt),
        lastFinishedAt: ms(job.lastFinishedAt),
        lastModifiedBy: options?.lastModifiedBy ?? null,
      });
    if (updated !== 1) {
      throw new Error(`job ${job._id} (name: ${job.name}) cannot be updated in the database, maybe it does not exist anymore?`);
    }
  }

  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    const columns = this.definitionColumns(job as JobParameters, options);

    if (job._id) {
      const [row] = await this.table()
        .where({ id: Number(job._id), name: job.name })
        .update({
          ...columns,
          failReason: job.failReason ?? null,
          failCount: job.failCount ?? null,
          failedAt: ms(job.failedAt),
        })
        .returning('*');
      // A job removed meanwhile stays removed; the caller keeps what it had.
      return row ? (this.toJob(row) as JobParameters<DATA>) : job;
    }

    if (job.type === 'single') {
      // Re-registering a repeating job must not push back a run that is already due.
      const keepDueRun = columns.nextRunAt !== null && Number(columns.nextRunAt) <= Date.now();
      const [row] = await this.table()
        .insert(columns)
        .onConflict(this.db.raw("(name) where type = 'single'"))
        .merge({
          ...columns,
          nextRunAt: keepDueRun ? this.db.raw(`coalesce(${JOBS_TABLE}.next_run_at, excluded.next_run_at)`) : columns.nextRunAt,
        } as Partial<JobRow>)
        .returning('*');
      return this.toJob(row!) as JobParameters<DATA>;
    }

    if (job.unique) return this.saveUnique(job as JobParameters, columns) as Promise<JobParameters<DATA>>;

    const [row] = await this.table().insert(columns).returning('*');
    return this.toJob(row!) as JobParameters<DATA>;
  }

  /** A job identified by `unique` (columns or `data.<path>` values): updated in place, inserted once, or debounced. */
  private async saveUnique(job: JobParameters, columns: Partial<JobRow>): Promise<JobParameters> {
    const { unique = {}, uniqueOpts } = job;
    const debounce = uniqueOpts?.debounce;
    const now = Date.now();
    const match = this.table().where('name', job.name);
    for (const [key, value] of Object.entries(unique)) {
      if (key.startsWith('data.')) {
        whereJsonValue(match, jsonPath(key.slice('data.'.length).split('.')), value);
      } else if (UNIQUE_COLUMNS.has(key)) {
        match.where(key, value as Knex.Value);
      } else {
        throw new Error(`Invalid unique constraint field: "${key}"`);
      }
    }
    const existing = await match.first();

    if (!existing) {
      if (!debounce) {
        const [row] = await this.table().insert(columns).returning('*');
        return this.toJob(row!);
      }
      // Leading runs at once; trailing waits for the quiet period.
      const nextRunAt = debounce.strategy === 'leading' ? columns.nextRunAt : now + debounce.delay;
      const [row] = await this.table()
        .insert({ ...columns, nextRunAt, debounceStartedAt: now })
        .returning('*');
      return this.toJob(row!);
    }

    if (uniqueOpts?.insertOnly && !debounce) return this.toJob(existing);

    let nextRunAt = columns.nextRunAt ?? null;
    let debounceStartedAt: number | null = null;
    if (debounce) {
      const startedAt = existing.debounceStartedAt === null ? now : Number(existing.debounceStartedAt);
      if (debounce.strategy === 'leading') {
        nextRunAt = existing.nextRunAt;
        debounceStartedAt = startedAt;
      } else if (debounce.maxWait && now - startedAt >= debounce.maxWait) {
        nextRunAt = now;
      } else {
        nextRunAt = now + debounce.delay;
        debounceStartedAt = startedAt;
      }
    }
    const [row] = await this.table()
      .where('id', existing.id)
      .update({ ...columns, nextRunAt, debounceStartedAt })
      .returning('*');
    return this.toJob(row!);
  }
}

/**
 * The Knex backend: the repository above plus an in-process notification channel, so a job saved
 * by this process is picked up at once instead of at the next poll. The database connection
 * belongs to the container, so stopping Agenda never closes it.
 */
export class KnexBackend implements AgendaBackend {
  readonly name = 'Knex';
  readonly repository: KnexJobRepository;
  readonly notificationChannel = new InMemoryNotificationChannel();
  readonly ownsConnection = false;

  constructor(db: Database) {
    this.repository = new KnexJobRepository(db);
  }

  connect(): Promise<void> {
    return this.repository.connect();
  }

  async disconnect(): Promise<void> {
    // Nothing to close: the connection is the container's.
  }
}
