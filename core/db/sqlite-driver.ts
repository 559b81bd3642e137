import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * better-sqlite3 as the running Node needs it. Below 13 its objects are node::ObjectWrap, whose
 * destructor Node 24.19+ asserts on when the GC frees a statement outside JavaScript: the process
 * aborts. 13 is Node-API 10 (Node 22.14+) and does not, but crashes on Node 20. Both are installed
 * (13 under the alias better-sqlite3-napi); each Node loads the one it runs.
 */
export const SqliteDriver = (
  Number(process.versions.napi) >= 10 ? require('better-sqlite3-napi') : require('better-sqlite3')
) as typeof BetterSqlite3;
