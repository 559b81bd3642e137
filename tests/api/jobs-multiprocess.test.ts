import type { Job } from 'agenda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobData, JobEngine } from '../../core/jobs/job-engine.js';
import { eventually } from '../helpers/inbox.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** DESIGN §6: two server processes on one database run each job once. */

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer({}, { sameDatabaseAs: first });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

function engines(): [string, JobEngine][] {
  return [
    ['first', first.atende.container.jobs],
    ['second', second.atende.container.jobs],
  ];
}

describe('jobs across two processes on one database', () => {
  it('runs each one-off job once in total, the work shared by both', async () => {
    const total = 30;
    const runs: { by: string; n: number }[] = [];
    const started = new Set<string>();
    let bothStarted!: () => void;
    const barrier = new Promise<void>((resolve) => (bothStarted = resolve));
    for (const [by, engine] of engines()) {
      engine.define<{ n: number }>(
        'test.multiprocess.once',
        async ({ n }) => {
          runs.push({ by, n });
          started.add(by);
          if (started.size === 2) bothStarted();
          // Each process holds its first jobs until the other has taken one: both must take part.
          await Promise.race([barrier, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        },
        // A process locks a few jobs at a time, leaving the rest to the other.
        { concurrency: 4, lockLimit: 4 },
      );
    }
    for (let n = 1; n <= total; n += 1) await first.atende.container.jobs.now('test.multiprocess.once', { n });

    const { jobs } = first.atende.container;
    await eventually(
      async () => {
        const { jobs: rows } = await jobs.query({ name: 'test.multiprocess.once' });
        return rows.length === total && rows.every((job) => job.state === 'completed');
      },
      30_000,
      'every job completed',
    );
    expect(runs.map((r) => r.n).sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(new Set(runs.map((r) => r.by))).toEqual(new Set(['first', 'second']));
  });

  it('runs a repeating job registered by both at most once per interval', async () => {
    const interval = 400;
    const runs: { by: string; at: number; next: number }[] = [];
    for (const [by, engine] of engines()) {
      engine.define('test.multiprocess.every', async (_data: JobData, job: Job<JobData>) => {
        // Agenda has set the next run (from this run's start) before calling the handler.
        runs.push({ by, at: job.attrs.lastRunAt!.getTime(), next: job.attrs.nextRunAt!.getTime() });
      });
    }
    // Each process registers it at boot, as the session watchdog and ticket automations are.
    for (const [, engine] of engines()) await engine.every(interval, 'test.multiprocess.every');
    await eventually(async () => runs.length >= 6, 20_000, 'six runs');
    await first.atende.container.jobs.cancel({ name: 'test.multiprocess.every' });

    const ordered = [...runs].sort((a, b) => a.at - b.at);
    for (let i = 1; i < ordered.length; i += 1) {
      // Timers may fire a millisecond early; a double run would start before the previous run's next.
      expect(ordered[i]!.at, `run ${i} (${ordered[i]!.by}) started before its turn`).toBeGreaterThanOrEqual(ordered[i - 1]!.next - 5);
    }
  });
});
