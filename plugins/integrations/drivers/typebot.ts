import type { BotMessage } from '../integration.contract.js';
import { jsonOf, ServiceError, type HttpAnswer } from './bot-http.js';
import type { BotActions, Exchange, IntegrationDriver } from './driver.js';

/** Typebot v6's rich text: Slate elements whose leaves carry marks. */
interface RichNode {
  type?: string;
  text?: string;
  url?: string;
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  children?: RichNode[];
}

interface TypebotMessage {
  type: string;
  content?: { type?: string; richText?: RichNode[]; markdown?: string; url?: string };
}

/** startChat and continueChat answers (the parts used). */
interface ChatAnswer {
  sessionId?: string;
  messages?: TypebotMessage[];
  input?: { type: string; items?: { content?: string }[] };
}

function leaf(node: RichNode): string {
  let text = node.text ?? '';
  if (!text.trim()) return text;
  if (node.bold) text = `*${text}*`;
  if (node.italic) text = `_${text}_`;
  if (node.strikethrough) text = `~${text}~`;
  return text;
}

function inline(node: RichNode): string {
  if (node.text !== undefined) return leaf(node);
  const inner = (node.children ?? []).map(inline).join('');
  if (node.type === 'a' && node.url && node.url !== inner) return inner ? `${inner} (${node.url})` : node.url;
  return inner;
}

/** Typebot's rich text in WhatsApp's formatting: *bold*, _italic_, ~strike~, one line per block. */
export function whatsappText(richText: RichNode[]): string {
  return richText.map(inline).join('\n').trim();
}

/** `#{"queueId":2}`: a text of the flow that steers the ticket instead of reaching the customer. */
function control(text: string): BotActions['handoff'] | undefined {
  if (!text.startsWith('#')) return undefined;
  try {
    const parsed = JSON.parse(text.slice(1)) as { stopBot?: unknown; queueId?: unknown; userId?: unknown };
    const id = (value: unknown) => (Number.isInteger(value) && (value as number) > 0 ? (value as number) : null);
    if (parsed.stopBot === true) return {};
    if (id(parsed.queueId)) return { queueId: id(parsed.queueId), userId: id(parsed.userId) };
  } catch {
    // Not a control message: a text that starts with '#'.
  }
  return undefined;
}

/** Idle longer than typebotExpires minutes: the flow starts over. */
function expired({ lastActivityAt, integration }: Exchange): boolean {
  return lastActivityAt !== null && integration.typebotExpires > 0 && Date.now() - Date.parse(lastActivityAt) > integration.typebotExpires * 60_000;
}

const same = (a: string, b: string) => a.trim().localeCompare(b.trim(), undefined, { sensitivity: 'base' }) === 0;

/**
 * Typebot (v6 API): a session per ticket started with the contact's number and name as prefilled
 * variables, continued with each message; it expires after `typebotExpires` idle minutes. The
 * finish keyword resolves the ticket, the restart keyword starts the flow over.
 */
export class TypebotDriver implements IntegrationDriver {
  async reply(exchange: Exchange): Promise<BotActions> {
    const { integration, context } = exchange;
    const text = context.message.body.trim();
    if (integration.typebotKeywordFinish && same(text, integration.typebotKeywordFinish)) return { messages: [], close: true, sessionId: null };
    if (integration.typebotKeywordRestart && same(text, integration.typebotKeywordRestart)) {
      const restarted = await this.start(exchange);
      const notice: BotMessage[] = integration.typebotRestartMessage ? [{ text: integration.typebotRestartMessage }] : [];
      return { ...restarted, messages: [...notice, ...restarted.messages] };
    }
    if (exchange.sessionId === null || expired(exchange)) return this.start(exchange);
    try {
      const answer = await this.call(exchange, `/api/v1/sessions/${encodeURIComponent(exchange.sessionId)}/continueChat`, {
        message: { type: 'text', text },
        textBubbleContentFormat: 'richText',
      });
      return this.actions(exchange, answer, true);
    } catch (err) {
      // A session the server no longer has (finished flow, server restarted): start over.
      if (err instanceof ServiceError && (err.status === 404 || err.status === 400)) return this.start(exchange);
      throw err;
    }
  }

  private async start(exchange: Exchange): Promise<BotActions> {
    const { context, integration } = exchange;
    const answer = await this.call(exchange, `/api/v1/typebots/${encodeURIComponent(integration.typebotSlug)}/startChat`, {
      isStreamEnabled: false,
      textBubbleContentFormat: 'richText',
      prefilledVariables: { number: context.contact.number, name: context.contact.name, pushName: context.contact.name },
    });
    if (typeof answer.sessionId !== 'string' || !answer.sessionId) throw new ServiceError('typebot started no session (no sessionId in its answer)');
    return { ...this.actions(exchange, answer, false), sessionId: answer.sessionId };
  }

  private async call(exchange: Exchange, path: string, body: unknown): Promise<ChatAnswer> {
    const base = exchange.integration.urlN8n.replace(/\/+$/, '');
    const answer: HttpAnswer = await exchange.http.post(`${base}${path}`, JSON.stringify(body), {}, exchange.signal);
    const parsed = jsonOf(answer, 'typebot');
    if (!parsed || typeof parsed !== 'object') throw new ServiceError('typebot answered something that is not an object');
    return parsed as ChatAnswer;
  }

  /** The flow's bubbles as messages; control texts steer the ticket; a reply with nothing to say gets the unknown-input message. */
  private actions(exchange: Exchange, answer: ChatAnswer, replying: boolean): BotActions {
    const messages: BotMessage[] = [];
    let handoff: BotActions['handoff'];
    for (const bubble of answer.messages ?? []) {
      if (bubble.type === 'text') {
        const text = bubble.content?.richText ? whatsappText(bubble.content.richText) : (bubble.content?.markdown ?? '').trim();
        const steer = control(text);
        if (steer) handoff = steer;
        else if (text) messages.push({ text });
      } else if ((bubble.type === 'image' || bubble.type === 'audio' || bubble.type === 'video') && bubble.content?.url) {
        messages.push({ mediaUrl: bubble.content.url });
      }
    }
    const choices = answer.input?.type === 'choice input' ? (answer.input.items ?? []).map((item) => item.content?.trim()).filter(Boolean) : [];
    if (choices.length > 0) messages.push({ text: choices.map((choice) => `▶️ ${choice}`).join('\n') });
    const unknown = exchange.integration.typebotUnknownMessage;
    if (replying && messages.length === 0 && !handoff && unknown) messages.push({ text: unknown });
    return { messages, delayMs: exchange.integration.typebotDelayMessage, ...(handoff && { handoff }) };
  }
}
