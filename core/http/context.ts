import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { AuthUser } from '../auth/auth-user.js';
import type { Logger } from '../logger.js';

export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by requireAuth. */
  user: AuthUser;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppRouter = Router<AppState>;
