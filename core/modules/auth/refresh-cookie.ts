import type { Config } from '../../config/config.schema.js';
import type { AppContext } from '../../http/context.js';

/** The refresh token travels only in this cookie, and only to the auth routes. */
export const REFRESH_COOKIE = 'jrt';
const COOKIE_PATH = '/api/auth';

function cookie(config: Config, value: string, maxAge: number): string {
  const parts = [`${REFRESH_COOKIE}=${value}`, `Path=${COOKIE_PATH}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Strict'];
  if (maxAge === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  // Secure follows the address users reach, not this hop: behind a TLS proxy the app sees http.
  if (new URL(config.publicUrl).protocol === 'https:') parts.push('Secure');
  return parts.join('; ');
}

export function setRefreshCookie(ctx: AppContext, config: Config, token: string): void {
  ctx.append('Set-Cookie', cookie(config, token, config.refreshTokenTtl));
}

export function clearRefreshCookie(ctx: AppContext, config: Config): void {
  ctx.append('Set-Cookie', cookie(config, '', 0));
}

export function readRefreshCookie(ctx: AppContext): string | undefined {
  return ctx.cookies.get(REFRESH_COOKIE) || undefined;
}
