import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { AuthUser } from '../auth/auth-user.js';
import type { Logger } from '../logger.js';

export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by requireAuth. */
  user: AuthUser;
  /** The request body's bytes, on the public routes of a plugin that asks for them (`rawBody: true`). */
  rawBody?: Buffer;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppRouter = Router<AppState>;
