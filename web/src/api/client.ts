/**
 * One typed client for the API. The access token lives in memory and in localStorage ('token');
 * the refresh token is an httpOnly cookie the browser sends to /api/auth. An expired session or a
 * 403 triggers one refresh and one retry; a failed refresh signs the user out.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'token';
let accessToken: string | null = localStorage.getItem(TOKEN_KEY);
let refreshing: Promise<RefreshResult | null> | null = null;
let onSignedOut: () => void = () => {};

export interface RefreshResult {
  token: string;
  user: unknown;
}

export function getToken(): string | null {
  return accessToken;
}

export function setToken(token: string | null): void {
  accessToken = token;
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** Called when the session cannot be refreshed: the auth provider clears state and goes to /login. */
export function setSignedOutHandler(handler: () => void): void {
  onSignedOut = handler;
}

export type Query = Record<string, string | number | boolean | undefined | null | (string | number)[]>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Public calls (login, refresh, plan list) never carry a token and never refresh. */
  public?: boolean;
}

function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const qs = params.toString();
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (!options.public && accessToken) headers.Authorization = `Bearer ${accessToken}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(buildUrl(path, options.query), { method, headers, body, signal: options.signal, credentials: 'same-origin' });
}

async function toError(res: Response): Promise<ApiError> {
  let payload: { error?: string; message?: string; details?: Record<string, unknown> } = {};
  try {
    payload = (await res.json()) as typeof payload;
  } catch {
    // not JSON: keep the status only
  }
  return new ApiError(res.status, payload.error ?? `HTTP_${res.status}`, payload.message ?? res.statusText, payload.details);
}

/** Reads a response that is not needed to its end: one left unread stays open in the browser until collected. */
async function discard(res: Response): Promise<void> {
  await res.text().catch(() => undefined);
}

/**
 * Exchanges the refresh cookie for a new access token; concurrent callers share one request.
 * Answers null when the server refuses the session; a network failure throws (the session may
 * still be good once the server is back).
 */
export function refreshSession(): Promise<RefreshResult | null> {
  refreshing ??= (async () => {
    try {
      const res = await send('POST', '/auth/refresh_token', { public: true });
      if (!res.ok) {
        await discard(res);
        return null;
      }
      const result = (await res.json()) as RefreshResult;
      setToken(result.token);
      return result;
    } finally {
      setTimeout(() => (refreshing = null), 0);
    }
  })();
  return refreshing;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  let res = await send(method, path, options);
  if (!options.public && (res.status === 401 || res.status === 403)) {
    const refreshed = await refreshSession();
    if (refreshed) {
      await discard(res);
      res = await send(method, path, options);
    } else if (res.status === 401) {
      setToken(null);
      onSignedOut();
    }
  }
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

export const api = {
  get: <T>(path: string, query?: Query, options?: Omit<RequestOptions, 'query'>) => request<T>('GET', path, { ...options, query }),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T = void>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
