import { execa, type ResultPromise } from 'execa';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder, and the real binary as installed: bin/atende.js running the build in dist/ (built before the tests run). */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = path.join(root, 'bin/atende.js');

/** The parent's environment without its Atende configuration, which must not leak into the commands under test. */
export const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(ATENDE_|DATABASE_URL$|PORT$|REDIS_URL$|LOG_LEVEL$)/.test(key)),
);

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `atende init --yes` of the site `dir` under `cwd`, with that super admin, on SQLite or (with
 * `databaseUrl`) on that PostgreSQL database; answers the finished command for the test to check.
 */
export async function initSite(cwd: string, dir: string, admin: { email: string; password: string }, databaseUrl?: string) {
  const database = databaseUrl ? ['--db', 'postgres', '--database-url', databaseUrl] : [];
  const args = ['init', '--yes', '--dir', dir, '--port', String(await freePort()), '--admin-email', admin.email, '--admin-password', admin.password, ...database];
  return execa('node', [bin, ...args], { cwd, env: cleanEnv, extendEnv: false, reject: false, timeout: 60_000 });
}

/** Resolves once `serve` prints its plain `serving <url>` line, with the URL and what it printed so far. */
export function serving(sub: ResultPromise, timeoutMs = 90_000): Promise<{ url: string; output: string }> {
  return printedUrl(sub, /^serving (http:\/\/\S+)/m, timeoutMs);
}

/** Resolves once a command prints a line matching `pattern` (its first group the URL), with that URL and what it printed so far. */
export function printedUrl(sub: ResultPromise, pattern: RegExp, timeoutMs = 90_000): Promise<{ url: string; output: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    sub.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    sub.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, output });
      }
    });
    sub.stdout!.on('end', () => reject(new Error(`the command ended before printing ${pattern}:\n${output}`)));
  });
}

/** A JSON call to a served API: status and parsed body. */
export async function api(url: string, method: string, route: string, token?: string, body?: unknown) {
  const res = await fetch(url + route, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Reads until `read` answers something, or fails after `ms`. */
export async function until<T>(read: () => Promise<T | undefined>, ms = 5000, what = 'the condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What `atende simulate server` prints once it listens; the URL is the first group. */
export const SIMULATOR_LISTENING = /^simulated WhatsApp at (http:\/\/\S+) \(Ctrl-C stops\)$/m;

/** `atende simulate server` (the real binary) on `port` (a free one by default), once it listens. */
export async function startSimulatorServer(options: { cwd?: string; port?: number } = {}): Promise<{ sub: ResultPromise; url: string }> {
  const port = options.port ?? (await freePort());
  const sub = execa('node', [bin, 'simulate', 'server', '--port', String(port)], { cwd: options.cwd, env: cleanEnv, extendEnv: false, reject: false });
  const { url } = await printedUrl(sub, SIMULATOR_LISTENING, 60_000);
  return { sub, url };
}
