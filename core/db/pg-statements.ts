import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { inHeavyRead } from './reader-pool.js';

/** Named statements a PostgreSQL connection keeps prepared; past it they are all deallocated and the count starts again. */
export const PG_STATEMENTS_KEPT = 500;

interface QueryConfig {
  text: string;
  values?: unknown[];
  name?: string;
}
type Callback = (err: (Error & { code?: string }) | null, result: unknown) => void;

/** node-postgres's client, as far as knex's calls and its statements go. */
export interface PgConnection {
  query(config: QueryConfig | string, callback?: Callback): unknown;
  /** 'I' idle, 'T' in a transaction, 'E' in a failed one (the last ReadyForQuery's status). */
  getTransactionStatus(): string | null;
  connection: { parsedStatements: Record<string, string> };
}

const SELECT = /^\s*(select|with)\b/i;

/** PostgreSQL's "cached plan must not change result type": a table a kept statement reads has changed its columns. */
const FEATURE_NOT_SUPPORTED = '0A000';

function statementName(sql: string): string {
  return `a${createHash('sha1').update(sql).digest('base64url')}`;
}

/**
 * Reads on PostgreSQL as named statements: each connection parses and plans a SELECT once and
 * then runs it by name, as SQLite runs its kept statements (sqlite-client.ts). knex sends every
 * query unnamed, so PostgreSQL parses and plans it anew each time: for the joined page of a ticket
 * list, 2.6 ms of planning against 0.8 ms of execution. They run with one generic plan
 * (`plan_cache_mode = force_generic_plan`): the lists' and messages' reads are equalities and
 * orders on indexes, whose plan does not depend on the values. A heavy read (a search's LIKE, a
 * dashboard period) is unnamed and planned for its values (`plan_cache_mode = auto`, which the
 * unnamed statement follows too): the connection changes mode, outside a transaction, when the
 * next query needs the other one. Writes stay unnamed: a batch's text changes with its size. The
 * name is a hash of the text, so one name never stands for two texts. Wraps `connection.query`,
 * which knex calls for every query, in a transaction or not; one query at a time on the
 * connection, as node-postgres asks. `done` once the connection is set up.
 */
export function nameReads(connection: PgConnection, db: Knex, done: (err: Error | null) => void): void {
  const query = connection.query.bind(connection);
  const names = new Set<string>();
  let generic = true;
  /** Runs `next` in the plan mode asked: a SET first when the connection, idle, is in the other one. */
  const inMode = (wantGeneric: boolean, next: () => void) => {
    if (generic === wantGeneric || connection.getTransactionStatus() !== 'I') return next();
    generic = wantGeneric;
    query(`SET plan_cache_mode = ${wantGeneric ? 'force_generic_plan' : 'auto'}`, () => next());
  };
  /** Deallocates every kept statement, then runs `next`. */
  const forgetAll = (next: () => void) => {
    connection.connection.parsedStatements = {};
    names.clear();
    query('DEALLOCATE ALL', () => next());
  };
  const named = (config: QueryConfig, callback: Callback) => {
    const name = statementName(config.text);
    names.add(name);
    query({ ...config, name }, (err, result) => {
      if (err?.code !== FEATURE_NOT_SUPPORTED) return callback(err, result);
      // A migration changed a table under a kept statement: prepared again from the new table.
      forgetAll(() => query(config, callback));
    });
  };
  connection.query = (config: QueryConfig | string, callback?: Callback) => {
    if (typeof config === 'string' || !callback || config.name || !SELECT.test(config.text)) return query(config, callback);
    if (inHeavyRead(db)) inMode(false, () => query(config, callback));
    else if (names.size >= PG_STATEMENTS_KEPT) inMode(true, () => forgetAll(() => named(config, callback)));
    else inMode(true, () => named(config, callback));
    return undefined;
  };
  // A new connection starts generic: most of its reads, in a transaction or not, are the lists'.
  query('SET plan_cache_mode = force_generic_plan', (err) => done(err));
}
