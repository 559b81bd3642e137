import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The node flags the launcher's first line (`#!/usr/bin/env -S node …`) gives the server, read from
 * it: a bench that starts node itself passes them.
 */
export const SERVER_NODE_FLAGS = readFileSync(new URL('../bin/atende.js', import.meta.url), 'utf8').split('\n', 1)[0]!.split(' ').slice(3);

export interface BenchInstance {
  url: string;
  server: ResultPromise;
  tenant: { email: string; password: string };
  stop(): Promise<void>;
}

/** The built server as an installer runs it: `atende init`, one tenant, `atende serve` on a free port (SQLite). */
export async function startBenchInstance(name: string): Promise<BenchInstance> {
  const dir = mkdtempSync(path.join(tmpdir(), `atende-bench-${name}-`));
  const tenant = { email: `${name}@bench.test`, password: 'bench-secret' };
  const env = { ATENDE_ADMIN_PASSWORD: tenant.password, ATENDE_LOG_LEVEL: 'warn' };
  await execa('node', ['bin/atende.js', 'init', '--dir', dir, '--yes', '--admin-password', tenant.password], { env });
  await execa('node', ['bin/atende.js', 'add-tenant', '--dir', dir, '--name', name, '--email', tenant.email, '--password', tenant.password], { env });
  const port = await freePort();
  const server = execa('node', [...SERVER_NODE_FLAGS, 'bin/atende.js', 'serve', '--dir', dir, '--port', String(port)], { env, reject: false });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (await fetch(`${url}/api/version`).then((res) => res.ok, () => false)) break;
    if (tries > 300) throw new Error(`the server did not start: ${(await server).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    server,
    tenant,
    async stop() {
      server.kill('SIGTERM');
      await server;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
