import { ConflictError, ErrorCode, NotFoundError, type AuthUser, type PluginApp } from 'atende/plugin';
import { assertAdmin } from '../assert-admin.js';
import { Campaign } from '../campaigns/campaign.model.js';
import type { CampaignSettingsService } from '../settings/campaign-settings.service.js';
import { campaignReport } from './campaign-report.js';
import type { CampaignReport } from './dispatch.contract.js';
import type { Dispatcher } from './dispatcher.js';

/** The dispatch's calls: cancel and restart (admins), the report (every user), for the caller's company only (another's id is 404). */
export class DispatchService {
  constructor(
    private readonly app: PluginApp,
    private readonly dispatcher: Dispatcher,
    private readonly settings: CampaignSettingsService,
  ) {}

  /** POST /campaigns/:id/cancel: PROGRAMADA or EM_ANDAMENTO → CANCELADA; answers once no message of it can leave. */
  async cancel(actor: AuthUser, id: number): Promise<Campaign> {
    const campaign = await this.find(actor, id);
    assertAdmin(actor);
    if ((await this.dispatcher.cancel(campaign)) === 0) throw this.wrongStatus(await this.find(actor, id), 'Only a scheduled or running campaign can be cancelled');
    return this.find(actor, id);
  }

  /** POST /campaigns/:id/restart: CANCELADA → EM_ANDAMENTO, going on with the contacts not sent yet. */
  async restart(actor: AuthUser, id: number): Promise<Campaign> {
    const campaign = await this.find(actor, id);
    assertAdmin(actor);
    if (campaign.status !== 'CANCELADA' || !(await this.dispatcher.restart(campaign))) {
      throw this.wrongStatus(await this.find(actor, id), 'Only a cancelled campaign can be restarted');
    }
    return this.find(actor, id);
  }

  /** GET /campaigns/:id/report */
  async report(actor: AuthUser, id: number): Promise<CampaignReport> {
    const campaign = await this.find(actor, id);
    return campaignReport(this.app, campaign, await this.settings.read(campaign.companyId));
  }

  private async find(actor: AuthUser, id: number): Promise<Campaign> {
    const campaign = await Campaign.query(this.app.db).findOne({ id, companyId: actor.companyId });
    if (!campaign) throw new NotFoundError(ErrorCode.ERR_NO_CAMPAIGN_FOUND);
    return campaign;
  }

  private wrongStatus(campaign: Campaign, message: string): ConflictError {
    return new ConflictError(ErrorCode.ERR_CAMPAIGN_STATUS, `${message} (it is ${campaign.status})`);
  }
}
