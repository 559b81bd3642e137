import { ErrorCode, Events, ForbiddenError, type AppContext, type PluginApp } from 'atende/plugin';

/** How long a company's campaignsEnabled is trusted without reading it again (another process's change). */
const CACHE_MS = 30_000;

/**
 * The company's `campaignsEnabled` setting (core settings, written by super users on the company):
 * read through app.services.settings, cached per company, and dropped at once in this process when
 * the setting changes (`setting.updated`). A change made by another process is seen within 30 s.
 */
export class CampaignsGate {
  private readonly cache = new Map<number, { enabled: boolean; at: number }>();

  constructor(private readonly app: PluginApp) {
    app.events.on(Events.settingUpdated, async (event) => {
      if (event.companyId !== null) this.cache.delete(event.companyId);
    });
  }

  async enabled(companyId: number): Promise<boolean> {
    const cached = this.cache.get(companyId);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.enabled;
    const enabled = (await this.app.services.settings.get(companyId, 'campaignsEnabled')) !== 'false';
    this.cache.set(companyId, { enabled, at: Date.now() });
    return enabled;
  }

  /** Route middleware: 403 ERR_CAMPAIGNS_DISABLED when the company's setting is off (the plan flag is the host's). */
  readonly guard = async (ctx: AppContext, next: () => Promise<unknown>): Promise<void> => {
    if (!(await this.enabled(ctx.state.user.companyId))) {
      throw new ForbiddenError(ErrorCode.ERR_CAMPAIGNS_DISABLED, 'Campaigns are turned off for this company');
    }
    await next();
  };
}
