import { BaseModel } from 'atende/plugin';

/** A number that asked for no more campaigns (spec addition: the company's opt-out list). */
export class OptOut extends BaseModel {
  static override tableName = 'campaign_opt_outs';

  companyId!: number;
  number!: string;
  word!: string | null;
  campaignId!: number | null;
}
