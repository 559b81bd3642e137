import { AppError, canonicalNumber, ConflictError, displayFileName, ErrorCode, outgoingMediaKind, ValidationError, type OutgoingMessage, type PluginApp, type UploadedFile } from 'atende/plugin';
import type { Knex } from 'knex';
import { ApiRequest } from './api-token.model.js';
import type { TokenHolder } from './api-tokens.service.js';
import type { SendAnswer } from './messages-api.contract.js';
import type { SendInput } from './send.schema.js';

/** How long an Idempotency-Key's answer is kept and replayed. */
const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;

/**
 * POST /api/messages/send (spec §7): a text or files to a number, through the token's connection
 * only. The contact and ticket are written and the messages queued on the durable send queue in
 * one transaction, so a message is sent once even across a restart; a retried request with the
 * same Idempotency-Key answers the first answer and sends nothing.
 */
export class SendService {
  constructor(private readonly app: PluginApp) {}

  async send(holder: TokenHolder, input: SendInput, files: UploadedFile[], key?: string): Promise<SendAnswer> {
    const body = input.body.trim() ? input.body : '';
    if (!body && files.length === 0) throw new ValidationError('body: Obrigatório');
    if (key !== undefined) {
      const replay = await this.replay(holder.tokenId, key);
      if (replay) return replay;
    }
    const number = await this.checkedNumber(holder, canonicalNumber(input.number));
    const stored = await this.store(holder.companyId, files);
    let answer: SendAnswer;
    try {
      answer = await this.app.db.transaction(async (trx) => {
        const claim = key === undefined ? undefined : await this.claim(trx, holder.tokenId, key);
        const { companyId, connectionId } = holder;
        const contact = await this.app.services.contacts.contactForNumber(trx, companyId, number, connectionId);
        const ticket = await this.app.services.tickets.ticketForOutgoing(trx, companyId, contact.id, null, connectionId);
        const messages: OutgoingMessage[] =
          stored.length === 0
            ? [{ companyId, ticketId: ticket.id, body }]
            : stored.map((media, index) => ({ companyId, ticketId: ticket.id, body: index === 0 ? body : '', media }));
        const messageIds: number[] = [];
        for (const message of messages) messageIds.push((await this.app.services.outbound.enqueue(message, trx)).id);
        const result = { ticketId: ticket.id, messageIds };
        if (claim !== undefined) await ApiRequest.query(trx).findById(claim).patch({ answer: JSON.stringify(result) });
        return result;
      });
    } catch (err) {
      // No message owns the files: they go with the failed write.
      await Promise.all(stored.map((m) => this.app.services.media.remove(holder.companyId, m.path).catch(() => undefined)));
      if (key !== undefined && isUniqueViolation(err)) return (await this.replay(holder.tokenId, key)) ?? inProgress();
      throw err;
    }
    if (input.closeTicket) await this.app.services.tickets.closeTicket(holder.companyId, answer.ticketId);
    else await this.app.services.tickets.publish(holder.companyId, answer.ticketId);
    return answer;
  }

  /** Old answers are forgotten after IDEMPOTENCY_MS. */
  async sweep(): Promise<void> {
    await ApiRequest.query(this.app.db).delete().where('createdAt', '<', new Date(Date.now() - IDEMPOTENCY_MS).toISOString());
  }

  private async replay(tokenId: number, key: string): Promise<SendAnswer | undefined> {
    const since = new Date(Date.now() - IDEMPOTENCY_MS).toISOString();
    const row = await ApiRequest.query(this.app.db).findOne({ tokenId, idempotencyKey: key });
    if (!row) return undefined;
    if (row.createdAt < since) {
      await ApiRequest.query(this.app.db).deleteById(row.id);
      return undefined;
    }
    if (row.answer === null) return inProgress();
    return JSON.parse(row.answer) as SendAnswer;
  }

  /** The key taken for this request inside its transaction: a second request with it waits for the first, then replays it. */
  private async claim(trx: Knex.Transaction, tokenId: number, key: string): Promise<number> {
    return (await ApiRequest.query(trx).insert({ tokenId, idempotencyKey: key, answer: null })).id;
  }

  /** The number as WhatsApp knows it, asked of the token's own connection. */
  private async checkedNumber(holder: TokenHolder, number: string): Promise<string> {
    const answers = await this.app.services.contacts.checkWhatsappNumbers(holder.companyId, [number], holder.connectionId);
    if (!answers) throw new AppError(ErrorCode.ERR_WAPP_NOT_INITIALIZED, 400, "The token's connection is not connected to WhatsApp");
    const [canonical] = answers;
    if (!canonical) throw new AppError(ErrorCode.ERR_WAPP_INVALID_CONTACT, 400, 'This is not a valid WhatsApp number');
    return canonical;
  }

  private async store(companyId: number, files: UploadedFile[]): Promise<NonNullable<OutgoingMessage['media']>[]> {
    const stored: NonNullable<OutgoingMessage['media']>[] = [];
    for (const file of files) {
      const saved = await this.app.services.media.save(companyId, file.name, file);
      const { mime, type } = outgoingMediaKind(file.name);
      stored.push({ path: saved.name, name: displayFileName(file.name), mime, type });
    }
    return stored;
  }
}

function inProgress(): never {
  throw new ConflictError(ErrorCode.ERR_IDEMPOTENCY_IN_PROGRESS, 'A request with this Idempotency-Key is still being handled');
}

function isUniqueViolation(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || (message ?? '').includes('UNIQUE constraint failed');
}
