import { ForbiddenError, isAdmin, type AuthUser, type PluginApp } from 'atende/plugin';
import type { CampaignSettingKey, CampaignSettingsList, CampaignSettingsValues } from './campaign-settings.contract.js';
import { CampaignSetting } from './campaign-setting.model.js';
import { CAMPAIGN_SETTINGS_DEFAULTS, campaignSettingsShape, DEFAULT_OPT_OUT_WORDS, type SaveCampaignSettingsInput } from './campaign-settings.schema.js';

const KEYS = Object.keys(CAMPAIGN_SETTINGS_DEFAULTS) as CampaignSettingKey[];
const WORDS_CACHE_MS = 30_000;

/** A text as opt-out words are compared: trimmed, without accents, upper case ('Sáir ' is 'SAIR'). */
export function optOutKey(text: string): string {
  return text.trim().normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase();
}

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
  /** Each company's opt-out words, read on every inbound text: kept a while, dropped by a save here. */
  private readonly words = new Map<number, { words: Set<string>; at: number }>();

  constructor(private readonly app: PluginApp) {}

  /**
   * Every opt-out word of the company (defaults and its own), as `optOutKey` writes them, cached
   * for WORDS_CACHE_MS: a save in this process is seen at once, one in another process within that.
   */
  async optOutWords(companyId: number): Promise<Set<string>> {
    const cached = this.words.get(companyId);
    if (cached && Date.now() - cached.at < WORDS_CACHE_MS) return cached.words;
    const words = new Set((await this.read(companyId)).optOutWords.map(optOutKey));
    this.words.set(companyId, { words, at: Date.now() });
    return words;
  }

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
    this.words.delete(companyId);
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
