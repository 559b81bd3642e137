import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, bin, cleanEnv as env, initSite, freePort, serving, startSimulatorServer, until } from '../helpers/cli.js';
import { createPgDatabase } from '../helpers/server.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';

/**
 * Three nodes of one installation as real processes (the binary, running dist/) on one PostgreSQL
 * and one Redis, their phones at `atende simulate server`: events cross nodes, a reply goes out
 * once from any node, and the node running the session is killed with SIGKILL mid-conversation.
 * CI sets both addresses (and fails on a skip).
 */
const pgBase = process.env.ATENDE_TEST_PG_URL;
const redisUrl = process.env.ATENDE_TEST_REDIS_URL;

const EMAIL = 'super@atende.test';
const PASSWORD = 'cluster-secret-123';
const CHATS = 5;
/** The lease's promise (core/cluster/session-leases.ts): a dead owner's sessions run elsewhere within 30 s. */
const TAKEOVER_MS = 30_000;

interface Node {
  name: string;
  sub: ResultPromise;
  url: string;
}

describe.skipIf(!pgBase || !redisUrl)('three nodes, one killed', () => {
  let work: string;
  let database: Awaited<ReturnType<typeof createPgDatabase>>;
  let phones: ResultPromise;
  let simulatorUrl: string;
  const nodes: Node[] = [];
  const sockets: TestSocket[] = [];
  let reader: pg.Client;

  async function startNode(name: string): Promise<Node> {
    const sub = execa('node', [bin, 'serve', '--dir', 'site', '--port', String(await freePort())], {
      cwd: work,
      env: { ...env, REDIS_URL: redisUrl, ATENDE_SIMULATOR_URL: simulatorUrl, ATENDE_NODE_ID: name, ATENDE_LOG_LEVEL: 'warn' },
      extendEnv: false,
      reject: false,
    });
    const node = { name, sub, url: (await serving(sub, 60_000)).url };
    nodes.push(node);
    return node;
  }

  const rows = async (sql: string, values: unknown[] = []) => (await reader.query(sql, values)).rows as Record<string, unknown>[];

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'atende-cluster-'));
    database = await createPgDatabase();
    const init = await initSite(work, 'site', { email: EMAIL, password: PASSWORD }, database.url);
    expect(init.exitCode, init.stderr).toBe(0);
    ({ sub: phones, url: simulatorUrl } = await startSimulatorServer({ cwd: work }));
    // One after another: the first start finds the schema as init left it, the others find it up to date.
    for (const name of ['node-a', 'node-b', 'node-c']) await startNode(name);
    reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    for (const node of nodes) node.sub.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.sub));
    phones?.kill('SIGTERM');
    await phones;
    await reader?.end();
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('a message handled by the owner reaches a socket on another node; a reply through a third goes out once; after a SIGKILL of the owner the session runs elsewhere within 30 s and every message is stored once, in order', async () => {
    const [a] = nodes as [Node, Node, Node];
    const login = await api(a.url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD });
    const token = login.body.token as string;
    const companyId = (login.body.user as { companyId: number }).companyId;
    const connection = (await api(a.url, 'POST', '/api/whatsapp', token, { name: 'Cluster phone', provider: 'simulator' })).body.id as number;
    const shown = async (node: Node) => (await api(node.url, 'GET', `/api/whatsapp/${connection}`, token)).body as { status: string; node: string | null };
    // The phone scans through whichever node the request reaches.
    await until(async () => ((await api(nodes[1]!.url, 'POST', `/api/simulator/${connection}/scan`, token)).status === 200 ? true : undefined), 30_000, 'the scan');
    const ownerName = await until(async () => {
      const row = await shown(nodes[2]!);
      return row.status === 'CONNECTED' && row.node ? row.node : undefined;
    }, 30_000, 'the connection to show its node');
    const owner = nodes.find((node) => node.name === ownerName)!;
    const others = nodes.filter((node) => node !== owner) as [Node, Node];

    // Handled on the owner, heard on a socket of another node.
    const listener = await openSocket(others[0].url, token);
    sockets.push(listener);
    const hello = { id: 'CLUSTER-HELLO', from: '5511981000100', name: 'Cliente', body: 'olá, nó' };
    expect((await api(simulatorUrl, 'POST', `/connections/${connection}/inbound`, undefined, hello)).status).toBe(201);
    await listener.next((f) => f.channel === `company-${companyId}-appMessage` && (f.data as { message?: { wid?: string } }).message?.wid === 'CLUSTER-HELLO');

    // A reply written through the third node goes out once, from the owner's session.
    const [{ ticket_id: ticketId }] = (await rows('SELECT ticket_id FROM messages WHERE wid = $1', ['CLUSTER-HELLO'])) as [{ ticket_id: number }];
    const through = others[1];
    expect((await api(through.url, 'PUT', `/api/tickets/${ticketId}`, token, { status: 'open', userId: login.body.user.id })).status).toBe(200);
    expect((await api(through.url, 'POST', `/api/messages/${ticketId}`, token, { body: 'Resposta de outro nó' })).status).toBeLessThan(300);
    const sentOnce = async () => {
      const outbox = (await api(simulatorUrl, 'GET', `/connections/${connection}/outbox`)).body as { messages: { body: string }[] };
      return outbox.messages.filter((m) => m.body === 'Resposta de outro nó').length;
    };
    await until(async () => ((await sentOnce()) > 0 ? true : undefined), 15_000, 'the reply at the phone');

    // Customers keep writing, a message per chat each round; the owner dies after the third round.
    const ROUNDS = 8;
    let killedAt = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch = Array.from({ length: CHATS }, (_, chat) => ({
        id: `CLUSTER-${round}-${chat}`,
        from: `55119${String(82_000_000 + chat).padStart(8, '0')}`,
        name: 'Cliente',
        body: `mensagem ${round}`,
      }));
      expect((await api(simulatorUrl, 'POST', `/connections/${connection}/inbound`, undefined, batch)).status).toBeLessThan(300);
      if (round === 2) {
        owner.sub.kill('SIGKILL');
        await owner.sub;
        killedAt = Date.now();
      }
    }
    const successor = await until(async () => {
      const row = await shown(others[0]);
      return row.status === 'CONNECTED' && row.node && row.node !== ownerName ? row.node : undefined;
    }, TAKEOVER_MS + 15_000, 'another node to run the session');
    const takeoverMs = Date.now() - killedAt;
    expect(others.map((node) => node.name)).toContain(successor);
    expect(takeoverMs).toBeLessThan(TAKEOVER_MS);

    const stored = await until(async () => {
      const found = await rows("SELECT wid FROM messages WHERE wid LIKE 'CLUSTER-%-%' ORDER BY id");
      return found.length >= ROUNDS * CHATS ? found.map((row) => String(row.wid)) : undefined;
    }, 30_000, 'every message to be stored').catch(async (err: Error) => {
      const found = await rows("SELECT wid FROM messages WHERE wid LIKE 'CLUSTER-%-%' ORDER BY id");
      const journal = await rows('SELECT count(*) AS n FROM inbound_journal');
      throw new Error(`${err.message}: ${found.length} stored (${found.map((r) => r.wid).join(' ')}), journal ${JSON.stringify(journal)}, takeover ${takeoverMs} ms`);
    });
    expect(new Set(stored).size).toBe(stored.length);
    for (let chat = 0; chat < CHATS; chat += 1) {
      expect(stored.filter((wid) => wid.endsWith(`-${chat}`))).toEqual(Array.from({ length: ROUNDS }, (_, round) => `CLUSTER-${round}-${chat}`));
    }
    expect(await sentOnce()).toBe(1);
    // Read by the test runner's log: how long the takeover took.
    console.info(`takeover after SIGKILL: ${takeoverMs} ms (${ownerName} → ${successor})`);
  }, 180_000);
});
