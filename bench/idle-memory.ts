import { readFileSync } from 'node:fs';
import { startBenchInstance } from './bench-instance.js';
import type { Figures } from './figures.js';

/** DESIGN §10: the built server at idle with one tenant stays under 150 MB RSS. */
export async function idleMemory(): Promise<Figures> {
  const instance = await startBenchInstance('idle');
  await new Promise((resolve) => setTimeout(resolve, 8000));
  const status = readFileSync(`/proc/${instance.server.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  await instance.stop();
  const mb = Math.round(rssKb / 102.4) / 10;
  return { 'idle RSS': `${mb} MB   budget < 150 MB: ${mb < 150 ? 'met' : 'MISSED'}` };
}
