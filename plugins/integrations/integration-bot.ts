import { setTimeout as sleep } from 'node:timers/promises';
import { botHolding, botLetsGo, outgoingMediaKind, type BotSessions, type PluginApp, type Turn } from 'atende/plugin';
import { Readable } from 'node:stream';
import type { BotHttp } from './drivers/bot-http.js';
import type { BotActions, ExchangeContext, IntegrationDriver } from './drivers/driver.js';
import type { BotMessage, IntegrationType } from './integration.contract.js';
import type { IntegrationsConfig } from './integrations-config.js';
import type { IntegrationsService } from './integrations.service.js';
import { IntegrationSession, type QueueIntegration } from './queue-integration.model.js';

/** The conversation step's name (`<plugin>.<step>`): the mark of the bot's messages. */
export const STEP_NAME = 'integrations.answer';

/**
 * The conversation step of queue integrations. An integration takes a waiting ticket once per
 * attendance: its connection's while the ticket has no queue, else its queue's. While it holds the
 * ticket (useIntegration, integrationId) every customer message goes to its service and the
 * answer comes back marked as the bot's. A control answer, the service's failure or a timeout
 * hands the ticket to a person (its queue); an agent accepting it takes it too, and the
 * integration does not take it back until the ticket is resolved.
 */
export class IntegrationBot {
  constructor(
    private readonly app: PluginApp<IntegrationsConfig>,
    private readonly integrations: IntegrationsService,
    private readonly drivers: Record<IntegrationType, IntegrationDriver>,
    private readonly http: BotHttp,
  ) {}

  async answer(turn: Turn): Promise<boolean> {
    const { ticket, message, companyId } = turn;
    // Never a group, nor our own messages coming back.
    if (ticket.isGroup || message.fromMe) return false;
    const held = await this.holder(turn);
    if (!held) return false;
    const { integration, session } = held;
    // A message from before the hold began (a late replay): the bot does not answer the past.
    if (message.id < session.firstMessageId) return true;

    let actions: BotActions;
    try {
      actions = await this.drivers[integration.type].reply({
        integration,
        secrets: this.integrations.secretsOf(integration),
        context: await this.context(turn),
        sessionId: session.sessionId,
        lastActivityAt: session.sessionId === null ? null : session.lastActivityAt,
        http: this.http,
        signal: turn.signal,
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.app.log.warn({ err, companyId, ticketId: ticket.id, integrationId: integration.id }, 'integration failed: the ticket goes to a person');
      await this.integrations.failed(integration, reason);
      await botLetsGo(turn, this.sessions(turn), null);
      return true;
    }
    await this.integrations.succeeded(integration);
    await IntegrationSession.query(this.app.db)
      .findById(session.id)
      .patch({ lastActivityAt: new Date().toISOString(), ...(actions.sessionId !== undefined && { sessionId: actions.sessionId }) });
    for (const out of actions.messages) {
      if (actions.delayMs) await sleep(actions.delayMs, undefined, { signal: turn.signal });
      await this.send(turn, integration, out);
    }
    if (actions.close) {
      await botLetsGo(turn, this.sessions(turn), null);
      await turn.close();
    } else if (actions.handoff) {
      await botLetsGo(turn, this.sessions(turn), actions.handoff);
    }
    return true;
  }

  /** Resolving ends the attendance: the next one may be taken by an integration again. */
  async ended(companyId: number, ticketId: number): Promise<void> {
    await IntegrationSession.query(this.app.db).where({ companyId, ticketId }).delete();
  }

  /** The integration holding the ticket (after taking it when one is attached where it stands) and its session. */
  private async holder(turn: Turn): Promise<{ integration: QueueIntegration; session: IntegrationSession } | undefined> {
    const { companyId, ticket } = turn;
    const integrationId = await botHolding(turn, 'integrationId', this.sessions(turn), async (id) => (await this.integrations.forBot(companyId, id)) !== undefined);
    if (integrationId === undefined) return undefined;
    const [integration, session] = await Promise.all([this.integrations.forBot(companyId, integrationId), IntegrationSession.query(this.app.db).findOne({ companyId, ticketId: ticket.id })]);
    return integration && session && { integration, session };
  }

  /** Which tickets an integration held in this attendance (integration_sessions); a hold begins with the turn's message. */
  private sessions(turn: Turn): BotSessions {
    const db = this.app.db;
    return {
      find: async (companyId, ticketId) => {
        const row = await IntegrationSession.query(db).findOne({ companyId, ticketId });
        return row && { botId: row.integrationId, active: row.active };
      },
      start: async (companyId, ticketId, integrationId) => {
        await IntegrationSession.query(db).insert({ companyId, ticketId, integrationId, active: true, sessionId: null, firstMessageId: turn.message.id, lastActivityAt: new Date().toISOString() });
      },
      stop: async (companyId, ticketId) => {
        await IntegrationSession.query(db).where({ companyId, ticketId }).patch({ active: false });
      },
    };
  }

  /** The documented JSON of an exchange (docs/api.md): who, where, and the normalized message. */
  private async context(turn: Turn): Promise<ExchangeContext> {
    const { ticket, contact, message, companyId } = turn;
    const company = await this.app.services.companies.get(companyId);
    const { connection } = await turn.attached();
    return {
      event: 'message',
      company: { id: company.id, name: company.name },
      connection: { id: turn.connectionId, name: connection.name },
      ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId },
      contact: { id: contact.id, name: contact.name, number: contact.number },
      message: { id: message.id, body: message.body, type: message.mediaType ?? 'text', mediaName: message.mediaName, fromMe: false, timestamp: message.createdAt },
    };
  }

  /** A text, or a file fetched from its URL (checked, size-limited) and sent with its caption. */
  private async send(turn: Turn, integration: QueueIntegration, out: BotMessage): Promise<void> {
    if ('text' in out) return turn.reply(out.text);
    let file: { data: Buffer; mime: string; name: string };
    try {
      file = await this.http.media(out.mediaUrl, turn.signal);
    } catch (err) {
      // The customer still gets the link; the admins see why the file did not go.
      await this.integrations.failed(integration, err instanceof Error ? err.message : String(err));
      return turn.reply([out.caption, out.mediaUrl].filter(Boolean).join('\n'));
    }
    const kind = outgoingMediaKind(file.name);
    const saved = await this.app.services.media.save(turn.companyId, file.name, Readable.from(file.data));
    await this.app.services.outbound.enqueue({
      companyId: turn.companyId,
      ticketId: turn.ticket.id,
      body: out.caption ?? '',
      userId: null,
      bot: STEP_NAME,
      media: { path: saved.name, name: file.name, mime: kind.mime === 'application/octet-stream' ? file.mime : kind.mime, type: kind.type },
    });
  }
}
