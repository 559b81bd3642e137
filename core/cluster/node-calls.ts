import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../contract/error-codes.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RedisLink } from './redis-link.js';

/** How long a call waits for the other node: beyond a media send's usual time, short of a request's patience. */
export const CALL_TIMEOUT_MS = 20_000;

export type CallHandler = (args: unknown) => Promise<unknown>;

/**
 * Requests to one node of the installation (a command for the session it runs), answered by that
 * node's handler: its result, or the AppError it threw, as if it had run here.
 */
export interface NodeCalls {
  call<T>(nodeId: string, method: string, args: unknown): Promise<T>;
  handle(method: string, handler: CallHandler): void;
}

function unreachable(nodeId: string, why: string): AppError {
  return new AppError(ErrorCode.ERR_SESSION_NODE_UNREACHABLE, 503, `The server running this connection's session (${nodeId}) ${why}; try again in a moment`);
}

/** One node: only calls to itself, run at once. */
export class LocalNodeCalls implements NodeCalls {
  protected readonly handlers = new Map<string, CallHandler>();

  constructor(protected readonly nodeId: string) {}

  handle(method: string, handler: CallHandler): void {
    this.handlers.set(method, handler);
  }

  async call<T>(nodeId: string, method: string, args: unknown): Promise<T> {
    if (nodeId !== this.nodeId) throw unreachable(nodeId, 'is not reachable without Redis');
    return (await this.handlers.get(method)!(args)) as T;
  }
}

type Frame =
  | { kind: 'call'; id: string; from: string; method: string; args: unknown }
  | { kind: 'reply'; id: string; result?: unknown; error?: { code: ErrorCode; status: number; message: string } };

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** Calls through Redis pub/sub: each node listens on its own channel for calls and for replies to its calls. */
export class RedisNodeCalls extends LocalNodeCalls {
  private readonly pending = new Map<string, Pending>();

  private constructor(
    private readonly link: RedisLink,
    private readonly log: Logger,
  ) {
    super(link.nodeId);
  }

  static async start(link: RedisLink, log: Logger): Promise<RedisNodeCalls> {
    const calls = new RedisNodeCalls(link, log);
    await link.subscribe(RedisNodeCalls.channel(link.nodeId), (raw) => void calls.heard(JSON.parse(raw) as Frame));
    return calls;
  }

  override async call<T>(nodeId: string, method: string, args: unknown): Promise<T> {
    if (nodeId === this.nodeId) return super.call<T>(nodeId, method, args);
    const id = randomUUID();
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(unreachable(nodeId, `did not answer within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
    });
    const frame: Frame = { kind: 'call', id, from: this.nodeId, method, args };
    const listeners = await this.link.publish(RedisNodeCalls.channel(nodeId), JSON.stringify(frame));
    if (listeners === 0) this.settle(id, (p) => p.reject(unreachable(nodeId, 'is not running')));
    return answer as Promise<T>;
  }

  private async heard(frame: Frame): Promise<void> {
    if (frame.kind === 'reply') {
      this.settle(frame.id, (p) => (frame.error ? p.reject(new AppError(frame.error.code, frame.error.status, frame.error.message)) : p.resolve(frame.result)));
      return;
    }
    let reply: Frame;
    try {
      const handler = this.handlers.get(frame.method);
      if (!handler) throw new Error(`no handler for ${frame.method}`);
      reply = { kind: 'reply', id: frame.id, result: await handler(frame.args) };
    } catch (err) {
      if (!(err instanceof AppError)) this.log.error({ err, method: frame.method }, 'call from another node failed');
      const error = err instanceof AppError ? err : new AppError(ErrorCode.ERR_INTERNAL, 500, 'The call failed on the node running the session');
      reply = { kind: 'reply', id: frame.id, error: { code: error.code, status: error.status, message: error.message } };
    }
    await this.link.publish(RedisNodeCalls.channel(frame.from), JSON.stringify(reply)).catch((err: unknown) => this.log.warn({ err }, 'reply to another node not sent'));
  }

  private settle(id: string, run: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    run(pending);
  }

  private static channel(nodeId: string): string {
    return `node:${nodeId}`;
  }
}
