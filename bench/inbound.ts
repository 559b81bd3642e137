import { ADMIN_EMAIL, messageBody, SEARCH_WORD, type DatasetMeta } from './dataset.js';
import { listPath } from './http-bench.js';
import { mean, ms, quantile, rate, WHATICKET_INBOUND, type Figures } from './figures.js';
import { runLoad } from './load.js';
import { login, onEachDatabase } from './on-database.js';

/**
 * DESIGN §10's inbound pipeline, end to end: the load generator's process posts arrays of
 * customers' messages to the simulator API on the dataset's paired simulator connection (new
 * customers, numbers the dataset does not have) and holds the agent's socket; each message's send
 * time and the arrival of its frame are taken there, on one clock. Phases: a warm-up, saturation
 * (WINDOW messages in flight, a new array whenever room is made), a paced phase at the budget's
 * rate, a light paced phase alone then while 10 clients search (DESIGN §10: no statement holds the
 * event loop), and a burst of new chats at the budget's rate. New customers arrive through each
 * phase (one message in ten is a new chat at the paced rate), except in the burst, where every
 * message opens a chat: a new ticket, its contact, its attendance and its entry in the queue.
 */
const WINDOW = 1000;
const BATCH = 100;
const SATURATION_MESSAGES = 20_000;
const PACED_PER_SECOND = 1000;
const PACED_MESSAGES = 10_000;
/** The paced phase stops offering when this many are in flight: the rate is not held. */
const PACED_MAX_IN_FLIGHT = 5000;
const PACED_TICK_MS = 10;
const CUSTOMERS = 1000;
/** The light phases: well under saturation, so their latencies show what the searches add. */
const LIGHT_PER_SECOND = 200;
const LIGHT_MESSAGES = 3000;
const SEARCHERS = 10;
const BURST_CHATS = 1000;
const WID_PREFIX = 'BENCH';
const BUDGET = { sqlite: 3000, pg: 1500 };

interface PhaseResult {
  name: string;
  sent: number;
  sendSeconds: number;
  delivered: number;
  seconds: number;
  meanInFlight: number;
  spanSeconds: number;
  latencies: number[];
  lost: number;
  httpFailures: number;
  httpSample: string;
  /** The clients requesting beside the phase, when it had some. */
  background?: { clients: number; durations: number[]; failures: number };
}

async function inbound(url: string, meta: DatasetMeta, kind: 'sqlite' | 'pg'): Promise<Figures> {
  const adminToken = await login(url, ADMIN_EMAIL);
  const agentToken = await login(url, meta.agents[0]!.email);
  const light = { kind: 'paced', perSecond: LIGHT_PER_SECOND, tickMs: PACED_TICK_MS, batch: BATCH, messages: LIGHT_MESSAGES, customers: CUSTOMERS, maxMs: 30_000, maxInFlight: PACED_MAX_IN_FLIGHT };
  const search = listPath({ pageNumber: 1, searchParam: SEARCH_WORD, showAll: true, queueIds: meta.queueIds, withUnreadMessages: false });
  const phases = [
    { name: 'warm-up', kind: 'window', window: 200, batch: 50, messages: 1000, customers: 200, customersFrom: 3_000_000, maxMs: 60_000 },
    { name: 'saturation', kind: 'window', window: WINDOW, batch: BATCH, messages: SATURATION_MESSAGES, customers: CUSTOMERS, customersFrom: 0, maxMs: 30_000 },
    { name: 'paced', kind: 'paced', perSecond: PACED_PER_SECOND, tickMs: PACED_TICK_MS, batch: BATCH, messages: PACED_MESSAGES, customers: CUSTOMERS, customersFrom: CUSTOMERS, maxMs: 30_000, maxInFlight: PACED_MAX_IN_FLIGHT },
    { ...light, name: 'light', customersFrom: 2 * CUSTOMERS },
    { ...light, name: 'light, searching', customersFrom: 3 * CUSTOMERS, background: { clients: SEARCHERS, path: search } },
    { name: 'new chats', kind: 'paced', perSecond: PACED_PER_SECOND, tickMs: PACED_TICK_MS, batch: BATCH, messages: BURST_CHATS, customers: BURST_CHATS, customersFrom: 4 * CUSTOMERS, maxMs: 30_000, maxInFlight: PACED_MAX_IN_FLIGHT },
  ];
  const results = await runLoad<PhaseResult[]>({
    type: 'inbound',
    url,
    adminToken,
    agentToken,
    companyId: meta.companyId,
    connectionId: meta.inboundConnectionId,
    prefix: WID_PREFIX,
    bodies: Array.from({ length: 1000 }, (_, k) => messageBody(2_000_000 + k)),
    phases,
  });
  const [warm, saturated, paced, quiet, searched, burst] = results as [PhaseResult, PhaseResult, PhaseResult, PhaseResult, PhaseResult, PhaseResult];
  if (warm.delivered === 0) {
    return { inbound: `no message reached the agent's socket (${warm.httpFailures} posts failed: ${warm.httpSample})` };
  }
  const problems = (p: PhaseResult) =>
    [p.lost > 0 && `${p.lost} NEVER ARRIVED`, p.httpFailures > 0 && `${p.httpFailures} posts FAILED: ${p.httpSample}`].filter(Boolean).join(' · ');
  const latency = (p: PhaseResult) => {
    const sorted = [...p.latencies].sort((a, b) => a - b);
    return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), mean: mean(sorted) };
  };
  const budget = BUDGET[kind];
  const s = latency(saturated);
  const delivered = saturated.delivered / saturated.seconds;
  const throughput = saturated.delivered / saturated.spanSeconds;
  const p = latency(paced);
  const q = latency(quiet);
  const l = latency(searched);
  const b = latency(burst);
  const searches = [...searched.background!.durations].sort((a, b) => a - b);
  return {
    'inbound at saturation (msg/s)':
      `${rate(saturated.sent / saturated.sendSeconds)} offered, ${rate(delivered)} delivered   ` +
      `${(delivered / WHATICKET_INBOUND).toFixed(0)}× whaticket ${WHATICKET_INBOUND} msg/s · budget ≥ ${budget.toLocaleString('en')}: ${delivered >= budget ? 'met' : 'MISSED'} · ` +
      `arrays of ${BATCH}, at most ${WINDOW.toLocaleString('en')} in flight, ${saturated.delivered.toLocaleString('en')} messages ${problems(saturated)}`,
    'inbound at saturation, send → frame (p50 / p99 ms)': `${ms(s.p50)} / ${ms(s.p99)}   mean ${ms(s.mean)} (queueing at saturation included)`,
    "inbound at saturation, Little's law":
      `mean in flight ${rate(saturated.meanInFlight)} ≈ throughput ${rate(throughput)} msg/s × mean latency ${ms(s.mean)} ms = ${rate((throughput * s.mean) / 1000)}`,
    [`inbound paced at ${PACED_PER_SECOND.toLocaleString('en')}/s (msg/s)`]:
      `${rate(paced.sent / paced.sendSeconds)} offered, ${rate(paced.delivered / paced.seconds)} delivered · mean in flight ${rate(paced.meanInFlight)}` +
      `${paced.sent < PACED_MESSAGES ? ` · rate NOT HELD: stopped after ${paced.sent.toLocaleString('en')} with ${PACED_MAX_IN_FLIGHT.toLocaleString('en')} in flight` : ''} ${problems(paced)}`,
    [`inbound paced at ${PACED_PER_SECOND.toLocaleString('en')}/s, send → frame (p50 / p99 ms)`]: `${ms(p.p50)} / ${ms(p.p99)}   budget p99 < 50: ${p.p99 < 50 ? 'met' : 'MISSED'}`,
    [`inbound paced at ${LIGHT_PER_SECOND}/s alone (p50 / p99 ms)`]: `${ms(q.p50)} / ${ms(q.p99)} ${problems(quiet)}`,
    [`inbound paced at ${LIGHT_PER_SECOND}/s, ${SEARCHERS} clients searching`]:
      `${ms(l.p50)} / ${ms(l.p99)}   budget: within a few ms of alone · searches p50/p99 ${ms(quantile(searches, 0.5))} / ${ms(quantile(searches, 0.99))} ms, ` +
      `n=${searches.length}${searched.background!.failures > 0 ? `, ${searched.background!.failures} FAILED` : ''} ${problems(searched)}`,
    [`inbound, ${BURST_CHATS.toLocaleString('en')} new chats at ${PACED_PER_SECOND.toLocaleString('en')}/s (p50 / p99 ms)`]:
      `${ms(b.p50)} / ${ms(b.p99)}   ${rate(burst.delivered / burst.seconds)} msg/s delivered · no budget of its own: every message a new ticket ${problems(burst)}`,
  };
}

export function inboundBench(): Promise<Figures> {
  return onEachDatabase(inbound);
}
