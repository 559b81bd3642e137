/**
 * The prompts API's answers, declared once for the server and the plugin's pages (which import
 * them as types). No imports, so a page pulls in nothing of the server.
 */

/** A prompt as the API and the live events show it; the keys only masked (`••••abcd`). */
export interface PromptView {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  /** The speech service's full URL, when not the region's. */
  voiceEndpoint: string;
  /** The model that transcribes customers' voice notes, on the same server as `model`. */
  transcriptionModel: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Why the last call to the server failed (the ticket went to the queue), and when; null once one succeeds. */
  lastError: string | null;
  lastErrorAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /prompt. */
export interface PromptList {
  prompts: PromptView[];
}

/** DELETE /prompt/:id: shown as an info toast (spec). */
export interface PromptDeleted {
  message: string;
}

/** The frames of company-{id}-prompt. */
export type PromptEvent = { action: 'create' | 'update'; prompt: PromptView } | { action: 'delete'; promptId: number };

/** The voices of spec §9: 'texto' answers in text; the others name neural pt-BR voices. */
export const PROMPT_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;

/** Defaults of spec §9, and the server and model a new prompt starts with. */
export const PROMPT_DEFAULTS = {
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  voice: 'texto',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  transcriptionModel: 'whisper-1',
} as const;
