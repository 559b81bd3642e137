import { BaseModel } from '../../db/base.model.js';

export class Setting extends BaseModel {
  static override tableName = 'settings';

  companyId!: number;
  key!: string;
  value!: string;
}
