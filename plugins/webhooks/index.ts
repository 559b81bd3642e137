import { definePlugin, z } from 'atende/plugin';
import { DELIVER_JOB, PRUNE_JOB, SWEEP_JOB, type WebhooksConfig } from './deliveries.service.js';
import { SOURCE_EVENTS } from './webhook-events.js';
import { webhooksOf } from './webhooks-of.js';
import { webhookRoutes } from './webhooks.routes.js';

/**
 * Outbound webhooks: admins register URLs with the events they want; each event is delivered as
 * signed JSON, retried with backoff for up to a day, in order per ticket (plugins/README.md, "Webhooks");
 * settled deliveries are kept retentionDays (30), then deleted by a daily job.
 */
export default definePlugin({
  name: 'webhooks',
  flag: 'useExternalApi',
  config: z.object({
    retryDelayMs: z.number().int().positive().default(10_000),
    maxRetryDelayMs: z.number().int().positive().default(60 * 60 * 1000),
    giveUpAfterMs: z.number().int().positive().default(24 * 60 * 60 * 1000),
    timeoutMs: z.number().int().positive().default(10_000),
    sweepEveryMs: z.number().int().positive().default(60_000),
    retentionDays: z.number().int().positive().default(30),
    pruneEveryMs: z.number().int().positive().default(24 * 60 * 60 * 1000),
  }),
  migrations: 'migrations',
  web: 'web',
  routes: webhookRoutes,
  jobs(jobs, app) {
    const { deliveries } = webhooksOf(app as Parameters<typeof webhooksOf>[0]);
    jobs.define<{ companyId: number; deliveryId: number }>(DELIVER_JOB, ({ deliveryId }) => deliveries.deliver(deliveryId));
    jobs.define(SWEEP_JOB, () => deliveries.sweep());
    jobs.define(PRUNE_JOB, async () => {
      await deliveries.prune();
    });
  },
  register(app) {
    // Recorded inside the emit (after the write's commit), so a delivery exists before the emitter
    // moves on and keeps the order in which the events were emitted.
    const { deliveries } = webhooksOf(app as Parameters<typeof webhooksOf>[0]);
    for (const name of SOURCE_EVENTS) app.events.on(name, (e) => deliveries.record(e));
  },
  async bootstrap(app) {
    const config = app.config as WebhooksConfig;
    await app.jobs.every(config.sweepEveryMs, SWEEP_JOB);
    await app.jobs.every(config.pruneEveryMs, PRUNE_JOB);
  },
});
