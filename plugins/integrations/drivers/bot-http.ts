import type { PluginApp } from 'atende/plugin';

export interface BotHttpLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  maxMediaBytes: number;
}

/** A 2xx answer (any other status is a ServiceError). */
export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * A failure of the service, in words an admin can act on (shown as the integration's last error).
 * `retryable`: the same call may succeed later (no answer, a timeout, HTTP 5xx or 429).
 */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
    /** The HTTP status the service answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The body read up to `max` bytes: a bigger answer is refused rather than held in memory. */
async function readLimited(res: Response, max: number, what: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) throw new ServiceError(`${what} is larger than ${max} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  if (!res.body) return Buffer.alloc(0);
  for await (const chunk of res.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > max) throw new ServiceError(`${what} is larger than ${max} bytes`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/**
 * The outgoing calls of integrations: every URL through the product's check (app.outgoing), no
 * redirects (one could lead to a private address), a time limit and a size limit on every answer.
 */
export class BotHttp {
  constructor(
    private readonly app: PluginApp,
    private readonly limits: BotHttpLimits,
  ) {}

  async post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<HttpAnswer> {
    const res = await this.call(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } }, signal);
    if (res.status >= 300) {
      await res.body?.cancel();
      throw new ServiceError(`${new URL(url).origin} answered HTTP ${res.status}`, res.status >= 500 || res.status === 429, res.status);
    }
    const contentType = res.headers.get('content-type') ?? '';
    return { status: res.status, contentType, body: await readLimited(res, this.limits.maxResponseBytes, 'the answer') };
  }

  /** A file a bot sends by URL: its bytes, type and name. */
  async media(url: string, signal?: AbortSignal): Promise<{ data: Buffer; mime: string; name: string }> {
    const res = await this.call(url, { method: 'GET' }, signal);
    if (!res.ok) throw new ServiceError(`the file ${url} answered HTTP ${res.status}`);
    const data = await readLimited(res, this.limits.maxMediaBytes, `the file ${url}`);
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'file');
    return { data, mime: (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim(), name };
  }

  private async call(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const checked = await this.app.outgoing.checkUrl(url);
    const timeout = AbortSignal.timeout(this.limits.timeoutMs);
    try {
      return await fetch(checked, { ...init, redirect: 'error', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (err) {
      if (signal?.aborted) throw new ServiceError('the conversation step ran out of time');
      if (timeout.aborted) throw new ServiceError(`${checked.origin} did not answer within ${this.limits.timeoutMs} ms`, true);
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      throw new ServiceError(`${checked.origin} could not be reached${cause}`, true);
    }
  }
}

/** The answer's JSON, or a ServiceError naming what came instead. */
export function jsonOf(answer: HttpAnswer, what: string): unknown {
  const text = answer.body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError(`${what} answered HTTP ${answer.status} with no JSON: ${text.slice(0, 200)}`);
  }
}
