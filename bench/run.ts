import { campaignBench } from './campaign.js';
import { clusterLatency } from './cluster-latency.js';
import { dashboardBench } from './dashboard.js';
import type { Figures } from './figures.js';
import { searchBench, ticketListBench } from './http-bench.js';
import { idleMemory } from './idle-memory.js';
import { inboundBench } from './inbound.js';
import { realtimeFanout } from './realtime-fanout.js';
import { spaSize } from './spa-size.js';

/**
 * Runs the benchmarks (`npm run bench -- <part of a name>…` picks some) and prints each figure
 * beside its budget of DESIGN.md §10 and, where it was measured, the old product's figure on the
 * same dataset (bench-dataset.md).
 */
const benches: [string, string, () => Promise<Figures>][] = [
  ['realtime fan-out', 'one event to 1,000 sockets within 2× of raw ws; all delivered within 100 ms', realtimeFanout],
  ['idle server', 'under 150 MB RSS', idleMemory],
  ['web app first load', 'under 400 KB transferred, measured in chromium', spaSize],
  ['ticket list', 'GET /api/tickets ≥ 10× whaticket, p95 < 20 ms at 1 client; messages ≥ 5×; login within 2× (100k tickets, 1M messages)', ticketListBench],
  ['ticket search', '≥ 100× whaticket, p50 < 25 ms, whatever the number of matches (100k tickets, 1M messages × ATENDE_BENCH_SCALE)', searchBench],
  ['inbound pipeline', '≥ 3,000 msg/s SQLite, ≥ 1,500 PostgreSQL, each stored once in order; p99 < 50 ms to the agent’s socket at 1,000 msg/s', inboundBench],
  ['dashboard', 'none of its own: the ticket list one, p95 < 50 ms (100k attendances)', dashboardBench],
  ['nodes: event latency, takeover', 'issue 20: events cross nodes through Redis (no budget of its own); a dead owner\'s sessions run elsewhere within 30 s', clusterLatency],
  ['campaign dispatch', 'issue 15: 10,000 contacts, intervals 0; RSS flat; nothing leaves after the cancel answers', campaignBench],
];

const only = process.argv.slice(2);
for (const [name, budget, run] of benches) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  const figures = await run();
  const width = Math.max(34, ...Object.keys(figures).map((label) => label.length));
  console.log(`\n${name} (budget: ${budget})`);
  for (const [label, value] of Object.entries(figures)) console.log(`  ${label.padEnd(width)} ${value}`);
}
// Agenda keeps a timer of half a job's lock lifetime (5 minutes here) alive after each job it ran
// (JobProcessor's checkIfJobIsStillAlive), past the engine's stop: the figures are printed, so the
// run ends here rather than minutes later. `atende` itself exits the same way (core/cli/main.ts).
process.exit(0);
