import { getToken, refreshSession } from '../api/client';

type Handler = (data: unknown) => void;

const STATUS_INTERVAL_MS = 300_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * One websocket per tab. Reconnects with exponential backoff; when the socket cannot open (the
 * token expired) it refreshes the session first. Joined rooms are joined again after a reconnect,
 * and the onReconnect listener (the query cache) reloads what is shown: events of the gap were lost.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly joins = new Map<string, { type: string; data: unknown; count: number }>();
  private readonly reconnectListeners = new Set<() => void>();
  private everOpened = false;
  private attempts = 0;
  private stopped = true;
  private statusTimer: number | undefined;
  private retryTimer: number | undefined;

  constructor(private readonly onSessionLost: () => void) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
    this.statusTimer = window.setInterval(() => this.send('userStatus'), STATUS_INTERVAL_MS);
  }

  stop(): void {
    this.stopped = true;
    this.everOpened = false;
    window.clearInterval(this.statusTimer);
    window.clearTimeout(this.retryTimer);
    this.socket?.close(1000);
    this.socket = null;
  }

  /** Listens to a channel (e.g. 'company-1-user'); answers the function that stops listening. */
  on(channel: string, handler: Handler): () => void {
    const set = this.handlers.get(channel) ?? new Set();
    set.add(handler);
    this.handlers.set(channel, set);
    return () => set.delete(handler);
  }

  /** Called each time the socket opens again after a loss; answers the function that stops it. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Joins a room (joinChatBox, joinTickets, joinNotification) until the returned function is called. */
  join(type: string, data?: unknown): () => void {
    const key = `${type}:${JSON.stringify(data ?? null)}`;
    const entry = this.joins.get(key) ?? { type, data, count: 0 };
    entry.count += 1;
    this.joins.set(key, entry);
    if (entry.count === 1) this.send(type, data);
    return () => {
      entry.count -= 1;
      if (entry.count === 0) {
        this.joins.delete(key);
        this.send(type.replace(/^join/, 'leave'), data);
      }
    };
  }

  private send(type: string, data?: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type, data }));
  }

  private open(): void {
    const token = getToken();
    if (!token || this.stopped) return;
    const protocol = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${protocol}://${location.host}/ws?token=${encodeURIComponent(token)}`);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.attempts = 0;
      for (const { type, data } of this.joins.values()) this.send(type, data);
      if (this.everOpened) this.reconnectListeners.forEach((listener) => listener());
      this.everOpened = true;
    };
    socket.onmessage = (event) => {
      let frame: { channel?: string; data?: unknown };
      try {
        frame = JSON.parse(String(event.data)) as typeof frame;
      } catch {
        return;
      }
      if (!frame.channel) return;
      this.handlers.get(frame.channel)?.forEach((handler) => handler(frame.data));
    };
    socket.onclose = () => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      void this.reconnect(!opened);
    };
  }

  private async reconnect(neverOpened: boolean): Promise<void> {
    if (neverOpened) {
      // The server refuses an expired or revoked token before the socket opens.
      const refreshed = await refreshSession().catch(() => undefined);
      if (refreshed === null) {
        this.stop();
        this.onSessionLost();
        return;
      }
    }
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempts);
    this.attempts += 1;
    this.retryTimer = window.setTimeout(() => this.open(), delay);
  }
}
