import { definePlugin } from 'atende/plugin';
import { apiTokenRoutes } from './api-tokens.routes.js';
import { apiTokensOf } from './api-tokens-of.js';
import { FLAG, TOKEN_PREFIX } from './api-tokens.service.js';

/**
 * Company API tokens: scoped bearer tokens (atk_…) with which other systems use the app's own
 * REST routes as the company, within the token's scopes.
 */
export default definePlugin({
  name: 'api-tokens',
  flag: FLAG,
  migrations: 'migrations',
  web: 'web',
  routes: apiTokenRoutes,
  register(app) {
    const tokens = apiTokensOf(app);
    app.auth.registerBearer(TOKEN_PREFIX, (token) => tokens.resolve(token));
  },
});
