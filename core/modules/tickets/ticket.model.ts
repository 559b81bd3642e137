import { randomUUID } from 'node:crypto';
import type { TicketStatus } from '../../contract/views.js';
import { BaseModel } from '../../db/base.model.js';
import { Contact } from '../contacts/contact.model.js';
import { Queue } from '../queues/queue.model.js';
import { Tag } from '../tags/tag.model.js';
import { User } from '../users/user.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';

export type { TicketStatus };

export class Ticket extends BaseModel {
  static override tableName = 'tickets';
  static override booleanFields = ['isGroup', 'fromMe', 'chatbot', 'useIntegration'];

  companyId!: number;
  uuid!: string;
  status!: TicketStatus;
  unreadMessages!: number;
  lastMessage!: string;
  isGroup!: boolean;
  /** Direction of the last message (true: sent by the company). */
  fromMe!: boolean;
  userId!: number | null;
  contactId!: number;
  whatsappId!: number | null;
  queueId!: number | null;
  /** Where the customer stands in the queue's options tree while the bot handles the ticket. */
  queueOptionId!: number | null;
  /** True while the chatbot (menu or options tree) handles the ticket. */
  chatbot!: boolean;
  useIntegration!: boolean;
  integrationId!: number | null;
  promptId!: number | null;
  /** How many times the queue menu was sent in this attendance (maxUseBotQueues). */
  amountUsedBotQueues!: number;

  contact?: Contact;
  queue?: Queue | null;
  user?: User | null;
  whatsapp?: Whatsapp | null;
  tags?: Tag[];

  static override get relationMappings() {
    return {
      contact: { relation: BaseModel.BelongsToOneRelation, modelClass: Contact, join: { from: 'tickets.contactId', to: 'contacts.id' } },
      queue: { relation: BaseModel.BelongsToOneRelation, modelClass: Queue, join: { from: 'tickets.queueId', to: 'queues.id' } },
      user: { relation: BaseModel.BelongsToOneRelation, modelClass: User, join: { from: 'tickets.userId', to: 'users.id' } },
      whatsapp: { relation: BaseModel.BelongsToOneRelation, modelClass: Whatsapp, join: { from: 'tickets.whatsappId', to: 'whatsapps.id' } },
      tags: {
        relation: BaseModel.ManyToManyRelation,
        modelClass: Tag,
        join: { from: 'tickets.id', through: { from: 'ticketTags.ticketId', to: 'ticketTags.tagId' }, to: 'tags.id' },
      },
    };
  }
}

/** Who a new ticket belongs to: open and the user's, or pending without one. */
export interface NewTicket {
  companyId: number;
  contactId: number;
  whatsappId: number;
  isGroup: boolean;
  userId: number | null;
  queueId: number | null;
}

/** The columns of a new ticket: no messages yet, no bot or integration attached. */
export function newTicketRow({ companyId, contactId, whatsappId, isGroup, userId, queueId }: NewTicket) {
  return {
    companyId,
    uuid: randomUUID(),
    status: (userId === null ? 'pending' : 'open') as TicketStatus,
    unreadMessages: 0,
    lastMessage: '',
    isGroup,
    fromMe: false,
    userId,
    contactId,
    whatsappId,
    queueId,
    queueOptionId: null,
    chatbot: false,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    amountUsedBotQueues: 0,
  };
}
