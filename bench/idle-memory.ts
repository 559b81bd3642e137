import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** DESIGN §10: the built server at idle with one tenant stays under 150 MB RSS. */
export async function idleMemory(): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-bench-idle-'));
  const env = { ATENDE_ADMIN_PASSWORD: 'bench-secret', ATENDE_LOG_LEVEL: 'warn' };
  await execa('node', ['bin/atende.js', 'init', '--dir', dir, '--yes', '--admin-password', 'bench-secret'], { env });
  await execa('node', ['bin/atende.js', 'add-tenant', '--dir', dir, '--name', 'Idle', '--email', 'idle@bench.test', '--password', 'bench-secret'], { env });
  const server = execa('node', ['bin/atende.js', 'serve', '--dir', dir, '--port', String(await freePort())], { env, reject: false });
  await new Promise((resolve) => setTimeout(resolve, 8000));
  let status: string;
  try {
    status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  } catch {
    throw new Error(`the server stopped: ${(await server).stderr}`);
  }
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  server.kill('SIGTERM');
  await server;
  rmSync(dir, { recursive: true, force: true });
  return { 'idle RSS MB': Math.round(rssKb / 102.4) / 10 };
}
