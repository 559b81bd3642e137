import type { AgendaBackend } from 'agenda';
import { PostgresBackend } from '@agendajs/postgres-backend';
import type { Config } from '../config/config.schema.js';
import { ConfigError } from '../config/load-config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { JobEngine, type JobEngineOptions } from './job-engine.js';
import { KnexBackend } from './knex-backend.js';

const MONGO_URL = /^mongodb(\+srv)?:\/\//;

/**
 * MongoDB's backend, its module loaded when Agenda first connects it: a server whose jobs live in
 * its main database never loads the MongoDB driver (about 10 MB of memory).
 */
export class DeferredMongoBackend implements AgendaBackend {
  readonly name = 'MongoDB';
  private backend?: AgendaBackend;

  constructor(private readonly address: string) {}

  get repository(): AgendaBackend['repository'] {
    if (!this.backend) throw new Error('the MongoDB job backend is used before it connected');
    return this.backend.repository;
  }

  get notificationChannel(): AgendaBackend['notificationChannel'] {
    return this.backend?.notificationChannel;
  }

  get logger(): AgendaBackend['logger'] {
    return this.backend?.logger;
  }

  async connect(): Promise<void> {
    if (!this.backend) {
      const { MongoBackend } = await import('@agendajs/mongo-backend');
      this.backend = new MongoBackend({ address: this.address });
    }
    await this.backend.connect();
  }

  async disconnect(): Promise<void> {
    await this.backend?.disconnect();
  }
}

/**
 * Where jobs are stored: MongoDB when `jobsUrl` names one, else the main database — PostgreSQL
 * through @agendajs/postgres-backend (LISTEN/NOTIFY wakes workers at once), SQLite through the
 * Knex backend. Constructing a backend opens no connection; Agenda connects it when used.
 */
export function createJobBackend(config: Pick<Config, 'jobsUrl' | 'database'>, db: Database): AgendaBackend {
  if (config.jobsUrl) {
    // The address may carry a password: never repeat it in the message.
    if (!MONGO_URL.test(config.jobsUrl)) throw new ConfigError('jobsUrl: must be a MongoDB address (mongodb://… or mongodb+srv://…)');
    return new DeferredMongoBackend(config.jobsUrl);
  }
  if (config.database.client === 'pg') return new PostgresBackend({ connectionString: config.database.connectionString });
  return new KnexBackend(db);
}

export function createJobEngine(
  config: Pick<Config, 'jobsUrl' | 'database'>,
  db: Database,
  log: Logger,
  options?: JobEngineOptions,
): JobEngine {
  return new JobEngine(createJobBackend(config, db), log, options);
}
