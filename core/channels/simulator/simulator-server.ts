import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { AppError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { Logger } from '../../logger.js';
import type { NormalizedMessage } from '../driver.js';
import { PhoneNetwork, type PhoneEvent, type PhoneListener, type PhonePort } from './simulated-phone.js';
import { simulatorActions, type SimulatorAnswer } from './simulator-actions.js';
import { REPLACED_CLOSE, type DriverFrame, type PhoneFrame } from './simulator-remote.js';

/** Request bodies the test API takes: a full batch of inbound messages with media, as base64. */
const BODY_LIMIT = 64 * 1024 * 1024;
/** A driver that answers no ping for this long is gone (its node froze or its host died). */
const PING_EVERY_MS = 10_000;

const ACTION_PATH = /^\/connections\/(\d{1,10})\/(\w+)$/;
const DRIVER_PATH = /^\/connections\/(\d{1,10})\/driver$/;

/** The phone's end of a driver's socket: events go out, the driver answers each customer's message. */
class SocketLink implements PhoneListener {
  private delivery = 0;
  private readonly waiting = new Map<number, (message: NormalizedMessage | undefined) => void>();

  constructor(private readonly socket: WebSocket) {}

  deliver(event: PhoneEvent): Promise<NormalizedMessage | undefined> {
    if (event.type !== 'message') {
      this.send({ event });
      return Promise.resolve(undefined);
    }
    if (this.socket.readyState !== this.socket.OPEN) return Promise.resolve(undefined);
    const delivery = ++this.delivery;
    return new Promise((resolve) => {
      this.waiting.set(delivery, resolve);
      this.send({ event, delivery });
    });
  }

  /** The driver's answer: the message as its node journaled it, or nothing when it could not be. */
  received(delivery: number, message: NormalizedMessage | undefined): void {
    this.waiting.get(delivery)?.(message);
    this.waiting.delete(delivery);
  }

  /** The socket is gone: what it had not answered stays with the phone. */
  closed(): void {
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
  }

  replaced(): void {
    this.socket.close(REPLACED_CLOSE, 'another driver took this phone over');
  }

  send(frame: PhoneFrame): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(frame));
  }
}

function errorAnswer(err: unknown): SimulatorAnswer {
  if (err instanceof AppError) return { status: err.status, body: { error: err.code, message: err.message } };
  return { status: 500, body: { error: ErrorCode.ERR_INTERNAL, message: 'Internal server error' } };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new AppError(ErrorCode.ERR_PAYLOAD_TOO_LARGE, 413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(ErrorCode.ERR_BAD_REQUEST, 400, 'The body is not valid JSON');
  }
}

/**
 * `atende simulate server`: the simulated phones in a process of their own. Nodes started with
 * ATENDE_SIMULATOR_URL link their simulator drivers to it over sockets; its test API (the same
 * actions as a node's /api/simulator/:id/…, without sign-in: bind it to loopback) plays the
 * phones and the customers. Customers' messages wait here until a driver's node has journaled
 * them, so a node that dies or stops loses none.
 */
export class SimulatorServer {
  private readonly network = new PhoneNetwork({ keepsInbound: true });
  private readonly http: Server;
  private readonly sockets = new WebSocketServer({ noServer: true });
  private readonly alive = new WeakSet<WebSocket>();
  private pinger: NodeJS.Timeout | undefined;

  constructor(private readonly log: Logger) {
    this.http = createServer((req, res) => void this.serve(req, res));
    this.http.on('upgrade', (req, socket, head) => {
      const match = DRIVER_PATH.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (!match) {
        socket.destroy();
        return;
      }
      this.sockets.handleUpgrade(req, socket, head, (ws) => this.driver(Number(match[1]), ws));
    });
  }

  /** Listens; answers the address. */
  async listen(port: number, host: string): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, host, () => resolve());
    });
    this.pinger = setInterval(() => this.ping(), PING_EVERY_MS);
    const address = this.http.address() as AddressInfo;
    return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  }

  async close(): Promise<void> {
    clearInterval(this.pinger);
    for (const ws of this.sockets.clients) ws.terminate();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  /** A driver linked to a connection's phone: its calls run on the phone, the phone's events go to it. */
  private driver(connectionId: number, ws: WebSocket): void {
    const link = new SocketLink(ws);
    const phone = this.network.link(connectionId, link);
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('message', (data) => void this.frame(phone, link, data));
    ws.on('close', () => {
      link.closed();
      void phone.stop();
    });
    ws.on('error', (err) => this.log.warn({ err, connectionId }, 'simulator driver socket failed'));
    this.log.info({ connectionId }, 'simulator driver linked');
  }

  private async frame(phone: PhonePort, link: SocketLink, data: RawData): Promise<void> {
    let frame: DriverFrame;
    try {
      frame = JSON.parse(data.toString()) as DriverFrame;
    } catch {
      return;
    }
    if ('received' in frame) {
      link.received(frame.received, frame.message);
      return;
    }
    try {
      const call = Object.hasOwn(phone, frame.op) ? (phone[frame.op] as (...args: unknown[]) => Promise<unknown>) : undefined;
      if (!call) throw new AppError(ErrorCode.ERR_BAD_REQUEST, 400, `No such command: ${String(frame.op)}`);
      link.send({ seq: frame.seq, result: await call(...frame.args) });
    } catch (err) {
      const { status, body } = errorAnswer(err);
      const { error, message } = body as { error: ErrorCode; message: string };
      link.send({ seq: frame.seq, error: { code: error, status, message } });
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let answer: SimulatorAnswer;
    try {
      const match = ACTION_PATH.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
      const action = match ? simulatorActions[match[2] as keyof typeof simulatorActions] : undefined;
      if (!match || !action || action.method !== req.method) throw new AppError(ErrorCode.ERR_ROUTE_NOT_FOUND, 404, 'No such route');
      const run = action.prepare(req.method === 'GET' ? {} : await readJson(req));
      answer = await run(this.network, Number(match[1]));
    } catch (err) {
      if (!(err instanceof AppError)) this.log.error({ err, url: req.url }, 'simulator request failed');
      answer = errorAnswer(err);
    }
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  }

  /** Sockets that did not answer the last ping are closed: their phones wait for the next driver. */
  private ping(): void {
    for (const ws of this.sockets.clients) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}
