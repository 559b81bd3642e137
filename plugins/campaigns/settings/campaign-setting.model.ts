import { BaseModel } from 'atende/plugin';

export class CampaignSetting extends BaseModel {
  static override tableName = 'campaign_settings';

  companyId!: number;
  key!: string;
  /** JSON text. */
  value!: string;
}
