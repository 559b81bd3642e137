import type { PluginApp } from 'atende/plugin';
import { Campaign } from '../campaigns/campaign.model.js';
import { loadCampaignView, publishCampaign } from '../campaigns/campaign-view.js';

/** At most one frame a second per campaign: a 10,000-contact run does not flood the sockets. */
const THROTTLE_MS = 1000;

/**
 * The live `company-{id}-campaign` frames `{ action: 'update', record }` of status and progress
 * changes (the list's view of the campaign): the first at once, then at most one per second
 * carrying the campaign as it is then.
 */
export class CampaignFrames {
  private readonly waiting = new Map<number, { timer?: NodeJS.Timeout; again: boolean }>();

  constructor(private readonly app: PluginApp) {}

  changed(campaignId: number): void {
    const slot = this.waiting.get(campaignId);
    if (slot) {
      slot.again = true;
      return;
    }
    const entry: { timer?: NodeJS.Timeout; again: boolean } = { again: false };
    this.waiting.set(campaignId, entry);
    void this.publish(campaignId);
    entry.timer = setTimeout(() => this.settle(campaignId), THROTTLE_MS);
    entry.timer.unref();
  }

  /** Shutdown: pending trailing frames are dropped (the page refetches on reconnect). */
  stop(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private settle(campaignId: number): void {
    const entry = this.waiting.get(campaignId);
    this.waiting.delete(campaignId);
    if (entry?.again) this.changed(campaignId);
  }

  private async publish(campaignId: number): Promise<void> {
    try {
      const campaign = await Campaign.query(this.app.db).findById(campaignId).select('companyId');
      const record = campaign && (await loadCampaignView(this.app, campaign.companyId, campaignId));
      if (record) publishCampaign(this.app, 'update', record);
    } catch (err) {
      this.app.log.warn({ err, campaignId }, 'campaign frame not published');
    }
  }
}
