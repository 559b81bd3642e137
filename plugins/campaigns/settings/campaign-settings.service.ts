import { ForbiddenError, isAdmin, type AuthUser, type PluginApp } from 'atende/plugin';
import type { CampaignSettingKey, CampaignSettingsList, CampaignSettingsValues } from './campaign-settings.contract.js';
import { CampaignSetting } from './campaign-setting.model.js';
import { CAMPAIGN_SETTINGS_DEFAULTS, campaignSettingsShape, DEFAULT_OPT_OUT_WORDS, type SaveCampaignSettingsInput } from './campaign-settings.schema.js';

const KEYS = Object.keys(CAMPAIGN_SETTINGS_DEFAULTS) as CampaignSettingKey[];

/** What the dispatch reads: the company's choices with the defaults filled in, opt-out words complete. */
export interface CampaignSettings extends CampaignSettingsValues {
  /** Every word that opts a customer out: the defaults (SAIR, PARAR, STOP, CANCELAR) and the company's. */
  optOutWords: string[];
  /** The company's own words only, as stored. */
  companyOptOutWords: string[];
}

/**
 * Campaign settings of a company (spec §3: key/value rows whose values are JSON). A key never
 * saved reads as its default; a stored value that no longer passes its rule (an option removed
 * later) reads as the default too, so the dispatch always gets values it can use.
 */
export class CampaignSettingsService {
  constructor(private readonly app: PluginApp) {}

  /** The typed read for the dispatch and the opt-out handling. */
  async read(companyId: number): Promise<CampaignSettings> {
    const values = await this.values(companyId);
    return { ...values, optOutWords: [...DEFAULT_OPT_OUT_WORDS, ...values.optOutWords], companyOptOutWords: values.optOutWords };
  }

  /** GET /campaign-settings: the spec's array of key and value. */
  async list(actor: AuthUser): Promise<CampaignSettingsList> {
    return toList(await this.values(actor.companyId));
  }

  /** POST /campaign-settings (admins): the given keys stored in one transaction; answers them all. */
  async save(actor: AuthUser, input: SaveCampaignSettingsInput): Promise<CampaignSettingsList> {
    if (!isAdmin(actor)) throw new ForbiddenError();
    const companyId = actor.companyId;
    const given = Object.entries(input.settings).filter(([, value]) => value !== undefined) as [CampaignSettingKey, unknown][];
    await this.app.db.transaction(async (trx) => {
      const now = new Date().toISOString();
      for (const [key, value] of given) {
        const row = { companyId, key, value: JSON.stringify(value), createdAt: now, updatedAt: now };
        await trx(CampaignSetting.tableName).insert(row).onConflict(['companyId', 'key']).merge(['value', 'updatedAt']);
      }
    });
    const settings = toList(await this.values(companyId));
    this.app.realtime.publish(companyId, `company-${companyId}-campaignSettings`, { action: 'update', settings });
    return settings;
  }

  private async values(companyId: number): Promise<CampaignSettingsValues> {
    const rows = await CampaignSetting.query(this.app.db).where('companyId', companyId);
    const values: Record<string, unknown> = { ...CAMPAIGN_SETTINGS_DEFAULTS };
    for (const row of rows) {
      const key = row.key as CampaignSettingKey;
      if (!(key in campaignSettingsShape)) continue;
      try {
        const parsed = campaignSettingsShape[key].safeParse(JSON.parse(row.value));
        if (parsed.success) values[key] = parsed.data;
      } catch {
        this.app.log.warn({ companyId, key }, 'campaign setting is not JSON; its default is used');
      }
    }
    return values as unknown as CampaignSettingsValues;
  }
}

function toList(values: CampaignSettingsValues): CampaignSettingsList {
  return KEYS.map((key) => ({ key, value: values[key] })) as CampaignSettingsList;
}
