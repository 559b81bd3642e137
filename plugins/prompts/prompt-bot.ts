import { Readable } from 'node:stream';
import type OpenAI from 'openai';
import { botHolding, botLetsGo, type BotSessions, type PluginApp, type Turn } from 'atende/plugin';
import { PROMPT_DEFAULTS } from './prompt.contract.js';
import type { Prompt } from './prompt.model.js';
import { PromptSession } from './prompt.model.js';
import type { PromptsConfig } from './prompts-config.js';
import type { PromptsService } from './prompts.service.js';
import { speechEndpoint, synthesize } from './speech.js';

/** The phrase a reply starts with when the customer needs a person (the system prompt asks for it). */
export const TRANSFER_PHRASE = 'Ação: Transferir para o setor de atendimento';
const TRANSFER = /a[çc][ãa]o:\s*transferir\s+para\s+o\s+setor\s+de\s+atendimento[.!:]?/gi;

/** The transcription endpoint's own limit; a longer voice note goes to a person. */
const MAX_VOICE_NOTE_BYTES = 25 * 1024 * 1024;

/** How a spoken answer is named (Ogg/Opus, see speech.ts). */
const VOICE_ANSWER_NAME = 'resposta.ogg';

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
 * useIntegration and promptId) every customer text, and every voice note once transcribed, goes to
 * its server with the conversation so far, and the answer comes back marked as the bot's: as text,
 * or as a voice note with a voice other than 'texto'. The transfer phrase, a failure or a timeout
 * hands the ticket to the prompt's queue; an agent accepting it takes it too (the core clears the
 * hold), and the prompt does not take it back until the ticket is resolved. A failed speech call
 * only costs the voice: the answer goes as text.
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

    // One time budget for the turn's calls (transcription, chat, speech), within the step's own.
    const signal = AbortSignal.any([turn.signal, AbortSignal.timeout(this.app.config.timeoutMs)]);
    let answer: string;
    try {
      const text = await this.heard(turn, prompt, signal);
      if (!text) {
        // Neither text nor a voice note (an image, a document…): a person answers it.
        await this.handOff(turn, prompt);
        return true;
      }
      answer = await this.ask(turn, prompt, text, signal);
    } catch (err) {
      this.app.log.warn({ err, companyId, ticketId: ticket.id, promptId: prompt.id }, 'AI prompt failed: the ticket goes to its queue');
      await this.prompts.failed(prompt, this.reason(err, signal));
      await this.handOff(turn, prompt);
      return true;
    }
    if (TRANSFER.test(answer)) {
      TRANSFER.lastIndex = 0;
      // The answer without the phrase is said before the ticket moves.
      const farewell = answer.replace(TRANSFER, '').trim();
      if (farewell) await this.say(turn, prompt, farewell, signal);
      await this.handOff(turn, prompt);
      return true;
    }
    if (answer) await this.say(turn, prompt, answer, signal);
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

  /** What the customer said: the text, a voice note's transcript (kept on the message), or '' for anything else. */
  private async heard(turn: Turn, prompt: Prompt, signal: AbortSignal): Promise<string> {
    const { message } = turn;
    if (message.mediaType !== 'audio') return message.mediaType ? '' : message.body.trim();
    const audio = await turn.media();
    if (!audio) return '';
    if (audio.size > MAX_VOICE_NOTE_BYTES) {
      audio.stream.destroy();
      throw new Error(`transcription: the voice note is over ${MAX_VOICE_NOTE_BYTES} bytes`);
    }
    let text: string;
    try {
      const client = await this.client(prompt);
      const { toFile } = await import('openai');
      const file = await toFile(audio.stream, audio.name, { type: audio.mime });
      text = (await client.audio.transcriptions.create({ file, model: prompt.transcriptionModel }, { signal })).text.trim();
    } catch (err) {
      throw new Error(`transcription: ${this.reason(err, signal)}`, { cause: err });
    }
    if (text) await turn.transcribed(text);
    return text;
  }

  /**
   * The prompt's OpenAI-compatible server, its URL checked again (the DNS may have changed since it
   * was saved). The client module is loaded by the first call, not by every server start.
   */
  private async client(prompt: Prompt): Promise<OpenAI> {
    const url = await this.app.outgoing.checkUrl(prompt.baseUrl);
    const { default: OpenAIClient } = await import('openai');
    return new OpenAIClient({
      apiKey: this.prompts.key(prompt) || 'none',
      baseURL: url.toString().replace(/\/$/, ''),
      timeout: this.app.config.timeoutMs,
      maxRetries: 0,
    });
  }

  /** One call: system prompt, the last maxMessages texts (ours as assistant), the new text. */
  private async ask(turn: Turn, prompt: Prompt, text: string, signal: AbortSignal): Promise<string> {
    const client = await this.client(prompt);
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
      { signal },
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

  /**
   * The answer in the prompt's voice: text with 'texto', else a voice note saying it. When the
   * speech service fails the customer still gets the text, and the prompt's admins the reason.
   */
  private async say(turn: Turn, prompt: Prompt, text: string, signal: AbortSignal): Promise<void> {
    if (prompt.voice === PROMPT_DEFAULTS.voice) return turn.reply(text);
    let stored: string;
    try {
      const url = await this.app.outgoing.checkUrl(speechEndpoint(prompt));
      const audio = await synthesize({ url, key: this.prompts.voiceKey(prompt), voice: prompt.voice, text, signal });
      stored = (await this.app.services.media.save(turn.companyId, VOICE_ANSWER_NAME, Readable.from(audio))).name;
    } catch (err) {
      this.app.log.warn({ err, companyId: turn.companyId, ticketId: turn.ticket.id, promptId: prompt.id }, 'speech failed: the answer goes as text');
      await this.prompts.failed(prompt, `speech: ${this.reason(err, signal)}`);
      return turn.reply(text);
    }
    await turn.replyVoice({ path: stored, name: VOICE_ANSWER_NAME }, text);
  }

  /** Why a call failed, for the prompt's admins: the turn's time budget running out reads as such. */
  private reason(err: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `no answer within ${this.app.config.timeoutMs} ms (timed out)`;
    return err instanceof Error ? err.message : String(err);
  }

  /** To the prompt's queue for a person, bot off. */
  private async handOff(turn: Turn, prompt: Prompt): Promise<void> {
    await botLetsGo(turn, this.sessions, { queueId: prompt.queueId });
  }
}
