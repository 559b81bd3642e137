import { z } from 'atende/plugin';

/** pluginConfig.prompts (ATENDE_PLUGIN_PROMPTS_TIMEOUT_MS): the time all the calls of one message share (transcription, chat, speech); keep it under the server's stepTimeoutMs, so a slow server still hands the ticket over. */
export const promptsConfig = z.object({
  timeoutMs: z.coerce.number().int().min(100).max(600_000).default(20_000),
});

export type PromptsConfig = z.infer<typeof promptsConfig>;
