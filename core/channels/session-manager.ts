import type { Knex } from 'knex';
import type { Infrastructure } from '../infrastructure.js';
import { Events, type EventName } from '../events/event-bus.js';
import type { Logger } from '../logger.js';
import type { ConnectionRecord, ConnectionStore, StatusPatch } from './connection-store.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sessionNotInitialized, type ChannelDriver, type ConnectionStatus, type DriverContext, type DriverEvent, type OutgoingMedia, type SendOptions } from './driver.js';
import { isJournaled, type EventJournal } from './event-journal.js';
import type { ProviderRegistry } from './providers.js';
import { storableEvent } from './storable-event.js';
import type { SessionLeases } from '../cluster/session-leases.js';

export const SESSION_WATCHDOG_JOB = 'whatsapp.sessions.watchdog';
const WATCHDOG_EVERY_MS = 60_000;
/** A first connection attempt still OPENING after this long is restarted by the watchdog. */
export const STUCK_OPENING_MS = 2 * 60_000;

/** Driver events other than status become domain events carrying `{ connectionId, companyId, ...event }`. */
const DOMAIN_EVENTS: Record<Exclude<DriverEvent['type'], 'status'>, EventName> = {
  message: Events.messageReceived,
  ack: Events.messageAck,
  revoke: Events.messageRevoked,
  edit: Events.messageEdited,
  call: Events.callReceived,
  contact: Events.contactSeen,
  limit: Events.whatsappLimited,
};

type StatusEvent = Extract<DriverEvent, { type: 'status' }>;

/** What senders ask of a session, wherever it runs. */
export type SessionCommands = Omit<ChannelDriver, 'start' | 'stop' | 'logout'>;
type Command = keyof SessionCommands;
const COMMANDS: Command[] = ['sendText', 'sendMedia', 'sendLocation', 'delete', 'edit', 'markRead', 'checkNumber', 'profilePicture'];
type Lifecycle = 'start' | 'logout' | 'remove';

/** Calls between nodes: a command for a session, a lifecycle step, run by the node owning it. */
const COMMAND_CALL = 'session.command';
const LIFECYCLE_CALL = 'session.lifecycle';
const STATUS_CALL = 'session.status';
interface CommandCall {
  connectionId: number;
  command: Command;
  args: unknown[];
  /** sendMedia: the file's bytes (base64), since its path is on the caller's disk. */
  file?: string;
}

/** Cluster signal: a company was blocked or unblocked; every node restarts or stops the sessions it owns. */
const COMPANY_CHANGED = 'sessions:company';

interface Session {
  connectionId: number;
  companyId: number;
  /** The one running driver; events of any other (an older one, one made to log out) are ignored. */
  driver?: ChannelDriver;
  /** The driver's latest status, known before its row is written. */
  status: ConnectionStatus;
  statusAt: number;
  /** OPENING with an attempt count: the driver is alive, waiting out its own reconnect backoff. */
  backingOff: boolean;
  /** start() failed: the watchdog tries again. */
  failed: boolean;
  /** The last saved status was CONNECTED: leaving it is announced once (whatsapp.disconnected). */
  savedConnected: boolean;
  /** The last failure logged, so a driver failing in a loop logs once per change. */
  loggedProblem?: string;
  /** Start, stop and logout of this connection, one at a time. */
  lifecycle: Promise<void>;
  /** This connection's events, handled in the order they came. */
  events: Promise<void>;
}

/**
 * One driver per connection, made by the provider registry from the connection's `provider`, run
 * only while this node holds the connection's lease (one node of the installation at a time).
 * Persists and publishes status changes (refused once the lease is lost), turns the other driver
 * events into domain events (those that become messages journaled first), and keeps a failing
 * driver from taking anything else down: its errors are logged and the watchdog tries again.
 */
export class SessionManager {
  private readonly sessions = new Map<number, Session>();
  private readonly log: Logger;
  private stopping = false;
  /** startAll ran: this node runs sessions (takes leases); before it, commands go to their owners. */
  private running = false;

  constructor(
    private readonly infra: Infrastructure,
    private readonly providers: ProviderRegistry,
    private readonly journal: EventJournal,
    private readonly connections: ConnectionStore,
    private readonly leases: SessionLeases,
  ) {
    this.log = infra.log.child({ part: 'sessions' });
    infra.jobs.define(SESSION_WATCHDOG_JOB, () => this.watchdog());
    infra.cluster.signals.on(COMPANY_CHANGED, (data) => {
      const { companyId, from } = data as { companyId: number; from: string };
      if (from !== leases.nodeId) void this.relaunch(companyId);
    });
    infra.cluster.calls.handle(COMMAND_CALL, (args) => this.command(args as CommandCall));
    infra.cluster.calls.handle(STATUS_CALL, async (args) => this.statusOf((args as { connectionId: number }).connectionId));
    infra.cluster.calls.handle(LIFECYCLE_CALL, async (args) => {
      const { action, connectionId } = args as { action: Lifecycle; connectionId: number };
      await this[action](connectionId);
    });
  }

  /** Boot: a session for every connection whose lease this node takes, then the watchdog every minute. */
  async startAll(): Promise<void> {
    this.running = true;
    await this.leases.start({
      acquired: async (connectionId) => {
        await this.resumeJournal(connectionId);
        await this.start(connectionId);
      },
      lost: (connectionId) => this.lost(connectionId),
    });
    await this.infra.jobs.every(WATCHDOG_EVERY_MS, SESSION_WATCHDOG_JOB);
  }

  /**
   * A lease taken, before its session starts: the connection's events journaled but not processed
   * by the node that ran it before (stopped, crashed or killed; this one after a restart) go out
   * again, oldest first, so each chat's new events queue behind its old ones.
   */
  async resumeJournal(connectionId: number): Promise<void> {
    for (const { id, companyId, event } of await this.journal.pending(connectionId)) {
      await this.infra.bus.emit(DOMAIN_EVENTS[event.type], companyId, { connectionId, companyId, ...event, entryId: id });
    }
  }

  /**
   * Shutdown, before the database closes: drivers stop (keeping their credentials), pending writes
   * finish, then the leases are released so that other nodes take the sessions over at once.
   */
  async stopAll(): Promise<void> {
    this.stopping = true;
    this.leases.stop();
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => this.serial(session, () => this.halt(session))));
    if (this.running) await this.leases.release();
  }

  /**
   * A company blocked or unblocked by billing: each of its sessions stops (credentials kept) or
   * starts again, as `launch` decides from the company's state.
   */
  async companyChanged(companyId: number): Promise<void> {
    this.infra.cluster.signals.send(COMPANY_CHANGED, { companyId, from: this.leases.nodeId });
    await this.relaunch(companyId);
  }

  /**
   * A new connection, in the transaction creating it: a node that runs sessions takes its lease
   * there, so the session starts where it was created (its QR code shown without a hop to another
   * node) rather than on whichever node's scan finds it first. Call the answer once committed.
   */
  async claim(trx: Knex.Transaction, connectionId: number): Promise<() => void> {
    const held = this.running && !this.stopping ? await this.leases.claim(trx, connectionId) : undefined;
    return held ?? (() => undefined);
  }

  /** Starts a connection's session, or restarts it ("try again"). */
  async start(connectionId: number): Promise<void> {
    if (await this.elsewhere(connectionId, 'start')) return;
    const row = await this.connections.find(connectionId);
    if (row) await this.launch(row);
  }

  /** Forgets the stored credentials and starts again: a new QR code. */
  async renew(connectionId: number): Promise<void> {
    await this.logout(connectionId);
    await this.start(connectionId);
  }

  /** Ends the WhatsApp session: credentials forgotten, status DISCONNECTED, no number. */
  async logout(connectionId: number): Promise<void> {
    if (await this.elsewhere(connectionId, 'logout')) return;
    const row = await this.connections.find(connectionId);
    if (!row) return;
    const session = this.sessionOf(row);
    await this.serial(session, async () => {
      await this.signOff(session, row.provider);
      this.setStatus(session, 'DISCONNECTED');
      await this.saveStatus(session, { type: 'status', status: 'DISCONNECTED', qrcode: '', retries: 0, number: '' });
    });
  }

  /** The connection is being deleted: log its session out (running or not) and forget it. */
  async remove(connectionId: number): Promise<void> {
    if (await this.elsewhere(connectionId, 'remove')) return;
    const row = await this.connections.find(connectionId);
    if (!row) return;
    const session = this.sessionOf(row);
    await this.serial(session, () => this.signOff(session, row.provider));
    this.sessions.delete(connectionId);
    this.leases.forget(connectionId);
  }

  /** The node running each connection's session now (absent when none does). */
  owners(connectionIds: readonly number[]): Promise<Map<number, string>> {
    return this.leases.owners(connectionIds);
  }

  /** The session's latest status as its driver reported it (DISCONNECTED when it has none). */
  statusOf(connectionId: number): ConnectionStatus {
    const session = this.sessions.get(connectionId);
    return session?.driver ? session.status : 'DISCONNECTED';
  }

  /**
   * The session's status wherever it runs: this node's driver's, or the owner's when another node
   * runs it; DISCONNECTED when no node runs it or its owner does not answer.
   */
  async currentStatus(connectionId: number): Promise<ConnectionStatus> {
    if (this.leases.holds(connectionId)) return this.statusOf(connectionId);
    const owner = await this.otherOwner(connectionId);
    if (!owner) return 'DISCONNECTED';
    return ((await this.infra.cluster.calls.call(owner, STATUS_CALL, { connectionId }).catch(() => 'DISCONNECTED')) as ConnectionStatus);
  }

  /** The driver of a CONNECTED session, for senders; 400 ERR_WAPP_NOT_INITIALIZED otherwise. */
  driverFor(connectionId: number): ChannelDriver {
    const session = this.sessions.get(connectionId);
    // The lease checked too: a process that stalled past its deadline sends nothing before its fence stops the driver.
    if (!session?.driver || session.status !== 'CONNECTED' || !this.leases.holds(connectionId)) throw sessionNotInitialized();
    return session.driver;
  }

  /**
   * Restarts sessions whose driver failed to start, or whose first attempt has been OPENING for too
   * long. A driver backing off between reconnects is left alone: a restart would reset its backoff.
   */
  async watchdog(now = Date.now()): Promise<void> {
    for (const session of [...this.sessions.values()]) {
      const stuck =
        session.driver !== undefined && session.status === 'OPENING' && !session.backingOff && now - session.statusAt > STUCK_OPENING_MS;
      if (!session.failed && !stuck) continue;
      this.log.debug({ connectionId: session.connectionId, failed: session.failed }, 'watchdog restarts a session');
      await this.start(session.connectionId);
    }
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /**
   * The session's commands: its driver when it runs here, calls to its owner when another node
   * runs it; 400 ERR_WAPP_NOT_INITIALIZED when none runs it connected.
   */
  async commandsFor(connectionId: number): Promise<SessionCommands> {
    if (this.leases.holds(connectionId)) return this.driverFor(connectionId);
    const owner = await this.otherOwner(connectionId);
    if (!owner) throw sessionNotInitialized();
    const call = (command: Command) => async (...args: unknown[]) => {
      const media = command === 'sendMedia' ? (args[1] as OutgoingMedia) : undefined;
      const file = media && (await readFile(media.path)).toString('base64');
      return this.infra.cluster.calls.call(owner, COMMAND_CALL, { connectionId, command, args, file } satisfies CommandCall);
    };
    return Object.fromEntries(COMMANDS.map((command) => [command, call(command)])) as unknown as SessionCommands;
  }

  /** Another node's command for a session of this node (a media file's bytes come along). */
  private async command({ connectionId, command, args, file }: CommandCall): Promise<unknown> {
    const driver = this.driverFor(connectionId);
    if (file === undefined) return (driver[command] as (...a: unknown[]) => Promise<unknown>)(...args);
    const media = args[1] as OutgoingMedia;
    const dir = await mkdtemp(path.join(tmpdir(), 'atende-send-'));
    try {
      const local = path.join(dir, path.basename(media.fileName) || 'file');
      await writeFile(local, Buffer.from(file, 'base64'));
      return await driver.sendMedia(args[0] as string, { ...media, path: local }, args[2] as SendOptions);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * A lifecycle step goes where the session runs: answers false when this node owns it (taken now
   * if free and this node runs sessions), true once its owner did it. With no owner and no way to
   * take it here, the nodes that run sessions are told to take it.
   */
  private async elsewhere(connectionId: number, action: Lifecycle): Promise<boolean> {
    if (this.leases.holds(connectionId)) return false;
    if (this.running && !this.stopping && (await this.leases.acquire(connectionId))) return false;
    const owner = await this.otherOwner(connectionId);
    if (owner) await this.infra.cluster.calls.call(owner, LIFECYCLE_CALL, { action, connectionId });
    else this.leases.announceFree();
    return true;
  }

  /** The node running the session when it is another one (a lease of this node's not held here is nobody's). */
  async otherOwner(connectionId: number): Promise<string | undefined> {
    const owner = (await this.leases.owners([connectionId])).get(connectionId);
    return owner === this.leases.nodeId ? undefined : owner;
  }

  /** The company's sessions this node owns start or stop, as `launch` decides from the company's state. */
  private async relaunch(companyId: number): Promise<void> {
    if (this.stopping) return;
    const owned = (await this.connections.ofCompany(companyId)).filter((row) => this.leases.holds(row.id));
    await Promise.all(owned.map((row) => this.launch(row)));
  }

  /** The lease went to another node, or could not be renewed in time: the driver stops, nothing more is written. */
  private async lost(connectionId: number): Promise<void> {
    const session = this.sessions.get(connectionId);
    // Kept: a new acquisition's start queues behind this stop in the same lifecycle.
    if (session) await this.serial(session, () => this.halt(session));
  }

  private launch(row: ConnectionRecord): Promise<void> {
    const session = this.sessionOf(row);
    return this.serial(session, async () => {
      // A web node never takes a lease (it runs no startAll): whoever asks, the owner runs the session.
      if (this.stopping || !this.leases.holds(row.id)) return;
      await this.halt(session);
      if (row.blocked) return this.stopped(session);
      const driver = this.create(session, row.provider);
      if (!driver) return;
      session.driver = driver;
      session.failed = false;
      this.setStatus(session, 'OPENING', 0);
      // Not awaited: a provider may take long to connect, and boot starts every session at once.
      // Through a promise, so a driver that throws before its first await is caught the same way.
      Promise.resolve()
        .then(() => driver.start())
        .catch((err: unknown) => {
          if (session.driver !== driver) return;
          session.failed = true;
          this.problem(session, err, 'start');
        });
    });
  }

  /** A session that must not run (its company is blocked): stopped, credentials kept, shown DISCONNECTED. */
  private async stopped(session: Session): Promise<void> {
    session.failed = false;
    this.setStatus(session, 'DISCONNECTED');
    await this.saveStatus(session, { type: 'status', status: 'DISCONNECTED', qrcode: '' });
  }

  /** Stops the running driver (credentials kept) and lets its pending events finish. */
  private async halt(session: Session): Promise<void> {
    const driver = session.driver;
    session.driver = undefined;
    if (driver) await this.attempt(session, 'stop', () => driver.stop());
    await session.events;
  }

  /** Logs the provider out, with the running driver or, when none runs, one made for it. */
  private async signOff(session: Session, provider: string): Promise<void> {
    const running = session.driver;
    session.driver = undefined;
    session.failed = false;
    const driver = running ?? this.create(session, provider);
    if (driver) await this.attempt(session, 'logout', () => driver.logout());
    await session.events;
  }

  /** A driver from the connection's provider; undefined (and the session DISCONNECTED) when that cannot be. */
  private create(session: Session, provider: string): ChannelDriver | undefined {
    const factory = this.providers.factoryFor(provider);
    if (!factory) {
      this.problem(session, new Error(`the ${provider} provider is not available in this process`), 'start');
      this.setStatus(session, 'DISCONNECTED');
      this.enqueue(session, () => this.saveStatus(session, { type: 'status', status: 'DISCONNECTED' }));
      return undefined;
    }
    let driver: ChannelDriver | undefined;
    const context: DriverContext = {
      connectionId: session.connectionId,
      companyId: session.companyId,
      media: this.infra.media,
      log: this.log.child({ connectionId: session.connectionId, provider }),
      emit: async (event) => {
        if (driver !== undefined && session.driver === driver) await this.accept(session, event);
      },
    };
    try {
      driver = factory(context);
    } catch (err) {
      session.failed = true;
      this.problem(session, err, 'start');
    }
    return driver;
  }

  // ---- events -------------------------------------------------------------------------------

  /** Resolves once the event is journaled (at once for events that are not). */
  private async accept(session: Session, event: DriverEvent): Promise<void> {
    if (event.type === 'status') {
      this.setStatus(session, event.status, event.retries);
      this.enqueue(session, () => this.saveStatus(session, event));
      return;
    }
    const { connectionId, companyId } = session;
    const storable = storableEvent(event);
    const publish = (entryId?: number) =>
      this.infra.bus.emit(DOMAIN_EVENTS[storable.type], companyId, { connectionId, companyId, ...storable, ...(entryId !== undefined && { entryId }) });
    if (!isJournaled(storable)) {
      this.enqueue(session, () => publish());
      return;
    }
    const journaled = this.journal.append(connectionId, companyId, storable);
    // Published in the order the driver emitted, each once its entry is committed.
    this.enqueue(session, async () => publish(await journaled));
    await journaled;
  }

  private enqueue(session: Session, task: () => Promise<void>): void {
    session.events = session.events.then(task).catch((err: unknown) => {
      this.log.error({ err, connectionId: session.connectionId }, 'session event not handled');
    });
  }

  /** Writes status, QR code (kept only while the status is qrcode), retries and number; tells the company. */
  private async saveStatus(session: Session, event: StatusEvent): Promise<void> {
    const patch: StatusPatch = { status: event.status, qrcode: event.status === 'qrcode' ? (event.qrcode ?? '') : '' };
    if (event.retries !== undefined) patch.retries = event.retries;
    if (event.number !== undefined) patch.number = event.number;
    const fence = this.leases.fenceOf(session.connectionId);
    if (!fence) return; // the lease is lost: the new owner writes the status now
    const view = await this.connections.saveStatus(session.connectionId, patch, fence);
    if (!view) return; // deleted meanwhile, or taken over by another node
    this.infra.realtime.publish(session.companyId, `company-${session.companyId}-whatsappSession`, { action: 'update', session: view });
    const { connectionId, companyId } = session;
    const wasConnected = session.savedConnected;
    session.savedConnected = view.status === 'CONNECTED';
    if (view.status === 'CONNECTED') {
      await this.infra.bus.emit(Events.whatsappConnected, companyId, { connectionId, companyId });
    } else if (wasConnected) {
      await this.infra.bus.emit(Events.whatsappDisconnected, companyId, { connectionId, companyId, status: view.status });
    }
    // Drivers log their own status changes (once per change); here only for tracing.
    this.log.debug({ connectionId: session.connectionId, status: event.status, retries: view.retries }, 'session status saved');
  }

  // ---- helpers ------------------------------------------------------------------------------

  private setStatus(session: Session, status: ConnectionStatus, retries = 0): void {
    session.status = status;
    session.statusAt = Date.now();
    session.backingOff = status === 'OPENING' && retries > 0;
    if (status === 'CONNECTED') session.loggedProblem = undefined;
  }

  /** A driver call whose failure, thrown or rejected, is logged and goes no further. */
  private async attempt(session: Session, action: string, call: () => Promise<void>): Promise<void> {
    try {
      await call();
    } catch (err) {
      this.problem(session, err, action);
    }
  }

  private problem(session: Session, err: unknown, action: string): void {
    const message = err instanceof Error ? err.message : String(err);
    if (message === session.loggedProblem) return;
    session.loggedProblem = message;
    this.log.warn({ err, connectionId: session.connectionId }, `whatsapp session ${action} failed`);
  }

  private sessionOf(row: ConnectionRecord): Session {
    let session = this.sessions.get(row.id);
    if (!session) {
      session = {
        connectionId: row.id,
        companyId: row.companyId,
        status: 'DISCONNECTED',
        statusAt: Date.now(),
        backingOff: false,
        failed: false,
        savedConnected: false,
        lifecycle: Promise.resolve(),
        events: Promise.resolve(),
      };
      this.sessions.set(row.id, session);
    }
    return session;
  }

  /** Runs lifecycle steps of one connection one at a time, so two restarts never leave two drivers running. */
  private serial(session: Session, task: () => Promise<void>): Promise<void> {
    const next = session.lifecycle.then(task);
    session.lifecycle = next.catch(() => undefined);
    return next;
  }
}
