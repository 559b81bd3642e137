import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import { AppError, TooManyAttemptsError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AppContext } from './context.js';
import { ErrorCode } from '../contract/error-codes.js';

/** First middleware: any thrown error becomes `{ error, message }` with a fitting status. */
export function errorMiddleware() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    try {
      await next();
    } catch (err) {
      const log = ctx.state.log;
      if (err instanceof AppError) {
        ctx.status = err.status;
        if (err instanceof TooManyAttemptsError) ctx.set('Retry-After', String(err.retryAfterSeconds));
        ctx.body = { error: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
        log?.info({ code: err.code, status: err.status }, err.message);
        return;
      }
      const httpErr = err as { status?: number; expose?: boolean; message?: string; type?: string };
      if (httpErr.status && httpErr.status >= 400 && httpErr.status < 500) {
        // Body parser and Koa's own client errors (too large, bad JSON, …).
        ctx.status = httpErr.status;
        ctx.body = { error: clientErrorCode(httpErr.status), message: httpErr.expose ? httpErr.message : 'Bad request' };
        log?.info({ status: httpErr.status }, httpErr.message ?? 'client error');
        return;
      }
      ctx.status = 500;
      ctx.body = { error: ErrorCode.ERR_INTERNAL, message: `Internal error (request ${ctx.state.requestId})` };
      log?.error({ err }, 'unexpected error');
    }
  };
}

function clientErrorCode(status: number): ErrorCode {
  if (status === 413) return ErrorCode.ERR_PAYLOAD_TOO_LARGE;
  if (status === 415) return ErrorCode.ERR_UNSUPPORTED_MEDIA_TYPE;
  if (status === 405) return ErrorCode.ERR_METHOD_NOT_ALLOWED;
  if (status === 404) return ErrorCode.ERR_ROUTE_NOT_FOUND;
  return ErrorCode.ERR_BAD_REQUEST;
}

/** A request id (kept from X-Request-Id when sane), a child logger, and one access-log line. */
export function requestLogMiddleware(log: Logger) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ reqId: requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      ctx.state.log.info(
        {
          method: ctx.method,
          url: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          userId: ctx.state.user?.id,
          apiTokenId: ctx.state.user?.apiToken?.id,
        },
        'request',
      );
    }
  };
}

/** The headers a self-hosted app should always send. */
export function securityHeadersMiddleware() {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob: https:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; frame-src https://www.youtube.com; frame-ancestors 'none'",
    );
    // Answers of the API are never kept, save a successful one whose route says how it may be (a file, the docs viewer).
    if (ctx.path.startsWith('/api') && (ctx.status >= 400 || !ctx.response.get('Cache-Control'))) ctx.set('Cache-Control', 'no-store');
  };
}
