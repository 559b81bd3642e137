import type { AgendaBackend } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { PostgresBackend } from '@agendajs/postgres-backend';
import type { Config } from '../config/config.schema.js';
import { ConfigError } from '../config/load-config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { JobEngine, type JobEngineOptions } from './job-engine.js';
import { KnexBackend } from './knex-backend.js';

const MONGO_URL = /^mongodb(\+srv)?:\/\//;

/**
 * Where jobs are stored: MongoDB when `jobsUrl` names one, else the main database — PostgreSQL
 * through @agendajs/postgres-backend (LISTEN/NOTIFY wakes workers at once), SQLite through the
 * Knex backend. Constructing a backend opens no connection; Agenda connects it when used.
 */
export function createJobBackend(config: Pick<Config, 'jobsUrl' | 'database'>, db: Database): AgendaBackend {
  if (config.jobsUrl) {
    // The address may carry a password: never repeat it in the message.
    if (!MONGO_URL.test(config.jobsUrl)) throw new ConfigError('jobsUrl: must be a MongoDB address (mongodb://… or mongodb+srv://…)');
    return new MongoBackend({ address: config.jobsUrl });
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
