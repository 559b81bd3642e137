import { BaseModel } from 'atende/plugin';

export class CompanyApiToken extends BaseModel {
  static override tableName = 'api_tokens';

  companyId!: number;
  userId!: number;
  name!: string;
  scopes!: string;
  tokenHash!: string;
  hint!: string;
  lastUsedAt!: string | null;
  revokedAt!: string | null;
}
