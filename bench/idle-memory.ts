import { readFileSync } from 'node:fs';
import { startBenchInstance } from './bench-instance.js';

/** DESIGN §10: the built server at idle with one tenant stays under 150 MB RSS. */
export async function idleMemory(): Promise<Record<string, number>> {
  const instance = await startBenchInstance('idle');
  await new Promise((resolve) => setTimeout(resolve, 8000));
  const status = readFileSync(`/proc/${instance.server.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  await instance.stop();
  return { 'idle RSS MB': Math.round(rssKb / 102.4) / 10 };
}
