import { BaseModel } from '../../db/base.model.js';
import { User } from '../users/user.model.js';
import type { MediaType, MessageLocation, SendStatus } from '../../contract/views.js';

export type { MessageLocation, SendStatus };

export class Message extends BaseModel {
  static override tableName = 'messages';
  static override booleanFields = ['fromMe', 'read', 'isDeleted', 'isEdited'];
  static override get jsonAttributes(): string[] {
    return ['location'];
  }

  companyId!: number;
  /** The provider's message id; chosen by Atende before sending, so a retried send keeps it. */
  wid!: string;
  ticketId!: number;
  contactId!: number | null;
  queueId!: number | null;
  /** The agent who wrote it (null for customers, the phone, automatic messages and API tokens). */
  userId!: number | null;
  /** The company API token that wrote it, and its name then (null otherwise). */
  apiTokenId!: number | null;
  apiTokenName!: string | null;
  body!: string;
  fromMe!: boolean;
  /** The conversation step (a bot) that wrote it, `prompts.answer`; null otherwise. */
  bot!: string | null;
  read!: boolean;
  /** 0 waiting, 1 sent (single tick), 2 delivered, 3 read, 4–5 played (blue). */
  ack!: number;
  mediaType!: MediaType | null;
  /** The stored file's name (MediaStorage), served at /api/media/:file. */
  mediaPath!: string | null;
  mediaName!: string | null;
  mediaMime!: string | null;
  /** What a voice note says (a transcription, or the text a bot's voice answer was spoken from); null otherwise. */
  transcript!: string | null;
  location!: MessageLocation | null;
  vcard!: string | null;
  isDeleted!: boolean;
  isEdited!: boolean;
  quotedMsgId!: number | null;
  remoteJid!: string | null;
  participant!: string | null;
  /** Inbound: the provider's raw message. Outgoing: how to send it (`{ ptt: true }` for a voice note). */
  dataJson!: string | null;
  sendStatus!: SendStatus;
  sendError!: string | null;
  sendAttempts!: number;

  quotedMsg?: Message | null;
  /** The agent who wrote it, id and name only (loadMessage): the actor of message.created. */
  author?: Pick<User, 'id' | 'name'> | null;

  static override get relationMappings() {
    return {
      quotedMsg: { relation: BaseModel.BelongsToOneRelation, modelClass: Message, join: { from: 'messages.quotedMsgId', to: 'messages.id' } },
      author: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: User,
        join: { from: 'messages.userId', to: 'users.id' },
        modify: (q: { select(...columns: string[]): unknown }) => q.select('users.id', 'users.name'),
      },
    };
  }
}
