import type { Knex } from 'knex';
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
 * phase (one message in ten is a new chat at the paced rate) while the others write in chats
 * already running (the earlier phase's), except in the burst, where every message opens a chat: a
 * new ticket, its contact, its attendance and its entry in the queue. After the phases, the stored
 * messages are checked against what was sent (each once, each chat's in order).
 */
const WINDOW = 1000;
const BATCH = 100;
const SATURATION_MESSAGES = 20_000;
const PACED_PER_SECOND = 1000;
const PACED_MESSAGES = 10_000;
/** The paced phase stops offering when this many are in flight: the rate is not held. */
const PACED_MAX_IN_FLIGHT = 5000;
const PACED_TICK_MS = 5;
const CUSTOMERS = 1000;
/** The light phases: well under saturation, so their latencies show what the searches add. */
const LIGHT_PER_SECOND = 200;
const LIGHT_MESSAGES = 3000;
const SEARCHERS = 10;
const BURST_CHATS = 1000;
/** The warm-up's customers, and the saturation phase's: the chats running when the next phase starts. */
const WARM_UP_CUSTOMERS = { from: 3_000_000, count: 200 };
const SATURATION_CHATS = { from: 0, count: CUSTOMERS };
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
  arrays: PostedArray[];
  /** The clients requesting beside the phase, when it had some. */
  background?: { clients: number; durations: number[]; failures: number };
}

/** The load generator's provider id of its `seq`-th message (numbered in sending order, from 0). */
const widOf = (seq: number) => `${WID_PREFIX}${String(seq).padStart(8, '0')}`;

/** An array the load generator posted: its first message's seq, how many, when posted and when answered. */
type PostedArray = [first: number, count: number, postedAt: number, answeredAt: number | undefined];

/**
 * The bench's messages as the server stored them, against the arrays the load generator posted:
 * each message once, and a chat's messages in the order sent (their ids in the order of their
 * wids) wherever that order was given: within an array, or across arrays when the later one was
 * posted after the earlier one was answered. Arrays in flight together reach the server in either
 * order, as two devices' deliveries would. The frames say when a message reached the agent; this
 * says that it was kept.
 */
async function storedCheck(db: Knex, companyId: number, arrays: PostedArray[]): Promise<string> {
  const arrayOf = new Map<string, PostedArray>();
  for (const array of arrays) for (let seq = array[0]; seq < array[0] + array[1]; seq += 1) arrayOf.set(widOf(seq), array);
  const orderedAtSend = (earlier: PostedArray, later: PostedArray) => earlier === later || (earlier[3] !== undefined && earlier[3] <= later[2]);
  const rows = (await db('messages')
    .where({ companyId })
    .where('wid', '>=', WID_PREFIX)
    .where('wid', '<', `${WID_PREFIX}~`)
    .orderBy('id')
    .select('wid', 'contactId')) as { wid: string; contactId: number }[];
  const seen = new Set<string>();
  const lastOfChat = new Map<number, string>();
  let twice = 0;
  let outOfOrder = 0;
  let crossed = 0;
  for (const { wid, contactId } of rows) {
    if (seen.has(wid)) twice += 1;
    seen.add(wid);
    const last = lastOfChat.get(contactId);
    // `wid` was sent before `last` but stored after it.
    if (last !== undefined && last > wid) {
      if (orderedAtSend(arrayOf.get(wid)!, arrayOf.get(last)!)) outOfOrder += 1;
      else crossed += 1;
    }
    lastOfChat.set(contactId, wid);
  }
  const missing = [...arrayOf.keys()].filter((wid) => !seen.has(wid));
  const sent = arrayOf.size;
  const faults = [
    missing.length > 0 && `${missing.length} MISSING (${missing.slice(0, 5).join(', ')})`,
    twice > 0 && `${twice} STORED TWICE`,
    outOfOrder > 0 && `${outOfOrder} OUT OF ORDER in their chat`,
  ].filter(Boolean);
  const stored = `${rows.length.toLocaleString('en')} of ${sent.toLocaleString('en')} messages sent`;
  const concurrent = crossed > 0 ? ` (${crossed} of a chat's messages in arrays posted together were stored in the other order)` : '';
  return faults.length > 0 ? `${stored}: ${faults.join(' · ')}${concurrent}` : `${stored}, each once, each chat's in the order sent${concurrent}`;
}

async function inbound(url: string, meta: DatasetMeta, kind: 'sqlite' | 'pg', db: Knex): Promise<Figures> {
  const adminToken = await login(url, ADMIN_EMAIL);
  const agentToken = await login(url, meta.agents[0]!.email);
  const light = { kind: 'paced', perSecond: LIGHT_PER_SECOND, tickMs: PACED_TICK_MS, batch: BATCH, messages: LIGHT_MESSAGES, customers: CUSTOMERS, maxMs: 30_000, maxInFlight: PACED_MAX_IN_FLIGHT };
  const search = listPath({ pageNumber: 1, searchParam: SEARCH_WORD, showAll: true, queueIds: meta.queueIds, withUnreadMessages: false });
  const phases = [
    { name: 'warm-up', kind: 'window', window: 200, batch: 50, messages: 1000, customers: 200, customersFrom: WARM_UP_CUSTOMERS.from, maxMs: 60_000 },
    { name: 'saturation', kind: 'window', window: WINDOW, batch: BATCH, messages: SATURATION_MESSAGES, customers: CUSTOMERS, customersFrom: 0, running: WARM_UP_CUSTOMERS, maxMs: 30_000 },
    { name: 'paced', kind: 'paced', perSecond: PACED_PER_SECOND, tickMs: PACED_TICK_MS, batch: BATCH, messages: PACED_MESSAGES, customers: CUSTOMERS, customersFrom: CUSTOMERS, running: SATURATION_CHATS, maxMs: 30_000, maxInFlight: PACED_MAX_IN_FLIGHT },
    { ...light, name: 'light', customersFrom: 2 * CUSTOMERS, running: SATURATION_CHATS },
    { ...light, name: 'light, searching', customersFrom: 3 * CUSTOMERS, running: SATURATION_CHATS, background: { clients: SEARCHERS, path: search } },
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
  const stored = await storedCheck(db, meta.companyId, results.flatMap((phase) => phase.arrays));
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
    'inbound, stored (all phases)': stored,
  };
}

export function inboundBench(): Promise<Figures> {
  return onEachDatabase(inbound);
}
