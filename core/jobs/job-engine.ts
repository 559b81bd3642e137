import { hostname } from 'node:os';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import {
  Agenda,
  type AgendaBackend,
  type Job,
  type JobDefinition,
  type JobParameters,
  type JobRepository,
  type JobsQueryOptions,
  type JobsResult,
  type RemoveJobsOptions,
} from 'agenda';
import type { Logger } from '../logger.js';

/** Job payloads carry ids (and small scalars), never copies of rows: the database is the truth. */
export type JobData = Record<string, string | number | boolean | null>;

export type JobHandler<D extends JobData = JobData> = (data: D, job: Job<D>) => Promise<void>;

/** Per-definition settings; lockLifetime is in milliseconds. */
export type JobOptions = Partial<Pick<JobDefinition, 'concurrency' | 'lockLifetime' | 'lockLimit' | 'backoff' | 'removeOnComplete'>>;

export interface EveryOptions<D extends JobData> {
  /**
   * Keys of `data` that identify the repeating job: one row per name and these values. Default:
   * every key of `data`; with no data, one row per name.
   */
  unique?: (keyof D & string)[];
}

/** What modules and plugins use to define and enqueue jobs. Every interval and delay is in ms. */
export interface JobScheduler {
  define<D extends JobData>(name: string, handler: JobHandler<D>, options?: JobOptions): void;
  /** Runs as soon as a worker is free; answers the job's id. */
  now<D extends JobData>(name: string, data: D): Promise<string>;
  schedule<D extends JobData>(when: Date, name: string, data: D): Promise<string>;
  /**
   * Registering the same repeating job again updates its row instead of adding one: a job keyed by
   * data then runs once at registration (as on its first), one without data keeps its schedule.
   */
  every<D extends JobData>(intervalMs: number, name: string, data?: D, options?: EveryOptions<D>): Promise<string>;
  /** Removes matching jobs (e.g. `{ name, data: { campaignId } }`); answers how many. */
  cancel(query: RemoveJobsOptions): Promise<number>;
}

export interface JobEngineOptions {
  /** How often due jobs are polled for (ms). Saves in this process, and on PostgreSQL in any, wake workers at once. */
  processEvery?: number;
  /** How long a job may run before its lock expires and another worker may take it (ms). */
  lockLifetime?: number;
  /** How long stop() waits for running jobs (ms). */
  stopGrace?: number;
}

interface Definition {
  handler: JobHandler;
  options: JobOptions | undefined;
}

/**
 * Agenda 6 behind a small interface. Agenda is created on first use, not at construction: the
 * container exists before migrations have made the job table, and Agenda connects its backend as
 * soon as it is constructed.
 */
export class JobEngine implements JobScheduler {
  private readonly definitions = new Map<string, Definition>();
  /** Jobs this process is running, until Agenda has saved their final state. */
  private readonly running = new Set<Job>();
  private opening: Promise<Agenda> | undefined;
  private agenda: Agenda | undefined;
  private readonly locks = new LockRequests();

  constructor(
    readonly backend: AgendaBackend,
    private readonly log: Logger,
    private readonly options: JobEngineOptions = {},
  ) {}

  define<D extends JobData>(name: string, handler: JobHandler<D>, options?: JobOptions): void {
    if (this.definitions.has(name)) throw new Error(`The job "${name}" is defined twice`);
    const definition: Definition = { handler: handler as unknown as JobHandler, options };
    this.definitions.set(name, definition);
    if (this.agenda) this.defineOn(this.agenda, name, definition);
  }

  async now<D extends JobData>(name: string, data: D): Promise<string> {
    const job = await (await this.open()).now(name, data);
    return String(job.attrs._id);
  }

  async schedule<D extends JobData>(when: Date, name: string, data: D): Promise<string> {
    if (Number.isNaN(when.getTime())) throw new Error(`schedule(${name}): invalid date`);
    const job = await (await this.open()).schedule(when, name, data);
    return String(job.attrs._id);
  }

  async every<D extends JobData>(intervalMs: number, name: string, data: D = {} as D, options: EveryOptions<D> = {}): Promise<string> {
    if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new Error(`every(${name}): the interval must be a positive number of ms`);
    const agenda = await this.open();
    const keys = options.unique ?? Object.keys(data);
    if (keys.length === 0) {
      // Agenda's `single` type: one row per name, upserted.
      const job = await agenda.every(intervalMs, name, data);
      return String(job.attrs._id);
    }
    const missing = keys.find((key) => data[key] === undefined);
    if (missing) throw new Error(`every(${name}): the unique key "${missing}" is not in the data`);
    const job = agenda.create(name, data);
    job.unique(Object.fromEntries(keys.map((key) => [`data.${key}`, data[key]])));
    job.repeatEvery(intervalMs);
    await job.save();
    return String(job.attrs._id);
  }

  async cancel(query: RemoveJobsOptions): Promise<number> {
    return (await this.open()).cancel(query);
  }

  /** Jobs with their computed state (for operators and tests). */
  async query(options?: JobsQueryOptions): Promise<JobsResult> {
    return (await this.open()).queryJobs(options);
  }

  /** Starts processing: polls every `processEvery` ms and listens for new jobs. */
  async start(): Promise<void> {
    await (await this.open()).start();
  }

  /**
   * Stops taking jobs, releases the ones locked but not started, waits for running ones (up to
   * `stopGrace`), then closes the backend's own connection. A later call opens a fresh Agenda.
   */
  async stop(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    this.agenda = undefined;
    const agenda = await opening?.catch(() => undefined);
    if (!agenda) return;
    try {
      const stopping = agenda.stop(false);
      // Agenda releases the jobs it holds. A lock request still under way answers a job that the
      // stopped processor neither runs nor releases: without this, it would wait out its lock
      // (lockLifetime) before any worker took it, a repeating job skipped that long after a restart.
      const late = this.locks.settled();
      await stopping;
      const orphans = (await late).flatMap((job) => (job._id === undefined ? [] : [job._id]));
      if (orphans.length > 0) await this.backend.repository.unlockJobs(orphans);
      const deadline = Date.now() + (this.options.stopGrace ?? 10_000);
      while (this.running.size > 0 && Date.now() < deadline) await sleep(25);
      if (this.running.size > 0) {
        this.log.warn({ running: this.running.size }, 'jobs still running at stop; their locks expire and another worker retries them');
      }
    } finally {
      await this.backend.disconnect();
    }
  }

  private open(): Promise<Agenda> {
    this.opening ??= this.connect().catch((err: unknown) => {
      this.opening = undefined;
      throw err;
    });
    return this.opening;
  }

  private async connect(): Promise<Agenda> {
    // Agenda's constructor connects without handling a failure; connecting first lets it reach the caller.
    await this.backend.connect();
    const agenda = new Agenda({
      backend: connectedBackend(this.backend, this.locks),
      name: `${hostname()}:${process.pid}`,
      processEvery: this.options.processEvery ?? 1000,
      defaultLockLifetime: this.options.lockLifetime ?? 10 * 60_000,
    });
    agenda.on('error', (err: Error) => this.log.error({ err }, 'job processing failed'));
    agenda.on('complete', (job: Job) => this.running.delete(job));
    for (const [name, definition] of this.definitions) this.defineOn(agenda, name, definition);
    this.agenda = agenda;
    return agenda;
  }

  private defineOn(agenda: Agenda, name: string, { handler, options }: Definition): void {
    agenda.define(
      name,
      async (job: Job<JobData>) => {
        this.running.add(job);
        try {
          await handler(job.attrs.data ?? {}, job);
        } catch (err) {
          this.log.error({ err, job: name, jobId: String(job.attrs._id) }, 'job failed');
          throw err;
        }
      },
      options,
    );
  }
}

/** The backend as Agenda sees it once JobEngine has connected it: connect() has nothing left to do. */
function connectedBackend(backend: AgendaBackend, locks: LockRequests): AgendaBackend {
  return {
    name: backend.name,
    repository: locks.counted(backend.repository),
    notificationChannel: backend.notificationChannel,
    logger: backend.logger,
    // JobEngine.stop() closes the backend itself, after running jobs have saved their state.
    ownsConnection: false,
    connect: async () => {},
    disconnect: () => backend.disconnect(),
  };
}

/** The lock requests Agenda has made and not yet had answered. */
class LockRequests {
  private readonly pending = new Set<Promise<JobParameters | undefined>>();

  /** The repository, with its ways of locking a job counted. */
  counted(repository: JobRepository): JobRepository {
    return aroundLocks(repository, (lock) => this.track(lock()));
  }

  /**
   * The jobs locked by the requests under way, once none is left. Agenda asks again for the next
   * job of a name each time one is answered (a few promise steps later, hence the turn waited):
   * those later requests are waited for too.
   */
  async settled(): Promise<JobParameters[]> {
    const locked: JobParameters[] = [];
    do {
      const answers = await Promise.all([...this.pending].map((request) => request.catch(() => undefined)));
      for (const job of answers) if (job) locked.push(job);
      await nextTurn();
    } while (this.pending.size > 0);
    return locked;
  }

  private track(request: Promise<JobParameters | undefined>): Promise<JobParameters | undefined> {
    this.pending.add(request);
    const forget = () => void this.pending.delete(request);
    request.then(forget, forget);
    return request;
  }
}

/**
 * `repository` with its two ways of locking a job (`getNextJobToRun`, `lockJob`) passed through
 * `around`, which makes the request by calling `lock`; every other method is the repository's own.
 */
export function aroundLocks(
  repository: JobRepository,
  around: (lock: () => Promise<JobParameters | undefined>, args: unknown[]) => Promise<JobParameters | undefined>,
): JobRepository {
  return new Proxy(repository, {
    get: (target, key) => {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key !== 'getNextJobToRun' && key !== 'lockJob') return value.bind(target);
      return (...args: unknown[]) => around(() => value.apply(target, args) as Promise<JobParameters | undefined>, args);
    },
  });
}
