import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually } from '../helpers/inbox.js';

/** Three nodes on one database: a job runs on exactly one of them, whichever scheduled it. */
describe('jobs on several nodes', () => {
  const nodes: TestServer[] = [];
  const runs: { n: number }[] = [];

  beforeAll(async () => {
    nodes.push(await startTestServer());
    for (let k = 1; k < 3; k += 1) nodes.push(await startTestServer({}, { sameDatabaseAs: nodes[0] }));
    for (const node of nodes) {
      node.atende.container.jobs.define<{ n: number }>('test.cluster.count', async ({ n }) => {
        runs.push({ n });
        // Long enough that a second node polling meanwhile would see the job as due if its lock did not hold.
        await new Promise((resolve) => setTimeout(resolve, 5));
      });
    }
  });

  afterAll(async () => {
    for (const node of nodes.slice(1)) await node.close();
    await nodes[0]?.close();
  });

  it('a job scheduled 100 times runs 100 times, each once', async () => {
    await Promise.all(Array.from({ length: 100 }, (_, n) => nodes[n % 3]!.atende.container.jobs.now('test.cluster.count', { n })));
    await eventually(async () => runs.length >= 100, 30_000, '100 runs');
    // Late doubles would come within a poll or two.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runs).toHaveLength(100);
    expect(new Set(runs.map((r) => r.n)).size).toBe(100);
  });
});
