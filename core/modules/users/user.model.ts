import { BaseModel } from '../../db/base.model.js';
import type { Profile } from '../../auth/auth-user.js';
import { Company } from '../companies/company.model.js';
import { Queue } from '../queues/queue.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';

export class User extends BaseModel {
  static override tableName = 'users';
  static override booleanFields = ['super', 'financial', 'online'];

  companyId!: number;
  name!: string;
  email!: string;
  passwordHash!: string;
  tokenVersion!: number;
  refreshTokenId!: string | null;
  previousRefreshTokenId!: string | null;
  refreshRotatedAt!: string | null;
  profile!: Profile;
  super!: boolean;
  financial!: boolean;
  online!: boolean;
  allTicket!: 'enabled' | 'disabled';
  whatsappId!: number | null;
  company?: Company;
  queues?: Queue[];
  whatsapp?: Whatsapp | null;

  /** Secrets never leave the server, whatever route serialises a user. */
  override $formatJson(json: Record<string, unknown>): Record<string, unknown> {
    const formatted = super.$formatJson(json);
    delete formatted.passwordHash;
    delete formatted.tokenVersion;
    delete formatted.refreshTokenId;
    delete formatted.previousRefreshTokenId;
    delete formatted.refreshRotatedAt;
    return formatted;
  }

  static override get relationMappings() {
    return {
      company: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Company,
        join: { from: 'users.companyId', to: 'companies.id' },
      },
      queues: {
        relation: BaseModel.ManyToManyRelation,
        modelClass: Queue,
        join: {
          from: 'users.id',
          through: { from: 'userQueues.userId', to: 'userQueues.queueId' },
          to: 'queues.id',
        },
      },
      whatsapp: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Whatsapp,
        join: { from: 'users.whatsappId', to: 'whatsapps.id' },
      },
    };
  }
}
