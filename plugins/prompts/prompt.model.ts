import { BaseModel } from 'atende/plugin';

export class Prompt extends BaseModel {
  static override tableName = 'prompts';

  companyId!: number;
  name!: string;
  prompt!: string;
  baseUrl!: string;
  model!: string;
  /** Sealed (app.secrets); see PromptsService.key. */
  apiKey!: string;
  voice!: string;
  voiceKey!: string;
  voiceRegion!: string;
  /** The speech service's full URL; '' for the region's (speechEndpoint). */
  voiceEndpoint!: string;
  /** The model that transcribes voice notes on the prompt's server. */
  transcriptionModel!: string;
  maxTokens!: number;
  temperature!: number;
  maxMessages!: number;
  queueId!: number | null;
  /** bigint columns: text on PostgreSQL. */
  promptTokens!: number | string;
  completionTokens!: number | string;
  totalTokens!: number | string;
  lastError!: string | null;
  lastErrorAt!: string | null;
}

/** A prompt's hold on a ticket for its current attendance (see the migration). */
export class PromptSession extends BaseModel {
  static override tableName = 'prompt_sessions';
  static override booleanFields = ['active'];

  companyId!: number;
  ticketId!: number;
  promptId!: number;
  active!: boolean;
}
