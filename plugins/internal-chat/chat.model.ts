import { BaseModel } from 'atende/plugin';

export class Chat extends BaseModel {
  static override tableName = 'chats';

  companyId!: number;
  uuid!: string;
  title!: string;
  ownerId!: number | null;
  lastMessage!: string;
}

export class ChatUser extends BaseModel {
  static override tableName = 'chat_users';

  chatId!: number;
  userId!: number;
  unreads!: number;
}

export class ChatMessage extends BaseModel {
  static override tableName = 'chat_messages';

  chatId!: number;
  senderId!: number | null;
  message!: string;
}
