import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../core/config/load-config.js';
import { createLogger } from '../core/logger.js';
import { startAtende, type Atende } from '../core/boot.js';
import { ADMIN_EMAIL, benchDatabase, messageBody, PASSWORD, SEARCH_WORD, T200, type BenchDatabase, type DatasetMeta } from './dataset.js';

/**
 * DESIGN §10 on the dataset of bench-dataset.md (bench/dataset.ts): the inbound pipeline (driver
 * event → the agent's socket frame) and GET /api/tickets, on SQLite and, when ATENDE_BENCH_PG_URL
 * or ATENDE_TEST_PG_URL names a server, on PostgreSQL. Clients run in worker threads so their
 * timestamps do not queue behind the server.
 */

/** Customers per inbound phase; each writes MESSAGES / CUSTOMERS times, round robin. */
const CUSTOMERS = 1000;
const MESSAGES = 5000;
/** Messages in flight (injected, no frame yet) in the throughput phase. */
const WINDOW = 200;
/** The paced phase's rate: the budget's. */
const PACED_PER_SECOND = 1000;
const WID_PREFIX = 'BENCH';

/** The existing product on this dataset (bench-dataset.md, 1 client: p50 / p95 ms). */
const WHATICKET = {
  openAdmin: '75 / 104',
  pendingAgent: '91 / 104',
  search: '2455 / 2555',
  messages: '23 / 34',
  login: '32 / 45',
  inbound: '2.9 msg/s',
};

export type Figures = Record<string, string>;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function ms(n: number): string {
  return Number.isNaN(n) ? '—' : n < 10 ? n.toFixed(1) : String(Math.round(n));
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

async function startServer(database: BenchDatabase): Promise<{ atende: Atende; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-bench-pipeline-'));
  const config = loadConfig({
    dir,
    env: {},
    flags: {
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      databaseUrl: database.databaseUrl,
      adminEmail: 'super@bench.local',
      adminPassword: 'bench-super-secret',
      simulator: true,
    },
  });
  return { atende: await startAtende(config, createLogger('silent', false)), dir };
}

export async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  if (res.status !== 200) throw new Error(`bench login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface HttpRequest {
  label: string;
  path: string;
  token: string;
  method?: string;
  body?: unknown;
  count: number;
  /** Stop sooner when one request type takes this long in all (slow searches). */
  maxMs: number;
  budget: string;
  whaticket: string;
}

interface HttpResult {
  label: string;
  durations: number[];
  failures: number;
  sample: string;
  count: number | null;
}

function runHttp(url: string, requests: HttpRequest[]): Promise<HttpResult[]> {
  const worker = new Worker(new URL('./http-client.mjs', import.meta.url), { workerData: { url, requests, warmup: 10 } });
  const results: HttpResult[] = [];
  return new Promise((resolve, reject) => {
    worker.on('message', (m: { type: string } & HttpResult) => {
      if (m.type === 'result') results.push(m);
      if (m.type === 'done') void worker.terminate().then(() => resolve(results));
    });
    worker.on('error', reject);
  });
}

/** GET /api/tickets as the web app asks for it (and the conversation and login beside, as measured there). */
async function ticketRequests(url: string, meta: DatasetMeta): Promise<Figures> {
  const admin = await login(url, ADMIN_EMAIL);
  const agent = meta.agents[0]!;
  const agentToken = await login(url, agent.email);
  const [q1, q2] = meta.queueIds;
  const list = (params: Record<string, string | number | boolean | number[]>) =>
    `/api/tickets?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, Array.isArray(v) ? JSON.stringify(v) : String(v)]))}`;
  const tickets = { count: 200, maxMs: 60_000, budget: 'p95 < 50' };
  const requests: HttpRequest[] = [
    { label: 'open, admin, show all', token: admin, path: list({ pageNumber: 1, status: 'open', showAll: true, queueIds: [q1, q2], withUnreadMessages: false }), ...tickets, whaticket: WHATICKET.openAdmin },
    { label: 'pending, agent of one queue', token: agentToken, path: list({ pageNumber: 1, status: 'pending', showAll: false, queueIds: [agent.queueId], withUnreadMessages: false }), ...tickets, whaticket: WHATICKET.pendingAgent },
    { label: 'open, agent (own)', token: agentToken, path: list({ pageNumber: 1, status: 'open', showAll: false, queueIds: [agent.queueId], withUnreadMessages: false }), ...tickets, whaticket: '' },
    { label: 'queue filter, admin', token: admin, path: list({ pageNumber: 1, status: 'open', showAll: true, queueIds: [q2], withUnreadMessages: false }), ...tickets, whaticket: '' },
    { label: 'tag filter, admin (closed)', token: admin, path: list({ pageNumber: 1, status: 'closed', showAll: true, tags: [meta.tagIds[0]!], withUnreadMessages: false }), ...tickets, whaticket: '' },
    { label: `search "${SEARCH_WORD}", admin`, token: admin, path: list({ pageNumber: 1, searchParam: SEARCH_WORD, showAll: true, queueIds: [q1, q2], withUnreadMessages: false }), ...tickets, whaticket: WHATICKET.search },
    { label: `search "${SEARCH_WORD}", agent`, token: agentToken, path: list({ pageNumber: 1, searchParam: SEARCH_WORD, showAll: false, queueIds: [agent.queueId], withUnreadMessages: false }), ...tickets, whaticket: '' },
    { label: 'messages of the 200-message ticket', token: admin, path: `/api/messages/${T200}?pageNumber=1`, count: 200, maxMs: 60_000, budget: '', whaticket: WHATICKET.messages },
    { label: 'POST login (scrypt)', token: '', method: 'POST', path: '/api/auth/login', body: { email: ADMIN_EMAIL, password: PASSWORD }, count: 50, maxMs: 30_000, budget: '', whaticket: WHATICKET.login },
  ];
  return httpFigures(url, requests);
}

/** Runs the requests and prints p50 / p95 of each with its budget, the old product's figure and the answer's count. */
export async function httpFigures(url: string, requests: HttpRequest[]): Promise<Figures> {
  const figures: Figures = {};
  for (const result of await runHttp(url, requests)) {
    const request = requests.find((r) => r.label === result.label)!;
    const sorted = [...result.durations].sort((a, b) => a - b);
    const notes = [
      request.budget && `budget ${request.budget}`,
      request.whaticket && `whaticket ${request.whaticket}`,
      result.count !== null && `${result.count} in the answer`,
      `n=${sorted.length}`,
      result.failures > 0 && `${result.failures} FAILED: ${result.sample}`,
    ].filter(Boolean);
    figures[`${result.label} (p50 / p95 ms)`] = `${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.95))}   ${notes.join(' · ')}`;
  }
  return figures;
}

/**
 * The agent's socket in a worker; `seen` gets the arrival time of each frame showing a message: by
 * its wid, or by "number|body" for the ticket update of a ticket that just entered the queue.
 */
async function openAgentSocket(url: string, token: string, companyId: number, seen: (key: string, at: number) => void): Promise<Worker> {
  const worker = new Worker(new URL('./pipeline-listener.mjs', import.meta.url), {
    workerData: { url: url.replace('http', 'ws'), token, companyId, prefix: WID_PREFIX },
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { type: string; key?: string; at?: number; message?: string }) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'frame') seen(m.key!, m.at!);
      else if (m.type === 'error') reject(new Error(m.message));
    });
    worker.on('error', reject);
  });
  return worker;
}

interface Phase {
  delivered: number;
  seconds: number;
  latencies: number[];
}

/**
 * Inbound: customers write through the paired simulator connection, in process, as the driver
 * would report them. Two phases of MESSAGES messages from CUSTOMERS new customers each: as fast
 * as the pipeline takes them (WINDOW in flight), then paced at PACED_PER_SECOND.
 */
async function inbound(atende: Atende, meta: DatasetMeta): Promise<Figures> {
  const { container, server } = atende;
  const device = container.simulator?.deviceOf(meta.inboundConnectionId);
  if (!device) throw new Error('the bench connection is not running');
  const agent = meta.agents[0]!;
  const token = await login(server.url, agent.email);

  const sentAt = new Map<string, number>();
  /** "number|body" → wid, for messages whose first sign may be their ticket's update. */
  const byContent = new Map<string, string>();
  const latencies: number[] = [];
  let lastSeen = 0;
  let waiter: (() => void) | undefined;
  const listener = await openAgentSocket(server.url, token, meta.companyId, (key, at) => {
    const wid = sentAt.has(key) ? key : byContent.get(key);
    const sent = wid === undefined ? undefined : sentAt.get(wid);
    if (wid === undefined || sent === undefined) return;
    sentAt.delete(wid);
    latencies.push(at - sent);
    lastSeen = Math.max(lastSeen, at);
    waiter?.();
  });
  const arrival = (timeoutMs: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      waiter = () => {
        clearTimeout(timer);
        waiter = undefined;
        resolve(true);
      };
    });

  let seq = 0;
  const inject = async (customer: number) => {
    seq += 1;
    const wid = `${WID_PREFIX}${String(seq).padStart(8, '0')}`;
    // Landline-style numbers (55 11 3…): none of the dataset's contacts has one.
    const from = `55113${String(customer).padStart(7, '0')}`;
    const body = messageBody(2_000_000 + seq);
    byContent.set(`${from}|${body}`, wid);
    sentAt.set(wid, now());
    await device.inbound({ id: wid, from, name: `Cliente Bench ${customer}`, body });
  };
  /** Waits until every injected message arrived, or nothing arrived for 10 s. */
  const drain = async () => {
    while (sentAt.size > 0) if (!(await arrival(10_000))) return;
  };
  const phase = async (run: () => Promise<void>): Promise<Phase> => {
    latencies.length = 0;
    const started = now();
    await run();
    await drain();
    return { delivered: latencies.length, seconds: (lastSeen - started) / 1000, latencies: [...latencies].sort((a, b) => a - b) };
  };

  try {
    // Warm-up: the socket's rooms, caches, the first tickets.
    const warm = await phase(async () => {
      for (let k = 0; k < 50; k += 1) await inject(3_000_000 + k);
    });
    if (warm.delivered === 0) {
      return { 'inbound': 'no message reached the agent socket (is the inbound pipeline in place?)' };
    }

    const saturated = await phase(async () => {
      for (let k = 0; k < MESSAGES; k += 1) {
        while (sentAt.size >= WINDOW) if (!(await arrival(10_000))) return;
        await inject(k % CUSTOMERS);
      }
    });

    const paced = await phase(async () => {
      const start = now();
      for (let k = 0; k < MESSAGES; k += 1) {
        const due = start + (k * 1000) / PACED_PER_SECOND;
        const wait = due - now();
        if (wait > 1) await sleep(wait);
        await inject(CUSTOMERS + (k % CUSTOMERS));
      }
    });

    const rate = (p: Phase) => (p.seconds > 0 ? Math.round(p.delivered / p.seconds) : 0);
    const lost = (p: Phase) => (p.delivered < MESSAGES ? ` · ${MESSAGES - p.delivered} NEVER ARRIVED` : '');
    return {
      [`inbound, ${WINDOW} in flight (msg/s)`]: `${rate(saturated)}   budget ≥ 1,000 · whaticket ${WHATICKET.inbound}${lost(saturated)}`,
      [`inbound, ${WINDOW} in flight (p50 / p99 ms)`]: `${ms(quantile(saturated.latencies, 0.5))} / ${ms(quantile(saturated.latencies, 0.99))}   (queueing included)`,
      [`inbound paced at ${PACED_PER_SECOND}/s (msg/s)`]: `${rate(paced)}${lost(paced)}`,
      [`inbound paced at ${PACED_PER_SECOND}/s (p50 / p99 ms)`]: `${ms(quantile(paced.latencies, 0.5))} / ${ms(quantile(paced.latencies, 0.99))}   budget p99 < 50`,
    };
  } finally {
    listener.postMessage('close');
  }
}

/** A run copy of the dataset on `kind`, a server on it, and `run`'s figures labelled with the database. */
async function onDatabase(kind: 'sqlite' | 'pg', run: (atende: Atende, meta: DatasetMeta) => Promise<Figures>, pgUrl?: string): Promise<Figures> {
  const started = performance.now();
  const database = await benchDatabase(kind, { pgUrl });
  const figures: Figures = {
    dataset: `${database.built ? `built in ${database.meta.buildSeconds} s` : 'from the cache'}; ready in ${Math.round((performance.now() - started) / 1000)} s`,
  };
  const { atende, dir } = await startServer(database);
  try {
    Object.assign(figures, await run(atende, database.meta));
  } finally {
    await atende.stop();
    await database.release();
    rmSync(dir, { recursive: true, force: true });
  }
  return Object.fromEntries(Object.entries(figures).map(([label, value]) => [`[${kind}] ${label}`, value]));
}

/** `run` on SQLite, then on PostgreSQL when ATENDE_BENCH_PG_URL (or ATENDE_TEST_PG_URL) names a server. */
export async function onEachDatabase(run: (atende: Atende, meta: DatasetMeta) => Promise<Figures>): Promise<Figures> {
  const figures = await onDatabase('sqlite', run);
  const pgUrl = process.env.ATENDE_BENCH_PG_URL ?? process.env.ATENDE_TEST_PG_URL;
  if (pgUrl) Object.assign(figures, await onDatabase('pg', run, pgUrl));
  else figures['[pg]'] = 'skipped: set ATENDE_BENCH_PG_URL=postgres://… to run on PostgreSQL too';
  return figures;
}

/**
 * The ticket search alone (`npm run bench -- search`): a frequent term (1% of the messages) for an
 * admin and an agent, its second page, a rare phrase, an accented term typed without accents and in
 * capitals, and a contact name.
 */
async function searchRequests(url: string, meta: DatasetMeta): Promise<Figures> {
  const admin = await login(url, ADMIN_EMAIL);
  const agent = meta.agents[0]!;
  const agentToken = await login(url, agent.email);
  const [q1, q2] = meta.queueIds;
  const search = (term: string, token: string, pageNumber = 1, queueIds = [q1!, q2!]) =>
    `/api/tickets?${new URLSearchParams({ pageNumber: String(pageNumber), searchParam: term, showAll: String(token === admin), queueIds: JSON.stringify(queueIds), withUnreadMessages: 'false' })}`;
  const common = { count: 200, maxMs: 60_000, budget: 'p50 < 25' };
  const requests: HttpRequest[] = [
    { label: `search "${SEARCH_WORD}", admin`, token: admin, path: search(SEARCH_WORD, admin), ...common, whaticket: WHATICKET.search },
    { label: `search "${SEARCH_WORD}", agent`, token: agentToken, path: search(SEARCH_WORD, agentToken, 1, [agent.queueId]), ...common, whaticket: '' },
    { label: `search "${SEARCH_WORD}", admin, page 5`, token: admin, path: search(SEARCH_WORD, admin, 5), ...common, whaticket: '' },
    { label: `search "${SEARCH_WORD} pix" (rare), admin`, token: admin, path: search(`${SEARCH_WORD} pix`, admin), ...common, whaticket: '' },
    { label: 'search "CARTAO" (cartão), admin', token: admin, path: search('CARTAO', admin), ...common, whaticket: '' },
    { label: 'search "sebastião" (a name), admin', token: admin, path: search('sebastião', admin), ...common, whaticket: '' },
  ];
  const pending = `/api/tickets?${new URLSearchParams({ pageNumber: '1', status: 'pending', showAll: 'false', queueIds: JSON.stringify([agent.queueId]), withUnreadMessages: 'false' })}`;
  const light: HttpRequest = { label: 'pending list, agent', token: agentToken, path: pending, count: 200, maxMs: 15_000, budget: '', whaticket: '' };
  return { ...(await httpFigures(url, requests)), ...(await whileSearching(url, light, requests[0]!)) };
}

/** Issue 19: a search must not hold the event loop. `light`'s latency alone, then while 10 clients search. */
async function whileSearching(url: string, light: HttpRequest, search: HttpRequest): Promise<Figures> {
  const spread = (durations: number[]) => {
    const sorted = [...durations].sort((a, b) => a - b);
    return `${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.95))} / ${ms(quantile(sorted, 0.99))}`;
  };
  const [alone] = await runHttp(url, [light]);
  const searchers = Array.from({ length: 10 }, () => runHttp(url, [{ ...search, count: Number.MAX_SAFE_INTEGER, maxMs: light.maxMs }]));
  const [loaded] = await runHttp(url, [light]);
  const searched = (await Promise.all(searchers)).flatMap(([result]) => result!.durations);
  return {
    [`${light.label}, alone (p50 / p95 / p99 ms)`]: spread(alone!.durations),
    [`${light.label}, while 10 clients search (p50 / p95 / p99 ms)`]: spread(loaded!.durations),
    [`${search.label}, 10 clients (p50 / p95 / p99 ms)`]: `${spread(searched)} · n=${searched.length}`,
  };
}

export function searchBench(): Promise<Figures> {
  return onEachDatabase(async (atende, meta) => searchRequests(atende.server.url, meta));
}

export function pipelineBench(): Promise<Figures> {
  return onEachDatabase(async (atende, meta) => ({ ...(await ticketRequests(atende.server.url, meta)), ...(await inbound(atende, meta)) }));
}
