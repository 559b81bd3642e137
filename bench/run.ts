import { campaignBench } from './campaign.js';
import { dashboardBench } from './dashboard.js';
import { idleMemory } from './idle-memory.js';
import { pipelineBench, searchBench } from './pipeline.js';
import { realtimeFanout } from './realtime-fanout.js';
import { spaSize } from './spa-size.js';

type Figures = Record<string, number | string>;

/** Runs every benchmark and prints its figures beside the budget of DESIGN.md §10. */
const benches: [string, string, () => Promise<Figures> | Figures][] = [
  ['realtime fan-out', 'all 1,000 sockets within 100 ms', realtimeFanout],
  ['idle server', 'under 150 MB RSS', idleMemory],
  ['web app first load', 'under 400 KB transferred, measured in chromium', spaSize],
  ['inbound pipeline and ticket list', 'inbound ≥ 1,000 msg/s with p99 < 50 ms; GET /api/tickets p95 < 50 ms (100k tickets, 1M messages)', pipelineBench],
  ['ticket search', 'issue 19: p50 < 25 ms whatever the number of matches (100k tickets, 1M messages)', searchBench],
  ['dashboard', 'none of its own: the ticket list one, p95 < 50 ms (100k attendances)', dashboardBench],
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
