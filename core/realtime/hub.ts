import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { Envelope, PubSubAdapter } from './pubsub.js';
import { ErrorCode } from '../contract/error-codes.js';

export const PING_INTERVAL_MS = 18_000;

/** Decides whether a user may join a room; answers the room name to join, or null to refuse. */
export type JoinPolicy = (user: AuthUser, data: unknown) => Promise<string | null> | string | null;

/** Rooms a user's sockets are in from the start (their queues, say), recomputed by refreshUser. */
export type RoomsProvider = (user: AuthUser) => Promise<string[]>;

interface Client {
  socket: WebSocket;
  user: AuthUser;
  rooms: Set<string>;
  /** The rooms that came from the providers, replaced as a whole on refresh. */
  provided: Set<string>;
  alive: boolean;
}

const clientFrame = z.object({
  type: z.string().min(1).max(50),
  data: z.unknown().optional(),
});

/**
 * The websocket side of the server: `/ws?token=JWT`. A socket only ever hears its own company's
 * channels, and of those only the rooms it was allowed to join.
 */
export class RealtimeHub {
  private readonly clients = new Set<Client>();
  private readonly policies = new Map<string, JoinPolicy>();
  /** Who declared each policy, for the message refusing a second one. */
  private readonly policyOwners = new Map<string, string>();
  private readonly roomsProviders: RoomsProvider[] = [];
  private readonly statusListeners: ((user: AuthUser, online: boolean) => void)[] = [];
  private wss?: WebSocketServer;
  private pingTimer?: NodeJS.Timeout;
  private closing = false;
  /** The connections holding this turn's frames, written out together at its end. */
  private readonly corked = new Set<Duplex>();

  constructor(
    private readonly pubsub: PubSubAdapter,
    private readonly authenticate: (token: string) => Promise<AuthUser>,
    private readonly log: Logger,
  ) {
    pubsub.subscribe((envelope) => this.deliver(envelope));
  }

  /**
   * Registers what a client frame of this type may join (joinChatBox, joinTickets, …). A type has
   * one policy: a second one would silently widen or narrow who joins, so it is refused.
   */
  definePolicy(type: string, policy: JoinPolicy, owner = 'the core'): void {
    const taken = this.policyOwners.get(type);
    if (taken) throw new Error(`realtime join rule "${type}" is already declared by ${taken}`);
    this.policies.set(type, policy);
    this.policyOwners.set(type, owner);
  }

  /** Adds rooms every socket of a user is in without asking (e.g. `queue:3` for the user's queues). */
  provideRooms(provider: RoomsProvider): void {
    this.roomsProviders.push(provider);
  }

  /** Recomputes the provided rooms of a user's open sockets (after their queues or profile changed). */
  async refreshUser(userId: number): Promise<void> {
    await Promise.all([...this.clients].filter((c) => c.user.id === userId).map((c) => this.assignRooms(c)));
  }

  /** Called with online=true when a user's first socket opens and false when the last closes. */
  onUserStatus(listener: (user: AuthUser, online: boolean) => void): void {
    this.statusListeners.push(listener);
  }

  /** Sends `data` on `channel` to a company (or one of its rooms), through the pub/sub adapter. */
  publish(companyId: number | null, channel: string, data: unknown, room?: string | string[]): void {
    this.pubsub.publish({ companyId, channel, data, room }).catch((err: unknown) => {
      this.log.error({ err, channel }, 'realtime publish failed');
    });
  }

  /** The join frame types that have a policy (for tests that try every one). */
  get joinTypes(): string[] {
    return [...this.policies.keys()];
  }

  /** Sockets connected now (for tests, status and benchmarks). */
  get size(): number {
    return this.clients.size;
  }

  attach(server: Server): void {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/ws') {
        socket.destroy();
        return;
      }
      this.authenticate(url.searchParams.get('token') ?? '')
        .then((user) => {
          this.wss!.handleUpgrade(req, socket, head, (ws) => this.accept(ws, user, req));
        })
        .catch(() => {
          socket.write('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n' +
            JSON.stringify({ error: ErrorCode.ERR_SESSION_EXPIRED, message: 'Session expired, please log in again' }));
          socket.destroy();
        });
    });
    this.pingTimer = setInterval(() => this.pingAll(), PING_INTERVAL_MS);
    this.pingTimer.unref();
  }

  /** Closes every socket (shutdown). */
  async close(): Promise<void> {
    // Sockets closed by the shutdown itself are not users going offline (the database closes next).
    this.closing = true;
    clearInterval(this.pingTimer);
    for (const client of this.clients) client.socket.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => (this.wss ? this.wss.close(() => resolve()) : resolve()));
    await this.pubsub.close();
  }

  /** Disconnects every socket of one user (logout, password change, another login). */
  disconnectUser(userId: number, reason: string): void {
    for (const client of this.clients) {
      if (client.user.id === userId) client.socket.close(4001, reason);
    }
  }

  private accept(socket: WebSocket, user: AuthUser, req: IncomingMessage): void {
    const client: Client = { socket, user, rooms: new Set(), provided: new Set(), alive: true };
    for (const room of this.baseRooms(user)) client.rooms.add(room);
    this.assignRooms(client).catch((err: unknown) => this.log.error({ err, userId: user.id }, 'socket rooms not assigned'));
    const wasOnline = this.isOnline(user.id);
    this.clients.add(client);
    if (!wasOnline) this.statusListeners.forEach((l) => l(user, true));
    this.log.debug({ userId: user.id, ip: req.socket.remoteAddress }, 'socket connected');

    socket.on('pong', () => (client.alive = true));
    socket.on('message', (raw) => {
      this.handleFrame(client, raw.toString()).catch((err: unknown) => {
        this.log.warn({ err, userId: user.id }, 'socket frame failed');
      });
    });
    socket.on('close', () => {
      this.clients.delete(client);
      if (!this.closing && !this.isOnline(user.id)) this.statusListeners.forEach((l) => l(user, false));
    });
    socket.on('error', (err) => this.log.debug({ err }, 'socket error'));
  }

  private baseRooms(user: AuthUser): string[] {
    return [`user:${user.id}`, ...(user.profile === 'admin' || user.super ? ['admins'] : []), ...(user.super ? ['super'] : [])];
  }

  private async assignRooms(client: Client): Promise<void> {
    const lists = await Promise.all(this.roomsProviders.map((provide) => provide(client.user)));
    for (const room of client.provided) client.rooms.delete(room);
    client.provided = new Set(lists.flat());
    for (const room of client.provided) client.rooms.add(room);
    // A room a provider gave may also be a base room: keep those.
    for (const room of this.baseRooms(client.user)) client.rooms.add(room);
  }

  private isOnline(userId: number): boolean {
    for (const client of this.clients) if (client.user.id === userId) return true;
    return false;
  }

  private async handleFrame(client: Client, raw: string): Promise<void> {
    let frame: z.infer<typeof clientFrame>;
    try {
      frame = clientFrame.parse(JSON.parse(raw));
    } catch {
      this.reply(client, { type: 'error', error: ErrorCode.ERR_VALIDATION, message: 'Frames are JSON { type, data }' });
      return;
    }
    if (frame.type === 'userStatus') {
      // The client's periodic "still here" (every 300 s): keeps the user marked online.
      this.statusListeners.forEach((l) => l(client.user, true));
      return;
    }
    if (frame.type.startsWith('leave')) {
      const policy = this.policies.get(`join${frame.type.slice('leave'.length)}`);
      const room = policy ? await policy(client.user, frame.data) : null;
      if (room) client.rooms.delete(room);
      return;
    }
    const policy = this.policies.get(frame.type);
    if (!policy) {
      this.reply(client, { type: 'error', error: ErrorCode.ERR_UNKNOWN_FRAME, message: `Unknown frame type ${frame.type}` });
      return;
    }
    const room = await policy(client.user, frame.data);
    if (!room) {
      this.reply(client, { type: 'error', error: ErrorCode.ERR_NO_PERMISSION, message: `Not allowed: ${frame.type}` });
      return;
    }
    client.rooms.add(room);
    this.reply(client, { type: 'joined', room });
  }

  private reply(client: Client, data: unknown): void {
    this.send(client.socket, JSON.stringify(data));
  }

  private deliver(envelope: Envelope): void {
    const frame = JSON.stringify({ channel: envelope.channel, data: envelope.data });
    for (const client of this.clients) {
      if (envelope.companyId !== null && client.user.companyId !== envelope.companyId) continue;
      if (envelope.room !== undefined && !inAnyRoom(client.rooms, envelope.room)) continue;
      this.send(client.socket, frame);
    }
  }

  /**
   * Sends a frame to an open socket; the frames a socket gets in one turn of the event loop leave
   * in one write at the turn's end instead of a write each (a stored message brings several
   * frames, a batch of them many): each write is a system call here and a wake-up of the reader. ws writes to its
   * connection through `_socket` (it has no public way to hold writes back), and nested corks
   * count, so ws's own cork and uncork around a frame leave it held.
   */
  private send(socket: WebSocket, frame: string): void {
    if (socket.readyState !== socket.OPEN) return;
    const connection = (socket as unknown as { _socket?: Duplex })._socket;
    if (connection && !this.corked.has(connection)) {
      if (this.corked.size === 0) setImmediate(() => this.uncorkAll());
      connection.cork();
      this.corked.add(connection);
    }
    socket.send(frame);
  }

  private uncorkAll(): void {
    for (const connection of this.corked) connection.uncork();
    this.corked.clear();
  }

  private pingAll(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }
}

function inAnyRoom(rooms: Set<string>, wanted: string | string[]): boolean {
  return typeof wanted === 'string' ? rooms.has(wanted) : wanted.some((room) => rooms.has(room));
}
