import { hostname } from 'node:os';
import type { Knex } from 'knex';
import { isPostgres, type Database } from '../db/database.js';
import { ErrorCode } from '../contract/error-codes.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ClusterSignals } from './signals.js';

/*
 * Timing of session ownership. A node that dies renewed at most RENEW_EVERY_MS before, so its
 * leases expire within LEASE_TTL_MS of its death, and another node's scan finds them within
 * SCAN_EVERY_MS more: 20 s, leaving 10 s of the promised 30 s for the new driver to connect.
 * LEASE_TTL_MS is three renewals, so two failed ones in a row (a slow database) lose nothing.
 * A node stops its drivers FENCE_MARGIN_MS before its lease can expire in the database: the
 * expiry counts from the database's clock when the renewal ran, the deadline from this process's
 * monotonic clock when it was sent (earlier), and the margin covers stopping the drivers.
 */
export const LEASE_TTL_MS = 15_000;
export const RENEW_EVERY_MS = 5_000;
export const SCAN_EVERY_MS = 5_000;
export const FENCE_MARGIN_MS = 3_000;

const TABLE = 'sessionLeases';
/** Cluster signal: leases are free (released, or of a new connection); the nodes running sessions scan at once. */
const FREE = 'sessions:free';

/** The node ids of the lease sets running in this process (tests run several servers in one). */
const runningHere = new Set<string>();

/** Whether a process of this machine is alive (one of another user counts: it answers EPERM). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `holder` is provably an earlier run of this node, now dead: the same configured node id,
 * or a default one (host:pid:random, see the config) of this machine whose process is gone or is
 * this very process (pid 1 in a container, restarted) while no lease set of this process has it.
 */
export function deadPredecessor(holder: string, nodeId: string): boolean {
  if (holder === nodeId) return true;
  const parts = /^(.+):(\d+):[0-9a-f]{4}$/.exec(holder);
  if (!parts || parts[1] !== hostname() || runningHere.has(holder)) return false;
  const pid = Number(parts[2]);
  return pid === process.pid || !processAlive(pid);
}

/** The database's clock in epoch milliseconds: every node compares expiries against the same one. */
function databaseNow(db: Database): Knex.Raw {
  return isPostgres(db)
    ? db.raw('(extract(epoch from clock_timestamp()) * 1000)::bigint')
    : db.raw("cast((julianday('now') - 2440587.5) * 86400000 as integer)");
}

/** The right to write a connection's status: its owner and the token of the acquisition. */
export interface Fence {
  nodeId: string;
  token: number;
}

interface Held {
  token: number;
  /** performance.now() after which the drivers stop: the lease may be gone from then on. */
  deadline: number;
}

export interface LeaseHandlers {
  /** This node now owns the connection: start its session. */
  acquired(connectionId: number): Promise<void>;
  /** This node no longer owns it (or can no longer be sure it does): stop its driver now. */
  lost(connectionId: number): Promise<void>;
}

/**
 * Which connections this node owns (DESIGN §4): a row per connection in `sessionLeases`, taken
 * when free or expired in one conditional statement, renewed for all in one statement, released on
 * shutdown. A node that cannot renew stops its drivers before its leases can expire (self-fencing),
 * so two nodes never run one session, even when this one is cut off from the database.
 *
 * Alone (no Redis) a node also takes at once the live leases of its own dead earlier run (a restart
 * after a crash need not wait for their expiry), and only those: another node on the database
 * without Redis is refused at start (assertAlone), and one that got past that loses nothing to it.
 */
export class SessionLeases {
  private readonly held = new Map<number, Held>();
  private timers: NodeJS.Timeout[] = [];
  private fence?: NodeJS.Timeout;
  private running = false;
  private renewing = false;
  private scanning?: Promise<void>;
  private handlers?: LeaseHandlers;
  /** Other nodes found running sessions while this one is alone, each logged once. */
  private readonly toldOf = new Set<string>();

  constructor(
    private readonly db: Database,
    readonly nodeId: string,
    private readonly alone: boolean,
    private readonly signals: ClusterSignals,
    private readonly log: Logger,
  ) {}

  /** Takes every free lease now and keeps renewing and scanning until stop(). */
  async start(handlers: LeaseHandlers): Promise<void> {
    this.handlers = handlers;
    this.running = true;
    runningHere.add(this.nodeId);
    this.signals.on(FREE, () => void this.scan());
    this.timers = [
      setInterval(() => void this.renew(), RENEW_EVERY_MS),
      setInterval(() => void this.scan(), SCAN_EVERY_MS),
    ];
    for (const timer of this.timers) timer.unref();
    await this.scan();
  }

  /** Whether this node may run the connection's driver now. */
  holds(connectionId: number): boolean {
    const lease = this.held.get(connectionId);
    return lease !== undefined && performance.now() < lease.deadline;
  }

  fenceOf(connectionId: number): Fence | undefined {
    return this.holds(connectionId) ? { nodeId: this.nodeId, token: this.held.get(connectionId)!.token } : undefined;
  }

  /** The node owning each connection now (absent when none does). */
  async owners(connectionIds: readonly number[]): Promise<Map<number, string>> {
    if (connectionIds.length === 0) return new Map();
    const rows: { connectionId: number; nodeId: string }[] = await this.db(TABLE)
      .whereIn('connectionId', [...connectionIds])
      .whereNotNull('nodeId')
      .where('expiresAt', '>', databaseNow(this.db))
      .select('connectionId', 'nodeId');
    return new Map(rows.map((row) => [row.connectionId, row.nodeId]));
  }

  /**
   * The nodes other than this one holding live leases, but for this node's dead earlier runs:
   * nodes running sessions on this database now (or stalled, or dead less than a lease ago).
   */
  async others(): Promise<string[]> {
    return (await this.liveHolders()).filter((holder) => !deadPredecessor(holder, this.nodeId));
  }

  /** The nodes holding live leases, this one among them. */
  private async liveHolders(): Promise<string[]> {
    const rows: { nodeId: string }[] = await this.db(TABLE).whereNotNull('nodeId').where('expiresAt', '>', databaseNow(this.db)).distinct('nodeId');
    return rows.map((row) => row.nodeId);
  }

  /**
   * Start of a node without Redis: another node running sessions on this database would never
   * hear this one's events nor its commands (and alone, each would wait for the other's leases).
   */
  async assertAlone(): Promise<void> {
    const others = await this.others();
    if (others.length === 0) return;
    throw new AppError(
      ErrorCode.ERR_NODE_NEEDS_REDIS,
      503,
      `Another node (${others.join(', ')}) runs WhatsApp sessions on this database (or died less than ${LEASE_TTL_MS / 1000} s ago): every node of one installation needs redisUrl (REDIS_URL), see "Several nodes" in the README`,
    );
  }

  /** Takes the connection's lease when it is free or expired (or its holder is this node's dead earlier run, alone); answers whether it is held now. */
  async acquire(connectionId: number, predecessors?: string[]): Promise<boolean> {
    if (this.holds(connectionId)) return true;
    predecessors ??= await this.predecessors();
    const sent = performance.now();
    const token = await this.take(this.db, connectionId, predecessors);
    if (token === undefined) return false;
    this.hold(connectionId, token, sent);
    return true;
  }

  /**
   * A new connection's lease, taken in the transaction that creates it, so that no other node's
   * scan takes it between the commit and this node's start. Answers what holds it here, to call
   * once the transaction committed (undefined when it was not taken).
   */
  async claim(trx: Knex.Transaction, connectionId: number): Promise<(() => void) | undefined> {
    const sent = performance.now();
    const token = await this.take(trx, connectionId, []);
    return token === undefined ? undefined : () => this.hold(connectionId, token, sent);
  }

  /** The conditional take of one lease: its new token, or undefined when another node holds it. */
  private async take(db: Knex, connectionId: number, predecessors: string[]): Promise<number | undefined> {
    const expiresAt = db.raw('? + ?', [databaseNow(this.db), LEASE_TTL_MS]);
    const rows = (await db(TABLE)
      .insert({ connectionId, nodeId: this.nodeId, token: 1, expiresAt })
      .onConflict('connectionId')
      .merge({ nodeId: this.nodeId, token: db.raw('?? + 1', [`${TABLE}.token`]), expiresAt })
      .where((w) => this.takeable(w, predecessors))
      .returning('token')) as { token: number | string }[];
    return rows.length === 0 ? undefined : Number(rows[0]!.token);
  }

  /**
   * Shutdown, once the drivers stopped: the leases become free at once and the other nodes hear it,
   * so they take the sessions over now rather than at expiry.
   */
  async release(): Promise<void> {
    this.stop();
    const held = [...this.held.entries()];
    this.held.clear();
    if (held.length === 0) return;
    await this.db(TABLE)
      .where('nodeId', this.nodeId)
      .where((w) => this.oneOf(w, held))
      .update({ nodeId: null, expiresAt: 0 });
    this.announceFree();
  }

  /** Tells every node running sessions to look for free leases now (a new connection, a release). */
  announceFree(): void {
    this.signals.send(FREE, null);
  }

  /** Gives one lease up (the connection is being deleted, or this node was told to let it go). */
  forget(connectionId: number): void {
    this.held.delete(connectionId);
  }

  stop(): void {
    this.running = false;
    runningHere.delete(this.nodeId);
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    clearTimeout(this.fence);
  }

  /** Finds connections nobody owns and takes them, one statement each (another node may take some first). */
  scan(): Promise<void> {
    this.scanning ??= this.scanOnce().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private async scanOnce(): Promise<void> {
    if (!this.running) return;
    try {
      const predecessors = await this.predecessors();
      const free: { id: number }[] = await this.db('whatsapps')
        .leftJoin(TABLE, `${TABLE}.connectionId`, 'whatsapps.id')
        .where((w) => this.takeable(w.whereNull(`${TABLE}.connectionId`), predecessors))
        .orderBy('whatsapps.id')
        .select('whatsapps.id');
      for (const { id } of free) {
        if (!this.running) return;
        if (this.held.has(id) || !(await this.acquire(id, predecessors))) continue;
        await this.handlers!.acquired(id);
      }
    } catch (err) {
      this.log.warn({ err }, 'session leases not scanned');
    }
  }

  /** One statement for every lease held; a lease it did not renew is lost (another node took it). */
  private async renew(): Promise<void> {
    if (!this.running || this.renewing || this.held.size === 0) return;
    this.renewing = true;
    const held = [...this.held.entries()];
    const sent = performance.now();
    try {
      const rows = (await this.db(TABLE)
        .where('nodeId', this.nodeId)
        .where((w) => this.oneOf(w, held))
        .update({ expiresAt: this.db.raw('? + ?', [databaseNow(this.db), LEASE_TTL_MS]) })
        .returning('connectionId')) as { connectionId: number }[];
      const renewed = new Set(rows.map((row) => row.connectionId));
      for (const [connectionId, lease] of held) {
        if (this.held.get(connectionId) !== lease) continue; // released or taken again meanwhile
        if (renewed.has(connectionId)) this.hold(connectionId, lease.token, sent);
        else await this.lose(connectionId, 'taken by another node');
      }
    } catch (err) {
      // Nothing renewed: the deadlines stand, and the fence stops the drivers if this goes on.
      this.log.warn({ err }, 'session leases not renewed');
    } finally {
      this.renewing = false;
    }
  }

  private hold(connectionId: number, token: number, sent: number): void {
    this.held.set(connectionId, { token, deadline: sent + LEASE_TTL_MS - FENCE_MARGIN_MS });
    this.armFence();
  }

  /** A timer at the earliest deadline: the leases past it are given up, their drivers stopped. */
  private armFence(): void {
    clearTimeout(this.fence);
    if (this.held.size === 0) return;
    const earliest = Math.min(...[...this.held.values()].map((lease) => lease.deadline));
    this.fence = setTimeout(() => void this.fenceExpired(), Math.max(0, earliest - performance.now()));
    this.fence.unref();
  }

  private async fenceExpired(): Promise<void> {
    const now = performance.now();
    const expired = [...this.held.entries()].filter(([, lease]) => lease.deadline <= now);
    for (const [connectionId] of expired) await this.lose(connectionId, 'not renewed in time');
    this.armFence();
    // Once the database answers again these sessions need not wait out their expiry: given up now
    // (a renewal still on its way may land first and keep one until it expires; a later owner's token stops this).
    if (expired.length > 0) {
      await this.db(TABLE)
        .where('nodeId', this.nodeId)
        .where((w) => this.oneOf(w, expired))
        .update({ nodeId: null, expiresAt: 0 })
        .then(() => this.announceFree())
        .catch((err: unknown) => this.log.warn({ err }, 'session leases given up not released'));
    }
  }

  private async lose(connectionId: number, why: string): Promise<void> {
    this.held.delete(connectionId);
    this.log.warn({ connectionId, why }, 'session lease lost: its driver stops');
    await this.handlers?.lost(connectionId).catch((err: unknown) => this.log.error({ err, connectionId }, 'session not stopped'));
  }

  /**
   * Alone, the holders of live leases that are this node's dead earlier runs (its own id among them:
   * one configured by hand comes back on restart); another node found here is told of at every scan.
   */
  private async predecessors(): Promise<string[]> {
    if (!this.alone) return [];
    const holders = await this.liveHolders();
    const dead = holders.filter((holder) => deadPredecessor(holder, this.nodeId));
    const unheard = holders.filter((holder) => !dead.includes(holder) && !this.toldOf.has(holder));
    if (unheard.length > 0) this.log.error({ others: unheard }, 'another node runs WhatsApp sessions on this database: every node needs redisUrl (its leases are left to it)');
    for (const holder of unheard) this.toldOf.add(holder);
    return [...new Set([this.nodeId, ...dead])];
  }

  /** A lease this node may take: released or expired, or (alone) held by one of its dead earlier runs. */
  private takeable(w: Knex.QueryBuilder, predecessors: string[]): Knex.QueryBuilder {
    w.orWhereNull(`${TABLE}.nodeId`).orWhere(`${TABLE}.expiresAt`, '<=', databaseNow(this.db));
    return predecessors.length > 0 ? w.orWhereIn(`${TABLE}.nodeId`, predecessors) : w;
  }

  /** Exactly these acquisitions (connection and token), not a later one of the same connection. */
  private oneOf(w: Knex.QueryBuilder, held: [number, Held][]): Knex.QueryBuilder {
    for (const [connectionId, lease] of held) w.orWhere({ connectionId, token: lease.token });
    return w;
  }
}
