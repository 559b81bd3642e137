import { BufferJSON, type proto, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';
import type { Database } from '../../db/database.js';
import { messageJson } from './normalize.js';

/** Created by migrations/20261122000200_core_baileys.ts. */
export const MESSAGES_TABLE = 'baileys_messages';

export interface MessageStoreLimits {
  /** Messages older than this are pruned. */
  days: number;
  /** At most this many messages are kept per connection. */
  rows: number;
}

/**
 * The messages one connection sent and received, kept a while: when a recipient fails to decrypt
 * a message, Baileys asks `getMessage` for its plaintext to send it again (without it the chat
 * shows "waiting for this message"); replies quote and deletions address messages found here.
 */
export class MessageStore {
  private writesSincePrune = 0;

  constructor(
    private readonly db: Database,
    private readonly whatsappId: number,
    private readonly limits: MessageStoreLimits = { days: 7, rows: 5000 },
  ) {}

  /** Keeps `message` (a repeated id is ignored); prunes now and then. */
  async save(message: WAMessage): Promise<void> {
    const id = message.key.id;
    if (!id || !message.message) return;
    await this.db(MESSAGES_TABLE)
      .insert({
        whatsappId: this.whatsappId,
        messageId: id,
        message: messageJson(message),
        createdAt: new Date().toISOString(),
      })
      .onConflict(['whatsappId', 'messageId'])
      .ignore();
    this.writesSincePrune += 1;
    if (this.writesSincePrune >= 200) await this.prune();
  }

  async find(id: string): Promise<WAMessage | undefined> {
    const row = (await this.db(MESSAGES_TABLE).where({ whatsappId: this.whatsappId, messageId: id }).first('message')) as
      | { message: string }
      | undefined;
    return row ? (JSON.parse(row.message, BufferJSON.reviver) as WAMessage) : undefined;
  }

  /** Baileys' `getMessage`: the content of a stored message. */
  async getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    return key.id ? ((await this.find(key.id))?.message ?? undefined) : undefined;
  }

  /** Drops messages past the age limit, then the oldest beyond the row limit. */
  async prune(): Promise<void> {
    this.writesSincePrune = 0;
    const cutoff = new Date(Date.now() - this.limits.days * 86_400_000).toISOString();
    await this.db(MESSAGES_TABLE).where({ whatsappId: this.whatsappId }).andWhere('createdAt', '<', cutoff).delete();
    const newestDropped = (await this.db(MESSAGES_TABLE)
      .where({ whatsappId: this.whatsappId })
      .orderBy('id', 'desc')
      .offset(this.limits.rows)
      .first('id')) as { id: number } | undefined;
    if (newestDropped) {
      await this.db(MESSAGES_TABLE).where({ whatsappId: this.whatsappId }).andWhere('id', '<=', newestDropped.id).delete();
    }
  }
}
