import { WebSocket, type RawData } from 'ws';
import { AppError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { sessionNotInitialized, type NormalizedMessage, type SentMessage } from '../driver.js';
import type { InboundBody } from './simulator.schema.js';
import type { Outbox, PhoneEvent, PhoneListener, PhonePort, SimulatorBackend } from './simulated-phone.js';

/**
 * The socket between a node's simulator driver and `atende simulate server`, one per running
 * driver at `/connections/:id/driver`. The driver calls the phone's commands (PhonePort) by name;
 * the phone sends events, a customer's message with a delivery number that the driver answers
 * once its node has journaled the message (or refuses): only then does the phone forget it.
 */
export type DriverFrame =
  | { seq: number; op: keyof PhonePort; args: unknown[] }
  | { received: number; message?: NormalizedMessage };

export type PhoneFrame =
  | { seq: number; result?: unknown; error?: { code: ErrorCode; status: number; message: string } }
  | { event: PhoneEvent; delivery?: number };

/** Close code of a socket whose phone another driver took over: that driver does not reconnect. */
export const REPLACED_CLOSE = 4001;

/** The longest wait between two attempts to reach the simulator server again. */
const RECONNECT_MAX_MS = 5000;

function unreachable(url: string): AppError {
  return new AppError(ErrorCode.ERR_SIMULATOR_UNREACHABLE, 502, `The simulator server at ${url} cannot be reached`);
}

/** The phones of `atende simulate server` (ATENDE_SIMULATOR_URL): its test API over HTTP, its phones over sockets. */
export class RemoteSimulator implements SimulatorBackend {
  private readonly url: string;

  constructor(url: string) {
    this.url = url.replace(/\/+$/, '');
  }

  link(connectionId: number, listener: PhoneListener): PhonePort {
    return new RemotePhone(`${this.url.replace(/^http/, 'ws')}/connections/${connectionId}/driver`, this.url, listener);
  }

  async scan(connectionId: number, number?: string): Promise<string> {
    return (await this.request<{ number: string }>('POST', connectionId, 'scan', { number })).body.number;
  }

  async inbound(connectionId: number, inputs: InboundBody[]): Promise<{ messages: NormalizedMessage[]; delivered: boolean }> {
    const { status, body } = await this.request<{ messages: NormalizedMessage[] }>('POST', connectionId, 'inbound', inputs);
    return { messages: body.messages, delivered: status === 201 };
  }

  async outbox(connectionId: number): Promise<Outbox> {
    return (await this.request<Outbox>('GET', connectionId, 'outbox')).body;
  }

  async disconnect(connectionId: number): Promise<void> {
    await this.request('POST', connectionId, 'disconnect', {});
  }

  async limit(connectionId: number, active: boolean, until?: string): Promise<void> {
    await this.request('POST', connectionId, 'limit', { active, until });
  }

  /** The server's answer; its `{ error, message }` comes back as the same AppError. */
  private async request<T>(method: string, connectionId: number, action: string, body?: unknown): Promise<{ status: number; body: T }> {
    let res: Response;
    try {
      res = await fetch(`${this.url}/connections/${connectionId}/${action}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw unreachable(this.url);
    }
    const answer = (await res.json().catch(() => ({}))) as T & { error?: ErrorCode; message?: string };
    if (!res.ok) throw new AppError(answer.error ?? ErrorCode.ERR_INTERNAL, res.status, answer.message ?? `HTTP ${res.status}`);
    return { status: res.status, body: answer };
  }
}

/**
 * A phone at the simulator server, as one driver sees it. While the driver runs, the socket is
 * opened again when it drops (the server restarted), the session showing OPENING meanwhile.
 */
class RemotePhone implements PhonePort {
  private socket: WebSocket | undefined;
  private seq = 0;
  private readonly calls = new Map<number, { resolve(value: unknown): void; reject(err: unknown): void }>();
  private running = false;
  /** The credential to start with again after a reconnect: the number of the last CONNECTED. */
  private number: string | undefined;
  private retries = 0;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly wsUrl: string,
    private readonly url: string,
    private readonly listener: PhoneListener,
  ) {}

  async start(number: string | undefined): Promise<void> {
    this.running = true;
    this.number = number;
    await this.open();
    await this.call('start', number);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.close();
  }

  async logout(): Promise<void> {
    this.running = false;
    await this.open();
    try {
      await this.call('logout');
    } finally {
      this.close();
    }
  }

  sentBefore(id: string | undefined): Promise<SentMessage | undefined> {
    return this.call('sentBefore', id);
  }

  send(message: Parameters<PhonePort['send']>[0]): Promise<SentMessage> {
    return this.call('send', message);
  }

  operate(operation: Parameters<PhonePort['operate']>[0]): Promise<void> {
    return this.call('operate', operation);
  }

  checkNumber(number: string): Promise<string | null> {
    return this.call('checkNumber', number);
  }

  private call<T>(op: keyof PhonePort, ...args: unknown[]): Promise<T> {
    const socket = this.socket;
    if (socket?.readyState !== WebSocket.OPEN) return Promise.reject(sessionNotInitialized());
    const seq = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(seq, { resolve: resolve as (value: unknown) => void, reject });
      this.write(socket, { seq, op, args });
    });
  }

  private open(): Promise<void> {
    if (this.socket?.readyState === WebSocket.OPEN) return Promise.resolve();
    clearTimeout(this.retry);
    const socket = new WebSocket(this.wsUrl);
    this.socket = socket;
    socket.on('message', (data) => this.frame(socket, data));
    socket.on('close', (code) => this.closed(socket, code));
    // A failure is followed by its close, which is what this side acts on.
    socket.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', () => reject(unreachable(this.url)));
    });
  }

  private close(): void {
    clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
  }

  private frame(socket: WebSocket, data: RawData): void {
    let frame: PhoneFrame;
    try {
      frame = JSON.parse(data.toString()) as PhoneFrame;
    } catch {
      return;
    }
    if ('event' in frame) {
      if (frame.event.type === 'status' && frame.event.number !== undefined) this.number = frame.event.number || undefined;
      const { delivery } = frame;
      const delivered = this.listener.deliver(frame.event);
      if (delivery === undefined) return;
      delivered.then(
        (message) => this.write(socket, { received: delivery, message }),
        () => this.write(socket, { received: delivery }),
      );
      return;
    }
    const call = this.calls.get(frame.seq);
    this.calls.delete(frame.seq);
    if (frame.error) call?.reject(new AppError(frame.error.code, frame.error.status, frame.error.message));
    else call?.resolve(frame.result);
  }

  private closed(socket: WebSocket, code: number): void {
    for (const call of this.calls.values()) call.reject(sessionNotInitialized());
    this.calls.clear();
    if (this.socket !== socket) return;
    this.socket = undefined;
    if (code === REPLACED_CLOSE) {
      this.running = false;
      this.listener.replaced();
    }
    if (this.running) this.reconnect();
  }

  private reconnect(): void {
    this.retries += 1;
    void this.listener.deliver({ type: 'status', status: 'OPENING', retries: this.retries });
    this.retry = setTimeout(() => {
      if (!this.running) return;
      // A socket that fails closes, and its close tries again.
      this.start(this.number).then(
        () => (this.retries = 0),
        () => this.socket?.close(),
      );
    }, Math.min(1000 * this.retries, RECONNECT_MAX_MS));
    this.retry.unref();
  }

  private write(socket: WebSocket, frame: DriverFrame): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }
}
