import { BaseModel } from '../../db/base.model.js';
import type { ConnectionStatus, Provider } from '../../contract/views.js';
import { Queue } from '../queues/queue.model.js';

export class Whatsapp extends BaseModel {
  static override tableName = 'whatsapps';
  static override booleanFields = ['isDefault'];

  companyId!: number;
  name!: string;
  provider!: Provider;
  status!: ConnectionStatus;
  qrcode!: string;
  retries!: number;
  number!: string;
  isDefault!: boolean;
  greetingMessage!: string;
  complationMessage!: string;
  outOfHoursMessage!: string;
  ratingMessage!: string;
  expiresInactiveMessage!: string;
  expiresTicket!: number;
  timeUseBotQueues!: number;
  maxUseBotQueues!: number;
  timeToTransfer!: number | null;
  transferQueueId!: number | null;
  promptId!: number | null;
  integrationId!: number | null;
  token!: string | null;
  queues?: Queue[];

  static override get relationMappings() {
    return {
      queues: {
        relation: BaseModel.ManyToManyRelation,
        modelClass: Queue,
        join: {
          from: 'whatsapps.id',
          through: { from: 'whatsappQueues.whatsappId', to: 'whatsappQueues.queueId' },
          to: 'queues.id',
        },
      },
    };
  }
}
