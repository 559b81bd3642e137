import OpenAI from 'openai';
import { botHolding, botLetsGo, type BotSessions, type PluginApp, type Turn } from 'atende/plugin';
import type { Prompt } from './prompt.model.js';
import { PromptSession } from './prompt.model.js';
import type { PromptsConfig } from './prompts-config.js';
import type { PromptsService } from './prompts.service.js';

/** The phrase a reply starts with when the customer needs a person (the system prompt asks for it). */
export const TRANSFER_PHRASE = 'Ação: Transferir para o setor de atendimento';
const TRANSFER = /a[çc][ãa]o:\s*transferir\s+para\s+o\s+setor\s+de\s+atendimento[.!:]?/gi;

/** The customer's first name, letters only, for the system prompt. */
function firstName(name: string): string {
  const first = name.trim().split(/\s+/)[0] ?? '';
  return first.replace(/[^\p{L}\p{M}'-]/gu, '') || 'cliente';
}

/** The instructions every prompt's own text follows (spec: the old product's, in Portuguese). */
export function systemPrompt(prompt: Prompt, customerName: string): string {
  const name = firstName(customerName);
  return [
    `Nas respostas utilize sempre o primeiro nome do cliente: ${name}.`,
    `Responda com no máximo ${prompt.maxTokens} tokens e cuide para não truncar o final.`,
    `Sempre que for preciso transferir para um atendente humano, comece a resposta com '${TRANSFER_PHRASE}'.`,
    '',
    prompt.prompt,
  ].join('\n');
}

/**
 * The conversation step of AI prompts. A prompt takes a waiting ticket once per attendance: its
 * connection's while it has no queue, else its queue's. While it holds the ticket (the ticket's
 * useIntegration and promptId) every customer text goes to its server with the conversation so
 * far, and the answer comes back marked as the bot's. The transfer phrase, a failure or a timeout
 * hands the ticket to the prompt's queue; an agent accepting it takes it too (the core clears the
 * hold), and the prompt does not take it back until the ticket is resolved.
 */
export class PromptBot {
  constructor(
    private readonly app: PluginApp<PromptsConfig>,
    private readonly prompts: PromptsService,
  ) {}

  async answer(turn: Turn): Promise<boolean> {
    const { ticket, message, companyId } = turn;
    // Never a group, nor our own messages coming back.
    if (ticket.isGroup || message.fromMe) return false;
    const prompt = await this.holder(turn);
    if (!prompt) return false;

    const text = message.body.trim();
    if (message.mediaType || !text) {
      // Only text is read (voice notes are not transcribed): a person answers the rest.
      await this.handOff(turn, prompt, null);
      return true;
    }
    let answer: string;
    try {
      answer = await this.ask(turn, prompt, text);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.app.log.warn({ err, companyId, ticketId: ticket.id, promptId: prompt.id }, 'AI prompt failed: the ticket goes to its queue');
      await this.prompts.failed(prompt, reason);
      await this.handOff(turn, prompt, null);
      return true;
    }
    if (TRANSFER.test(answer)) {
      TRANSFER.lastIndex = 0;
      await this.handOff(turn, prompt, answer.replace(TRANSFER, '').trim());
      return true;
    }
    if (answer) await turn.reply(answer);
    return true;
  }

  /** Which tickets a prompt held in this attendance (prompt_sessions). */
  private readonly sessions: BotSessions = {
    find: async (companyId, ticketId) => {
      const row = await PromptSession.query(this.app.db).findOne({ companyId, ticketId });
      return row && { botId: row.promptId, active: row.active };
    },
    start: async (companyId, ticketId, promptId) => {
      await PromptSession.query(this.app.db).insert({ companyId, ticketId, promptId, active: true });
    },
    stop: async (companyId, ticketId) => {
      await PromptSession.query(this.app.db).where({ companyId, ticketId }).patch({ active: false });
    },
  };

  /** Resolving ends the attendance: the next one may be taken by a prompt again. */
  async ended(companyId: number, ticketId: number): Promise<void> {
    await PromptSession.query(this.app.db).where({ companyId, ticketId }).delete();
  }

  /** The prompt holding the ticket, after taking it when one is attached where it stands. */
  private async holder(turn: Turn): Promise<Prompt | undefined> {
    const promptId = await botHolding(turn, 'promptId', this.sessions, async (id) => (await this.prompts.forBot(turn.companyId, id)) !== undefined);
    return promptId === undefined ? undefined : this.prompts.forBot(turn.companyId, promptId);
  }

  /** One call: system prompt, the last maxMessages texts (ours as assistant), the new text. */
  private async ask(turn: Turn, prompt: Prompt, text: string): Promise<string> {
    const url = await this.app.outgoing.checkUrl(prompt.baseUrl);
    const client = new OpenAI({
      apiKey: this.prompts.key(prompt) || 'none',
      baseURL: url.toString().replace(/\/$/, ''),
      timeout: this.app.config.timeoutMs,
      maxRetries: 0,
    });
    const history = await turn.history(prompt.maxMessages);
    const completion = await client.chat.completions.create(
      {
        model: prompt.model,
        messages: [
          { role: 'system', content: systemPrompt(prompt, turn.contact.name) },
          ...history.map((m) => ({ role: m.fromMe ? ('assistant' as const) : ('user' as const), content: m.body })),
          { role: 'user', content: text },
        ],
        max_tokens: prompt.maxTokens,
        temperature: prompt.temperature,
      },
      { signal: turn.signal },
    );
    const usage = completion.usage;
    await this.prompts.used(prompt, {
      promptTokens: usage?.prompt_tokens ?? 0,
      completionTokens: usage?.completion_tokens ?? 0,
      totalTokens: usage?.total_tokens ?? 0,
    });
    const content = completion.choices[0]?.message?.content;
    if (typeof content !== 'string') throw new Error('the server answered no text');
    return content.trim();
  }

  /** To the prompt's queue for a person, bot off; `farewell` (the answer without the phrase) sent first. */
  private async handOff(turn: Turn, prompt: Prompt, farewell: string | null): Promise<void> {
    if (farewell) await turn.reply(farewell);
    await botLetsGo(turn, this.sessions, { queueId: prompt.queueId });
  }
}
