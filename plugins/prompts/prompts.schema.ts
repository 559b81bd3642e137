import { id, required, z } from 'atende/plugin';
import { PROMPT_DEFAULTS, PROMPT_VOICES } from './prompt.contract.js';
import { SPEECH_REGION } from './speech.js';

const name = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').max(100, 'Too Long!');
const prompt = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').max(20_000, 'Too Long!');
/** The spec's one check at submit (§5): a prompt hands customers to a queue, so it needs one. */
const queueId = z.preprocess(
  (value) => (value === '' ? null : value),
  z.number({ error: required('Informe o setor') }).pipe(id),
);
const baseUrl = z.string({ error: 'Must be text' }).trim().max(500, 'Too Long!').pipe(z.url({ protocol: /^https?$/, error: 'Must be an http or https URL' }));
const model = z.string({ error: 'Must be text' }).trim().min(1, 'Obrigatório').max(100, 'Too Long!');
/** A key as typed; the masked value the API showed (`••••abcd`) means "unchanged". */
const secret = z.string({ error: 'Must be text' }).trim().max(1000, 'Too Long!');
const whole = (min: number, max: number) => z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(min, `Must be ${min} or more`).max(max, `Must be ${max} or less`);
const temperature = z.coerce.number({ error: 'Must be a number' }).min(0, 'Must be 0 or more').max(2, 'Must be 2 or less');
const voice = z.enum(PROMPT_VOICES, { error: 'Unknown voice' });
/** Part of the speech service's host name: letters and digits only. */
const voiceRegion = z
  .string({ error: 'Must be text' })
  .trim()
  .toLowerCase()
  .regex(SPEECH_REGION, 'Must be a region name: letters and digits (e.g. brazilsouth)');
/** '' for the region's endpoint. */
const voiceEndpoint = z.union([z.literal(''), baseUrl], { error: 'Must be an http or https URL' });

const fields = {
  name,
  prompt,
  queueId,
  baseUrl: baseUrl.default(PROMPT_DEFAULTS.baseUrl),
  model: model.default(PROMPT_DEFAULTS.model),
  apiKey: secret.default(''),
  voice: voice.default(PROMPT_DEFAULTS.voice),
  voiceKey: secret.default(''),
  voiceRegion: voiceRegion.default(''),
  voiceEndpoint: voiceEndpoint.default(''),
  transcriptionModel: model.default(PROMPT_DEFAULTS.transcriptionModel),
  maxTokens: whole(1, 100_000).default(PROMPT_DEFAULTS.maxTokens),
  temperature: temperature.default(PROMPT_DEFAULTS.temperature),
  maxMessages: whole(0, 100).default(PROMPT_DEFAULTS.maxMessages),
};

/** POST /prompt: the spec's fields (§3) plus baseUrl and model; queueId required ('Informe o setor'). */
export const createPromptSchema = z.object(fields);

/** PUT /prompt/:id: the same, each optional; the queue stays required once given. */
export const updatePromptSchema = z.object({
  name: name.optional(),
  prompt: prompt.optional(),
  queueId: queueId.optional(),
  baseUrl: baseUrl.optional(),
  model: model.optional(),
  apiKey: secret.optional(),
  voice: voice.optional(),
  voiceKey: secret.optional(),
  voiceRegion: voiceRegion.optional(),
  voiceEndpoint: voiceEndpoint.optional(),
  transcriptionModel: model.optional(),
  maxTokens: whole(1, 100_000).optional(),
  temperature: temperature.optional(),
  maxMessages: whole(0, 100).optional(),
});

export type CreatePromptInput = z.infer<typeof createPromptSchema>;
export type UpdatePromptInput = z.infer<typeof updatePromptSchema>;
