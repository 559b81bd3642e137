import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SqliteDriver } from './sqlite-driver.js';

const require = createRequire(import.meta.url);

/** The message a thread sends once it has loaded the driver (its first). */
export const LOADED = 'sqlite-thread:loaded';

/** A SQLite thread's nice value: the main thread (0) gets about ten times its share of a busy CPU. */
const THREAD_NICE = 10;

/**
 * The start of every thread's source: `require`, `workerData`, the driver as `Database`, and its
 * priority lowered to THREAD_NICE. On two cores, a thread busy with searches or checkpoints would
 * otherwise take the CPU the main thread needs for sockets, lists and inbound messages. Linux gives
 * a thread its own nice value, set through its thread id; elsewhere it runs at the process's.
 */
const PRELUDE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
parentPort.postMessage(${JSON.stringify(LOADED)});
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {}
`;

/** The file the main thread loaded the driver from (sqlite-driver.ts picks the build this Node needs): the threads load the same. */
function driverFile(): string {
  const loaded = Object.values(require.cache).find((module) => module?.exports === SqliteDriver);
  if (!loaded) throw new Error('the SQLite driver module is not loaded');
  return loaded.filename;
}

/**
 * A thread running `source` (plain CommonJS after PRELUDE, evaluated as a string, so it runs the
 * same from the sources and from the build, with no loader for TypeScript) with `data` in its
 * workerData. Started with none of the process's flags: under `--input-type=module` Node 24 would
 * read the source as a module. It never keeps the process alive.
 */
export function startSqliteThread(source: string, data: Record<string, unknown>): Worker {
  const worker = new Worker(PRELUDE + source, { eval: true, execArgv: [], workerData: { ...data, driver: driverFile(), nice: THREAD_NICE } });
  worker.unref();
  loaded.set(
    worker,
    new Promise<void>((resolve) => {
      worker.on('message', (message) => message === LOADED && resolve());
      worker.once('exit', () => resolve());
    }),
  );
  return worker;
}

const loaded = new WeakMap<Worker, Promise<void>>();

/**
 * Ends a thread of startSqliteThread, once it has loaded the driver: Node 24.22 aborts the whole
 * process ("napi_get_last_error_info") when a thread is terminated while it registers the native
 * driver, which a short command (add-tenant, init) closing its database at once could do.
 */
export async function stopSqliteThread(worker: Worker): Promise<void> {
  await loaded.get(worker);
  await worker.terminate();
}
