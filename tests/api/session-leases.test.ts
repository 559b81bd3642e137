import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import pg from 'pg';
import { restartableDatabase, startTestServer, testDatabase, type TestServer } from '../helpers/server.js';
import { createConnection, createTenant, eventually, outbox, ticketTakenByAdmin, type InboxTenant } from '../helpers/inbox.js';
import { openSocket } from '../helpers/socket.js';
import { LEASE_TTL_MS } from '../../core/cluster/session-leases.js';

/**
 * Session ownership by lease: one node runs each connection's session; a node that stops (cleanly
 * or not) loses it to another. The nodes are servers of one process on one database and Redis
 * (see cluster.test.ts); each has its own simulated network, so a session runs where its device is.
 */
const redisUrl = process.env.ATENDE_TEST_REDIS_URL;

interface LeaseRow {
  nodeId: string | null;
  token: number;
  expiresAt: number;
}

async function leaseOf(server: TestServer, connectionId: number): Promise<LeaseRow | undefined> {
  const row = (await server.atende.container.db('sessionLeases').where({ connectionId }).first()) as LeaseRow | undefined;
  return row && { nodeId: row.nodeId, token: Number(row.token), expiresAt: Number(row.expiresAt) };
}

async function statusOf(server: TestServer, connectionId: number): Promise<string> {
  return ((await server.atende.container.db('whatsapps').where({ id: connectionId }).first('status')) as { status: string }).status;
}

/** The nodes where a driver of the connection runs (a node without one shows it DISCONNECTED). */
function runningOn(nodes: TestServer[], connectionId: number): TestServer[] {
  return nodes.filter((node) => node.atende.container.sessions.statusOf(connectionId) !== 'DISCONNECTED');
}

describe.skipIf(!redisUrl)('WhatsApp sessions owned by lease across nodes', () => {
  let a: TestServer;
  let b: TestServer;
  let tenant: InboxTenant;
  const extra: TestServer[] = [];

  beforeAll(async () => {
    a = await startTestServer({ redisUrl, simulator: true });
    b = await startTestServer({ redisUrl, simulator: true }, { sameDatabaseAs: a });
    tenant = await createTenant(a, 'Lease Co');
  });

  afterAll(async () => {
    for (const node of extra) await node.close();
    await b?.close();
    await a?.close();
  });

  /** Another node of the installation, closed by the test or at the end. */
  async function node(): Promise<TestServer> {
    const server = await startTestServer({ redisUrl, simulator: true }, { sameDatabaseAs: a });
    extra.push(server);
    return server;
  }

  /** A connection created and paired through `server`, which takes its lease on creation. */
  async function pairedOn(server: TestServer, name: string): Promise<number> {
    const id = await createConnection(server, tenant, name);
    await eventually(async () => (await statusOf(server, id)) === 'CONNECTED', 5000, 'the session to connect');
    expect((await leaseOf(a, id))?.nodeId).toBe(server.config.nodeId);
    return id;
  }

  it('a connection is owned by one node: its driver runs there and nowhere else, across renewals and scans', async () => {
    const id = await pairedOn(b, 'One owner');
    const first = await leaseOf(a, id);
    expect(first?.token).toBe(1);
    expect(runningOn([a, b], id)).toEqual([b]);
    // A plugin on either node hears the owner's status (campaigns pause on anything but CONNECTED).
    expect(await a.atende.container.services.whatsapp.status(id)).toBe('CONNECTED');
    expect(await b.atende.container.services.whatsapp.status(id)).toBe('CONNECTED');
    // Past a renewal and a scan of each node.
    await new Promise((r) => setTimeout(r, 6000));
    const later = await leaseOf(a, id);
    expect(later).toMatchObject({ nodeId: b.config.nodeId, token: 1 });
    expect(later!.expiresAt).toBeGreaterThan(first!.expiresAt);
    expect(runningOn([a, b], id)).toEqual([b]);
    // Admins see the owner from any node.
    const shown = await a.call('GET', `/api/whatsapp/${id}`, { token: tenant.admin.token });
    expect(shown.body.node).toBe(b.config.nodeId);
    const listed = await a.call('GET', '/api/whatsapp', { token: tenant.admin.token });
    expect(listed.body.find((c: { id: number }) => c.id === id).node).toBe(b.config.nodeId);
  });

  it('a new connection runs on the node it was created through, however often the other nodes scan meanwhile', async () => {
    // Without the lease taken in the creating transaction, a scan between its commit and the
    // start takes the new connection to another node (whose network shows no QR code to scan).
    let scanning = true;
    const scans = [a, b].map(async (other) => {
      while (scanning) {
        await other.atende.container.leases.scan();
        await new Promise((r) => setImmediate(r));
      }
    });
    try {
      for (let k = 1; k <= 10; k += 1) {
        const id = await createConnection(b, tenant, `Created on B ${k}`, {}, false);
        expect((await leaseOf(a, id))?.nodeId).toBe(b.config.nodeId);
        await eventually(async () => (await statusOf(b, id)) === 'qrcode', 5000, 'the QR code on B');
        expect(runningOn([a, b], id)).toEqual([b]);
        expect((await b.call('DELETE', `/api/whatsapp/${id}`, { token: tenant.admin.token })).status).toBe(204);
      }
    } finally {
      scanning = false;
      await Promise.all(scans);
    }
  });

  it('a reply written through a node that does not run the session goes out once, through the node that does', async () => {
    const id = await pairedOn(b, 'Remote send');
    const ticketId = await ticketTakenByAdmin(b, tenant, id, '5511977770001');
    const res = await a.call('POST', `/api/messages/${ticketId}`, { token: tenant.admin.token, body: { body: 'Resposta por outro nó' } });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    await eventually(async () => (await outbox(b, tenant, id)).messages.some((m) => m.body === 'Resposta por outro nó'), 10_000, 'the send');
    await eventually(async () => ((await a.atende.container.db('messages').where({ ticketId, body: 'Resposta por outro nó' }).first('sendStatus')) as { sendStatus: string }).sendStatus === 'sent', 5000, 'the message to be sent');
    expect((await outbox(b, tenant, id)).messages.filter((m) => m.body === 'Resposta por outro nó')).toHaveLength(1);
    // Whichever node's job sent it: a command asked on node A runs on B's driver.
    const sent = await (await a.atende.container.sessions.commandsFor(id)).sendText('5511977770001', 'Pedido em A');
    expect((await outbox(b, tenant, id)).messages.filter((m) => m.body === 'Pedido em A').map((m) => m.id)).toEqual([sent.id]);
    expect(runningOn([a, b], id)).toEqual([b]);
    // Deleted through A: the owner logs the session out, and the lease goes with the connection.
    expect((await a.call('DELETE', `/api/whatsapp/${id}`, { token: tenant.admin.token })).status).toBe(204);
    expect(runningOn([a, b], id)).toEqual([]);
    expect(await leaseOf(a, id)).toBeUndefined();
  });

  it("one ticket's replies written through two nodes at once go out each once, in the order written", async () => {
    const id = await pairedOn(b, 'Ordered sends');
    const ticketId = await ticketTakenByAdmin(b, tenant, id, '5511977770002');
    const bodies = Array.from({ length: 24 }, (_, k) => `Parte ${k + 1}`);
    // Sends that take a while, as over a real network, so that two lanes would overlap; each one
    // counted (the network keeps one message per id, so a second send would not show there).
    const driver = b.atende.container.sessions.driverFor(id);
    const sendText = driver.sendText.bind(driver);
    const asked: string[] = [];
    driver.sendText = async (to, text, options) => {
      asked.push(text);
      await new Promise((r) => setTimeout(r, Math.random() * 40));
      return sendText(to, text, options);
    };
    // Each node's job engine picks the sends written through it: without one lane per ticket
    // cluster-wide, both would send the other's older queued messages and race each other.
    const written = await Promise.all(
      bodies.map((body, k) => (k % 2 === 0 ? a : b).call('POST', `/api/messages/${ticketId}`, { token: tenant.admin.token, body: { body } })),
    );
    expect(written.map((res) => res.status)).toEqual(bodies.map(() => 201));
    const order = ((await a.atende.container.db('messages').where({ ticketId, fromMe: true }).whereIn('body', bodies).orderBy('id').select('body')) as { body: string }[]).map((m) => m.body);
    const sent = async () => (await outbox(b, tenant, id)).messages.map((m) => m.body).filter((body) => bodies.includes(body));
    await eventually(async () => (await sent()).length >= bodies.length, 15_000, 'every reply to be sent');
    await new Promise((r) => setTimeout(r, 500));
    expect(await sent()).toEqual(order);
    expect(asked).toEqual(order);
  });

  it('session commands reach the owner from any node: a new QR code, a disconnect', async () => {
    const id = await pairedOn(b, 'Remote commands');
    const renewed = await a.call('PUT', `/api/whatsappsession/${id}`, { token: tenant.admin.token });
    expect(renewed.status).toBe(200);
    await eventually(async () => (await statusOf(a, id)) === 'qrcode', 5000, 'a new QR code on the owner');
    expect(runningOn([a, b], id)).toEqual([b]);
    const out = await a.call('DELETE', `/api/whatsappsession/${id}`, { token: tenant.admin.token });
    expect(out.status).toBe(200);
    expect(await statusOf(a, id)).toBe('DISCONNECTED');
    expect(runningOn([a, b], id)).toEqual([]);
    expect((await a.call('DELETE', `/api/whatsapp/${id}`, { token: tenant.admin.token })).status).toBe(204);
  });

  it('a node shutting down hands its sessions over at once: another node reconnects them within a couple of seconds', async () => {
    const leaving = await node();
    const id = await pairedOn(leaving, 'Handed over');
    const socket = await openSocket(a.url, tenant.admin.token);
    const before = await leaseOf(a, id);
    const closed = Date.now();
    await leaving.close();
    const lease = await eventually(async () => {
      const row = await leaseOf(a, id);
      return row?.nodeId && row.nodeId !== leaving.config.nodeId ? row : undefined;
    }, 3000, 'another node to take the lease');
    expect([a.config.nodeId, b.config.nodeId]).toContain(lease.nodeId);
    expect(lease.token).toBeGreaterThan(before!.token);
    const owner = lease.nodeId === a.config.nodeId ? a : b;
    // Paired before: it comes back CONNECTED without a scan, on the new owner only.
    await eventually(async () => (await statusOf(a, id)) === 'CONNECTED' && runningOn([a, b], id).length === 1, 3000, 'the new owner to connect');
    expect(runningOn([a, b], id)).toEqual([owner]);
    expect(Date.now() - closed).toBeLessThan(3000);
    // The connections page hears the new owner live, in the session's status frames.
    await socket.next((f) => f.channel === `company-${tenant.companyId}-whatsappSession` && (f.data as { session: { id: number; node: string } }).session.node === owner.config.nodeId);
    await socket.close();
  });

  it('an owner whose lease moved on while it stalled stops its driver, and the session is running again, once, within 30 s', async () => {
    const stalled = await node();
    const id = await pairedOn(stalled, 'Stalled owner');
    const before = await leaseOf(a, id);
    const taken = Date.now();
    // What the database shows after a stall: the owner's renewals stopped and its lease expired;
    // the token moved as if another node had taken it meanwhile, so a late renewal cannot bring it back.
    await a.atende.container.db('sessionLeases').where({ connectionId: id }).update({ expiresAt: 0, token: a.atende.container.db.raw('token + 1') });
    // Taken again by the first node to scan (the stalled one too, once it knows it lost it).
    const lease = await eventually(async () => {
      const row = await leaseOf(a, id);
      return row && row.token >= before!.token + 2 ? row : undefined;
    }, 30_000, 'a node to take the lease');
    const owner = [a, b, ...extra].find((n) => n.config.nodeId === lease.nodeId)!;
    // Until its next renewal finds the token moved, the stalled node's driver still shows: the
    // session is settled once the new owner's driver is the only one left, connected.
    await eventually(async () => {
      const running = runningOn([a, b, ...extra], id);
      return (await statusOf(a, id)) === 'CONNECTED' && running.length === 1 && running[0] === owner;
    }, 30_000, 'the new owner to connect, alone');
    expect(Date.now() - taken).toBeLessThan(30_000);
  }, 40_000);

  it.skipIf(testDatabase !== 'pg')(
    'a node cut off from the database stops its drivers before its lease can expire there; the session comes back once it answers',
    async () => {
      const cut = await node();
      const id = await pairedOn(cut, 'Cut off');
      // A transaction holding the lease table: renewals from every node wait, as across a partition.
      const blocker = new pg.Client({ connectionString: a.config.database.client === 'pg' ? a.config.database.connectionString : '' });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query('lock table session_leases in access exclusive mode');
        const { rows } = await blocker.query<{ expires_at: string }>('select expires_at from session_leases where connection_id = $1', [id]);
        const expiresAt = Number(rows[0]!.expires_at);
        await eventually(async () => runningOn([cut], id).length === 0, LEASE_TTL_MS, 'the cut-off node to stop its driver');
        const { rows: now } = await a.atende.container.db.raw('select (extract(epoch from clock_timestamp()) * 1000)::bigint as now');
        expect(Number((now as { now: string }[])[0]!.now)).toBeLessThan(expiresAt);
      } finally {
        await blocker.query('rollback');
        await blocker.end();
      }
      // Free again: a node (any) takes the session and connects it.
      await eventually(async () => (await statusOf(a, id)) === 'CONNECTED' && runningOn([a, b, ...extra], id).length === 1, 30_000, 'a node to take over');
    },
    60_000,
  );
});

/** A process id of this machine that no process has now: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('no child process ran');
  return child.pid;
}

describe('one node without Redis', () => {
  let server: TestServer;
  let tenant: InboxTenant;

  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    tenant = await createTenant(server, 'Alone Co');
  });

  afterAll(async () => {
    await server?.close();
  });

  /** What a node that ran the session shows in the database, valid for an hour; answers the row. */
  async function leaseGivenTo(id: number, holder: string): Promise<LeaseRow> {
    const db = server.atende.container.db;
    await db('sessionLeases').where({ connectionId: id }).update({ nodeId: holder, token: db.raw('token + 1'), expiresAt: db.raw('expires_at + 3600000') });
    return (await leaseOf(server, id))!;
  }

  it('owns the sessions of its own crashed earlier runs: their live leases are taken back at once, not after their expiry', async () => {
    const id = await createConnection(server, tenant, 'Alone');
    await eventually(async () => (await statusOf(server, id)) === 'CONNECTED');
    // An earlier run of this machine whose process is gone; one that had this process's id (pid 1 in a container).
    for (const holder of [`${hostname()}:${deadPid()}:beef`, `${hostname()}:${process.pid}:beef`]) {
      const before = await leaseGivenTo(id, holder);
      // The node loses it at its next renewal and takes it back at its next scan, an hour before it expires.
      const lease = await eventually(async () => {
        const row = await leaseOf(server, id);
        return row?.nodeId === server.config.nodeId ? row : undefined;
      }, 12_000, `the node to take its lease back from ${holder}`);
      expect(lease.token).toBe(before.token + 1);
      expect(lease.expiresAt).toBeLessThan(before.expiresAt);
    }
    expect((await server.call('GET', `/api/whatsapp/${id}`, { token: tenant.admin.token })).body.node).toBe(server.config.nodeId);
    await eventually(async () => (await statusOf(server, id)) === 'CONNECTED' && runningOn([server], id).length === 1, 5000);
  }, 40_000);

  it("leaves another node's live lease to it until it expires: a live process of this machine, another machine, another configured id", async () => {
    const id = await createConnection(server, tenant, 'Not mine');
    await eventually(async () => (await statusOf(server, id)) === 'CONNECTED');
    const db = server.atende.container.db;
    for (const holder of [`${hostname()}:${process.ppid}:beef`, 'other-machine:4242:beef', 'desk-2']) {
      await leaseGivenTo(id, holder);
      await eventually(async () => runningOn([server], id).length === 0, 12_000, 'the node to see its lease gone');
      const before = await leaseOf(server, id);
      await server.atende.container.leases.scan();
      expect(await leaseOf(server, id), holder).toEqual(before);
      expect(runningOn([server], id)).toEqual([]);
      // Expired, it is free for this node.
      await db('sessionLeases').where({ connectionId: id }).update({ expiresAt: 0 });
      await server.atende.container.leases.scan();
      expect(await leaseOf(server, id)).toMatchObject({ nodeId: server.config.nodeId, token: before!.token + 1 });
    }
    await eventually(async () => (await statusOf(server, id)) === 'CONNECTED' && runningOn([server], id).length === 1, 5000);
  }, 60_000);

  it('started again under the same configured node id after a crash, takes its live leases back at once', async () => {
    const data = await restartableDatabase();
    const flags = { simulator: true, nodeId: 'desk-1', databaseUrl: data.databaseUrl } as const;
    let node: TestServer | undefined = await startTestServer(flags);
    try {
      const own = await createTenant(node, 'Desk Co');
      const id = await createConnection(node, own, 'Desk');
      await eventually(async () => (await statusOf(node!, id)) === 'CONNECTED');
      // What a crash leaves instead of a clean stop's release: the lease live for an hour, under a
      // token the stopping node no longer knows (so its release leaves the lease alone).
      const db = node.atende.container.db;
      await db('sessionLeases').where({ connectionId: id }).update({ token: db.raw('token + 1'), expiresAt: db.raw('expires_at + 3600000') });
      const crashed = await leaseOf(node, id);
      await node.close();
      node = await startTestServer(flags);
      expect(await leaseOf(node, id)).toMatchObject({ nodeId: 'desk-1', token: crashed!.token + 1 });
      expect(runningOn([node], id)).toEqual([node]);
    } finally {
      await node?.close();
      await data.drop();
    }
  }, 30_000);
});

describe('two nodes without Redis on one database', () => {
  let first: TestServer;
  let second: TestServer;
  let tenant: InboxTenant;

  beforeAll(async () => {
    first = await startTestServer({ simulator: true });
    // Started while the first runs no session yet: nothing tells it apart from a lone node.
    second = await startTestServer({ simulator: true }, { sameDatabaseAs: first });
    tenant = await createTenant(first, 'Two Alone Co');
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("a node without Redis does not take another one's live lease, across renewals and scans", async () => {
    const id = await createConnection(first, tenant, 'Held', {}, false);
    const lease = await eventually(() => leaseOf(first, id), 5000, 'a node to take the lease');
    const [owner, other] = lease.nodeId === first.config.nodeId ? [first, second] : [second, first];
    await eventually(async () => runningOn([first, second], id).length === 1, 5000, 'the session to start');
    await other.atende.container.leases.scan();
    // Past a renewal and a scan of each node.
    await new Promise((r) => setTimeout(r, 6000));
    await other.atende.container.leases.scan();
    const later = await leaseOf(first, id);
    expect(later).toMatchObject({ nodeId: owner.config.nodeId, token: lease.token });
    expect(later!.expiresAt).toBeGreaterThan(lease.expiresAt);
    expect(runningOn([first, second], id)).toEqual([owner]);
  }, 20_000);

  it('a third node without Redis refuses to start while another runs sessions on the database', async () => {
    await expect(startTestServer({ simulator: true }, { sameDatabaseAs: first })).rejects.toMatchObject({
      code: 'ERR_NODE_NEEDS_REDIS',
      message: expect.stringContaining('every node of one installation needs redisUrl'),
    });
    // Its refusal changed nothing: the session still runs on its owner.
    const leases = await first.atende.container.db('sessionLeases').whereNotNull('nodeId').select('nodeId');
    expect(leases.length).toBeGreaterThan(0);
    expect(leases.every((row: { nodeId: string }) => [first.config.nodeId, second.config.nodeId].includes(row.nodeId))).toBe(true);
  });
});
