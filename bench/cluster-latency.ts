import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import WebSocket from 'ws';
import { api, bin, cleanEnv, freePort, initSite, serving, startSimulatorServer, until } from '../tests/helpers/cli.js';
import { createPgDatabase } from '../tests/helpers/server.js';
import { ms, quantile, rate, type Figures } from './figures.js';
import { SERVER_NODE_FLAGS } from './bench-instance.js';

/**
 * Issue 20's figures for several nodes: two `atende serve` processes (the build in dist/) on one
 * PostgreSQL and one Redis, their phone at `atende simulate server`. Customers' messages are posted
 * through one node's simulator API at a light, steady rate; an agent's socket is held on the other
 * node (the event crosses Redis), then on the node running the session (it does not), at each of
 * RATES, one message a post (the simulator API's single form), posts never waiting for answers. Each
 * message's post time and its frame's arrival are taken in this process, on one clock. Last, the
 * node running the session is killed (SIGKILL) and the time until the other one shows it connected
 * is taken (the lease's expiry and a scan: 15 to 20 s by design).
 */
/** Messages per second of each run: a light one, and the (near what one connection takes on a busy 2-core machine). */
const RATES = [10, 50];
const SECONDS = 10;
const WARM_UP = 50;
const CUSTOMERS = 50;
const EMAIL = 'super@bench.test';
const PASSWORD = 'bench-nodes-secret';

interface Node {
  name: string;
  sub: ResultPromise;
  url: string;
}

/** Whether something listens at a redis:// address (the default one is used only when it does). */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  return new Promise<boolean>((resolve) => {
    socket.setTimeout(1000);
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => resolve(false));
  }).then((answered) => {
    socket.destroy();
    return answered;
  });
}

/** An agent's socket that notes when each message's frame (by its wid) arrives. */
async function frameClock(url: string, token: string, companyId: number): Promise<{ arrived: Map<string, number>; close(): void }> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`);
  const arrived = new Map<string, number>();
  const channel = `company-${companyId}-appMessage`;
  ws.on('message', (raw) => {
    const at = performance.now();
    const frame = JSON.parse(raw.toString()) as { channel?: string; data?: { message?: { wid?: string } } };
    const wid = frame.channel === channel ? frame.data?.message?.wid : undefined;
    if (wid && !arrived.has(wid)) arrived.set(wid, at);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { arrived, close: () => ws.close() };
}

interface Phase {
  latencies: number[];
  lost: number;
  failed: number;
  /** Messages per second from the first post to the last frame. */
  delivered: number;
}

/** `perSecond × SECONDS` messages posted one by one through `poster`, their frames awaited on `listener`. */
async function phase(poster: Node, listener: Node, token: string, companyId: number, connectionId: number, prefix: string, perSecond: number, count = perSecond * SECONDS): Promise<Phase> {
  const clock = await frameClock(listener.url, token, companyId);
  const posted = new Map<string, number>();
  let failed = 0;
  const posts: Promise<void>[] = [];
  const started = performance.now();
  for (let k = 0; k < count; k += 1) {
    // Paced against the start, so a slow post does not slow the rate down.
    const due = started + (k * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const wid = `${prefix}-${k}`;
    const customer = `55119${String(83_000_000 + (k % CUSTOMERS)).padStart(8, '0')}`;
    posted.set(wid, performance.now());
    posts.push(
      api(poster.url, 'POST', `/api/simulator/${connectionId}/inbound`, token, { id: wid, from: customer, name: 'Cliente', body: `mensagem ${k}` }).then(
        (res) => void (res.status >= 300 && (failed += 1)),
        () => void (failed += 1),
      ),
    );
  }
  await Promise.all(posts);
  await until(async () => (clock.arrived.size >= posted.size - failed ? true : undefined), 30_000).catch(() => undefined);
  clock.close();
  const latencies = [...posted].filter(([wid]) => clock.arrived.has(wid)).map(([wid, at]) => clock.arrived.get(wid)! - at);
  const last = Math.max(...clock.arrived.values());
  return { latencies: latencies.sort((a, b) => a - b), lost: posted.size - failed - latencies.length, failed, delivered: latencies.length / ((last - started) / 1000) };
}

function summary(p: Phase): string {
  const problems = [p.lost > 0 && `${p.lost} NEVER ARRIVED`, p.failed > 0 && `${p.failed} posts FAILED`].filter(Boolean).join(' · ');
  return `${ms(quantile(p.latencies, 0.5))} / ${ms(quantile(p.latencies, 0.95))} / ${ms(quantile(p.latencies, 0.99))}   max ${ms(p.latencies.at(-1) ?? NaN)}, ${p.latencies.length} messages, ${rate(p.delivered)} msg/s delivered ${problems}`;
}

export async function clusterLatency(): Promise<Figures> {
  const pgBase = process.env.ATENDE_BENCH_PG_URL ?? process.env.ATENDE_TEST_PG_URL;
  const redisUrl = process.env.ATENDE_BENCH_REDIS_URL ?? process.env.ATENDE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const missing = [
    !pgBase && 'PostgreSQL (set ATENDE_BENCH_PG_URL=postgres://…)',
    !(await reachable(redisUrl)) && `Redis (nothing answers at ${redisUrl}; set ATENDE_BENCH_REDIS_URL=redis://…)`,
  ].filter(Boolean);
  if (missing.length > 0) return { 'two nodes': `skipped: needs ${missing.join(' and ')}` };

  const work = mkdtempSync(path.join(tmpdir(), 'atende-bench-nodes-'));
  const database = await createPgDatabase({ base: pgBase });
  const env = { ...cleanEnv, ATENDE_LOG_LEVEL: 'warn' };
  const nodes: Node[] = [];
  let phones: ResultPromise | undefined;
  try {
    const init = await initSite(work, 'site', { email: EMAIL, password: PASSWORD }, database.url);
    if (init.exitCode !== 0) throw new Error(`atende init failed: ${init.stderr}`);
    const simulator = await startSimulatorServer({ cwd: work });
    phones = simulator.sub;
    for (const nodeName of ['node-a', 'node-b']) {
      const sub = execa('node', [...SERVER_NODE_FLAGS, bin, 'serve', '--dir', 'site', '--port', String(await freePort())], {
        cwd: work,
        env: { ...env, REDIS_URL: redisUrl, ATENDE_SIMULATOR_URL: simulator.url, ATENDE_NODE_ID: nodeName },
        extendEnv: false,
        reject: false,
      });
      nodes.push({ name: nodeName, sub, url: '' });
      nodes.at(-1)!.url = (await serving(sub, 60_000)).url;
    }
    const [a, b] = nodes as [Node, Node];
    const login = await api(a.url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD });
    const token = login.body.token as string;
    const companyId = (login.body.user as { companyId: number }).companyId;
    // Made through B, which takes its lease at once (or A, should its scan come first: the owner is read back).
    const connectionId = (await api(b.url, 'POST', '/api/whatsapp', token, { name: 'Bench phone', provider: 'simulator' })).body.id as number;
    await until(async () => ((await api(b.url, 'POST', `/api/simulator/${connectionId}/scan`, token)).status === 200 ? true : undefined), 30_000, 'the scan');
    const shown = async () => (await api(a.url, 'GET', `/api/whatsapp/${connectionId}`, token)).body as { status: string; node: string | null };
    const ownerName = await until(async () => {
      const row = await shown();
      return row.status === 'CONNECTED' && row.node ? row.node : undefined;
    }, 30_000, 'the connection to connect');
    const owner = nodes.find((node) => node.name === ownerName)!;
    const other = nodes.find((node) => node !== owner)!;

    // Warm-up: the customers' contacts and tickets exist, both nodes' caches and sockets are warm.
    await phase(owner, other, token, companyId, connectionId, 'WARM', 10, WARM_UP);
    const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
    const figures: Figures = { 'session owner': `${owner.name}; posts through the other node's simulator API, ${SECONDS} s a run, ${CUSTOMERS} customers` };
    for (const perSecond of RATES) {
      const crossing = await phase(owner, other, token, companyId, connectionId, `CROSS${perSecond}`, perSecond);
      figures[`${perSecond} msg/s, socket on the other node: post → frame (p50 / p95 / p99 ms)`] = `${summary(crossing)}   load ${load()}`;
      const local = await phase(other, owner, token, companyId, connectionId, `LOCAL${perSecond}`, perSecond);
      figures[`${perSecond} msg/s, socket on the owner: post → frame (p50 / p95 / p99 ms)`] = `${summary(local)}   load ${load()}`;
    }

    owner.sub.kill('SIGKILL');
    await owner.sub;
    const killed = performance.now();
    const successor = await until(async () => {
      const row = await shown().catch(() => undefined);
      return row?.status === 'CONNECTED' && row.node && row.node !== ownerName ? row.node : undefined;
    }, 60_000, 'the other node to run the session').catch(() => undefined);
    const takeover = performance.now() - killed;

    figures['takeover after SIGKILL of the owner'] = successor
      ? `${(takeover / 1000).toFixed(1)} s (${owner.name} → ${successor}; promise 30 s)`
      : 'NOT TAKEN OVER within 60 s';
    return figures;
  } finally {
    for (const node of nodes) node.sub.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.sub));
    phones?.kill('SIGTERM');
    await phones;
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
}
