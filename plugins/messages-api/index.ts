import { definePlugin, z } from 'atende/plugin';
import { sendRoutes, tokenRoutes } from './messages-api.routes.js';
import { messagesApiOf } from './messages-api-of.js';
import { sendDocs } from './send.schema.js';

/** Idempotency answers older than a day are swept hourly. */
const SWEEP_JOB = 'messages-api.sweep';

/** The external messages API (spec §7): other systems send through a connection with its token. */
export default definePlugin({
  name: 'messages-api',
  flag: 'useExternalApi',
  config: z.object({ rateLimitPerMinute: z.number().int().positive().default(60) }),
  migrations: 'migrations',
  web: 'web',
  routes: tokenRoutes,
  publicRoutes: sendRoutes,
  apiDocs: sendDocs,
  jobs(jobs, app) {
    jobs.define(SWEEP_JOB, () => messagesApiOf(app).sender.sweep());
  },
  async bootstrap(app) {
    await app.jobs.every(60 * 60 * 1000, SWEEP_JOB);
  },
});
