import { BaseModel } from 'atende/plugin';

export class ApiToken extends BaseModel {
  static override tableName = 'messages_api_tokens';

  companyId!: number;
  connectionId!: number;
  tokenHash!: string;
  lastUsedAt!: string | null;
  revokedAt!: string | null;
}

export class ApiRequest extends BaseModel {
  static override tableName = 'messages_api_requests';

  tokenId!: number;
  idempotencyKey!: string;
  answer!: string | null;
}
