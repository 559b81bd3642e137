import { ADMIN_EMAIL, PASSWORD, SEARCH_WORD, T200, type DatasetMeta } from './dataset.js';
import { describeBudget, ms, quantile, rate, verdict, WHATICKET, type Budget, type Figures, type OldFigure } from './figures.js';
import { runLoad } from './load.js';
import { login, onEachDatabase } from './on-database.js';

/** The load levels of bench-dataset.md. */
const CLIENTS = [1, 10] as const;

export interface HttpRequest {
  label: string;
  path: string;
  token: string;
  method?: string;
  body?: unknown;
  /** Requests per load level (twice as many at 10 clients). */
  count: number;
  /** Stop sooner when one load level takes this long (slow requests). */
  maxMs: number;
  budget: Budget;
  /** The old product's figures for the same request, when it was measured there. */
  whaticket?: Record<1 | 10, OldFigure>;
  /** Where Atende's answer differs in cost by contract from the old product's. */
  contract?: string;
}

interface LoadRun {
  clients: number;
  durations: number[];
  seconds: number;
  failures: number;
  sample: string;
  count: number | null;
}

/**
 * Drives each request from the load generator's process at 1 and 10 concurrent keep-alive
 * clients; a line per level: req/s and p50 / p95 / p99, the old product's figure and the ratio,
 * the budget and whether it is met, and how Atende's answer differs by contract.
 */
export async function httpFigures(url: string, requests: HttpRequest[]): Promise<Figures> {
  const job = requests.map(({ label, path, token, method, body, count, maxMs }) => ({ label, path, token, method, body, count, maxMs }));
  const results = await runLoad<{ label: string; runs: LoadRun[] }[]>({ type: 'http', url, requests: job, clients: CLIENTS });
  const figures: Figures = {};
  for (const { label, runs } of results) {
    const request = requests.find((r) => r.label === label)!;
    for (const run of runs) {
      const sorted = [...run.durations].sort((a, b) => a - b);
      const perSecond = sorted.length / run.seconds;
      const [p50, p95, p99] = [0.5, 0.95, 0.99].map((q) => quantile(sorted, q)) as [number, number, number];
      const old = request.whaticket?.[run.clients as 1 | 10];
      const budget = describeBudget(request.budget);
      const met = verdict(request.budget, run.clients, perSecond, p50, p95, old);
      const notes = [
        old && `${(perSecond / old.perSecond).toFixed(1)}× whaticket ${rate(old.perSecond)} req/s (p50/p95/p99 ${old.p50} / ${old.p95} / ${old.p99})`,
        budget && met && `budget ${budget}: ${met}`,
        request.contract,
        run.count !== null && `${run.count} in the answer`,
        `n=${sorted.length}`,
        run.failures > 0 && `${run.failures} FAILED: ${run.sample}`,
      ].filter(Boolean);
      figures[`${label} · ${run.clients} client${run.clients > 1 ? 's' : ''}`] =
        `${rate(perSecond)} req/s · p50/p95/p99 ${ms(p50)} / ${ms(p95)} / ${ms(p99)} ms   ${notes.join(' · ')}`;
    }
  }
  return figures;
}

const LIST_BUDGET: Budget = { ratio: 10, p95: 20 };
const COUNT_CAPPED = 'cheaper by contract: the count stops at 1,000 (whaticket counts every match)';
const SEARCH_COUNT = 'cheaper by contract: the count stops at the page asked and one more (whaticket counts every match)';

export function listPath(params: Record<string, string | number | boolean | number[]>): string {
  return `/api/tickets?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, Array.isArray(v) ? JSON.stringify(v) : String(v)]))}`;
}

/** GET /api/tickets as the web app asks for it, the conversation and the login beside, as measured there. */
async function ticketListRequests(url: string, meta: DatasetMeta): Promise<Figures> {
  const admin = await login(url, ADMIN_EMAIL);
  const agent = meta.agents[0]!;
  const agentToken = await login(url, agent.email);
  const [q1, q2] = meta.queueIds;
  const list = { count: 200, maxMs: 30_000, budget: LIST_BUDGET };
  const requests: HttpRequest[] = [
    { label: 'open, admin, show all', token: admin, path: listPath({ pageNumber: 1, status: 'open', showAll: true, queueIds: [q1, q2], withUnreadMessages: false }), ...list, whaticket: WHATICKET.openAdmin, contract: COUNT_CAPPED },
    { label: 'pending, agent of one queue', token: agentToken, path: listPath({ pageNumber: 1, status: 'pending', showAll: false, queueIds: [agent.queueId], withUnreadMessages: false }), ...list, whaticket: WHATICKET.pendingAgent, contract: COUNT_CAPPED },
    { label: 'open, agent (own)', token: agentToken, path: listPath({ pageNumber: 1, status: 'open', showAll: false, queueIds: [agent.queueId], withUnreadMessages: false }), ...list, budget: { p95: 20 } },
    { label: 'queue filter, admin', token: admin, path: listPath({ pageNumber: 1, status: 'open', showAll: true, queueIds: [q2], withUnreadMessages: false }), ...list, budget: { p95: 20 } },
    { label: 'tag filter, admin (closed)', token: admin, path: listPath({ pageNumber: 1, status: 'closed', showAll: true, tags: [meta.tagIds[0]!], withUnreadMessages: false }), ...list, budget: { p95: 20 } },
    {
      label: 'messages of the 200-message ticket',
      token: admin,
      path: `/api/messages/${T200}?pageNumber=1`,
      count: 200,
      maxMs: 30_000,
      budget: { ratio: 5 },
      whaticket: WHATICKET.messages,
      contract: "by contract: no dataJson in the answer (whaticket ships its ~570 B per message), but the contact's whole history (its 5 tickets) paged and counted where whaticket reads one ticket",
    },
    { label: 'POST login (scrypt)', token: '', method: 'POST', path: '/api/auth/login', body: { email: ADMIN_EMAIL, password: PASSWORD }, count: 50, maxMs: 30_000, budget: { ratio: 0.5 }, whaticket: WHATICKET.login },
  ];
  return httpFigures(url, requests);
}

/**
 * The ticket search: a frequent term (1% of the messages) for an admin and an agent, its fifth
 * page, a rare phrase, an accented term typed without accents and in capitals, and a contact name.
 */
async function searchRequests(url: string, meta: DatasetMeta): Promise<Figures> {
  const admin = await login(url, ADMIN_EMAIL);
  const agent = meta.agents[0]!;
  const agentToken = await login(url, agent.email);
  const [q1, q2] = meta.queueIds;
  const search = (term: string, token: string, pageNumber = 1, queueIds = [q1, q2]) =>
    listPath({ pageNumber, searchParam: term, showAll: token === admin, queueIds, withUnreadMessages: false });
  const common = { count: 200, maxMs: 30_000, budget: { p50: 25 }, contract: SEARCH_COUNT };
  const requests: HttpRequest[] = [
    { label: `search "${SEARCH_WORD}", admin`, token: admin, path: search(SEARCH_WORD, admin), ...common, budget: { ratio: 100, p50: 25 }, whaticket: WHATICKET.search },
    { label: `search "${SEARCH_WORD}", agent`, token: agentToken, path: search(SEARCH_WORD, agentToken, 1, [agent.queueId]), ...common },
    { label: `search "${SEARCH_WORD}", admin, page 5`, token: admin, path: search(SEARCH_WORD, admin, 5), ...common },
    { label: `search "${SEARCH_WORD} pix" (rare), admin`, token: admin, path: search(`${SEARCH_WORD} pix`, admin), ...common },
    { label: 'search "CARTAO" (cartão), admin', token: admin, path: search('CARTAO', admin), ...common },
    { label: 'search "sebastião" (a name), admin', token: admin, path: search('sebastião', admin), ...common },
  ];
  const pending = listPath({ pageNumber: 1, status: 'pending', showAll: false, queueIds: [agent.queueId], withUnreadMessages: false });
  const light: HttpRequest = { label: 'pending list, agent', token: agentToken, path: pending, count: 200, maxMs: 15_000, budget: {} };
  return { ...(await httpFigures(url, requests)), ...(await whileSearching(url, light, requests[0]!)) };
}

/**
 * DESIGN §10: no request holds the event loop. A light list's latency at one client alone, then
 * while 10 other clients search (each from a load generator process of its own).
 */
async function whileSearching(url: string, light: HttpRequest, search: HttpRequest): Promise<Figures> {
  const durations = async (request: HttpRequest, clients: number) => {
    const { label, path, token, count, maxMs } = request;
    const [result] = await runLoad<{ runs: LoadRun[] }[]>({ type: 'http', url, requests: [{ label, path, token, count, maxMs }], clients: [clients] });
    return result!.runs[0]!.durations.sort((a, b) => a - b);
  };
  const spread = (sorted: number[]) => `p50/p95/p99 ${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.95))} / ${ms(quantile(sorted, 0.99))} ms · n=${sorted.length}`;
  const alone = await durations(light, 1);
  // The searchers run past the light client's run: it is measured under their whole load.
  const searching = durations({ ...search, count: Number.MAX_SAFE_INTEGER, maxMs: light.maxMs }, 10);
  const loaded = await durations(light, 1);
  const searched = await searching;
  return {
    [`${light.label}, alone`]: spread(alone),
    [`${light.label}, while 10 clients search "${SEARCH_WORD}"`]: `${spread(loaded)}   budget: within a few ms of alone`,
    [`search "${SEARCH_WORD}" by those 10 clients`]: spread(searched),
  };
}

export function ticketListBench(): Promise<Figures> {
  return onEachDatabase(ticketListRequests);
}

export function searchBench(): Promise<Figures> {
  return onEachDatabase(searchRequests);
}
