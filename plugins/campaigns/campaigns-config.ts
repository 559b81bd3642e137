import { z } from 'atende/plugin';

/** pluginConfig.campaigns (or ATENDE_PLUGIN_CAMPAIGNS_WAIT_SCALE). */
export const campaignsConfig = z.object({
  /**
   * Multiplies every wait the campaign settings plan (1: as planned). Tests and demos shorten the
   * waits with it while the planned ones are still recorded on each contact's row.
   */
  waitScale: z.number().min(0).max(1).default(1),
  /** How often due campaigns are started and paused loops looked at (ms). */
  tickEveryMs: z.number().int().min(500).max(60_000).default(5_000),
});

export type CampaignsConfig = z.infer<typeof campaignsConfig>;
