import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../core/config/load-config.js';
import { createLogger } from '../core/logger.js';
import { startAtende } from '../core/boot.js';
import type { Figures } from './figures.js';

const SOCKETS = 1000;
const ROUNDS = 30;
const WARM_UP_ROUNDS = 3;

/** DESIGN §10: one event fanned out to 1,000 sockets of a company, all delivered within 100 ms. */
export async function realtimeFanout(): Promise<Figures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-bench-'));
  const config = loadConfig({ dir, env: {}, flags: { port: 0, host: '127.0.0.1', logLevel: 'silent', adminPassword: 'bench-secret' } });
  const atende = await startAtende(config, createLogger('silent', false));
  const { container } = atende;
  const tenant = await container.services.companies.createTenant({ name: 'Bench', email: 'bench@bench.test', password: 'bench-secret' });
  const user = await container.db('users').where({ id: tenant.admin.id }).first();
  // One user, many sockets: the hub treats each socket alike, and logins would only measure scrypt.
  const token = await container.tokens.signAccess({ id: user.id, companyId: user.companyId, profile: user.profile, tokenVersion: user.tokenVersion });
  const worker = new Worker(new URL('./fanout-clients.mjs', import.meta.url), {
    workerData: { url: atende.server.url.replace('http', 'ws'), tokens: Array(SOCKETS).fill(token) },
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { type: string; message?: string }) => (m.type === 'ready' ? resolve() : m.type === 'error' && reject(new Error(m.message))));
  });

  const durations: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    let received = 0;
    let last = 0;
    const done = new Promise<void>((resolve) => {
      const onMessage = (m: { type: string; at: number }) => {
        if (m.type !== 'received') return;
        received += 1;
        last = Math.max(last, m.at);
        if (received === SOCKETS) {
          worker.off('message', onMessage);
          resolve();
        }
      };
      worker.on('message', onMessage);
    });
    const sentAt = performance.timeOrigin + performance.now();
    container.realtime.publish(user.companyId, `company-${user.companyId}-bench`, { action: 'update', round });
    await done;
    if (round >= WARM_UP_ROUNDS) durations.push(last - sentAt);
  }
  worker.postMessage('close');
  await atende.stop();
  rmSync(dir, { recursive: true, force: true });
  durations.sort((a, b) => a - b);
  const at = (q: number) => round(durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!);
  return {
    'all delivered (p50 / p95 / max ms)': `${at(0.5)} / ${at(0.95)} / ${at(1)}   budget within 100 ms: ${at(1) < 100 ? 'met' : 'MISSED'} · ${SOCKETS} sockets, ${durations.length} rounds`,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
