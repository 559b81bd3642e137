import { id, pageNumberQuery, required, z } from 'atende/plugin';
import { INTEGRATION_DEFAULTS, INTEGRATION_LANGUAGES, INTEGRATION_TYPES } from './integration.contract.js';

const type = z.enum(INTEGRATION_TYPES, { error: 'Unknown type: dialogflow, n8n, webhook or typebot' });
/** Spec §5: name 2–50, required. */
const name = z.string({ error: required('Obrigatório') }).trim().min(2, 'Too Short!').max(50, 'Too Long!');
const text = (max: number) => z.preprocess((v) => (v === null ? '' : v), z.string({ error: 'Must be text' }).trim().max(max, 'Too Long!'));
const url = z.preprocess(
  (v) => (v === null ? '' : v),
  z.union([z.literal(''), z.string({ error: 'Must be text' }).trim().max(500, 'Too Long!').pipe(z.url({ protocol: /^https?$/, error: 'Must be an http or https URL' }))]),
);
const whole = (min: number, max: number) => z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(min, `Must be ${min} or more`).max(max, `Must be ${max} or less`);

const fields = {
  type,
  name,
  projectName: text(200),
  /** dialogflow's service-account JSON; the masked value the API showed means "unchanged". */
  jsonContent: text(20_000),
  language: z.enum(INTEGRATION_LANGUAGES, { error: 'Unknown language: pt-BR, en or es' }),
  urlN8N: url,
  typebotSlug: text(200),
  typebotExpires: whole(0, 10_080),
  typebotKeywordFinish: text(100),
  typebotKeywordRestart: text(100),
  typebotUnknownMessage: text(5000),
  typebotDelayMessage: whole(0, 20_000),
  typebotRestartMessage: text(5000),
};

const optionalFields = z.object(fields).partial();
type Fields = Required<z.infer<typeof optionalFields>>;

/** The type's required fields (spec §5): urlN8N for n8n, webhook and typebot (its server), typebotSlug for typebot. */
export function typeRules(value: Partial<Fields>, ctx: z.RefinementCtx): void {
  const need = (field: 'urlN8N' | 'typebotSlug') => {
    if (!value[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'Obrigatório' });
  };
  if (value.type === 'n8n' || value.type === 'webhook' || value.type === 'typebot') need('urlN8N');
  if (value.type === 'typebot') need('typebotSlug');
}

/** The type's rules over a whole record: an update is checked merged with what is stored. */
export const typeRulesSchema = optionalFields.superRefine(typeRules);

/** POST /queueIntegration. */
export const createIntegrationSchema = z
  .object({
    ...fields,
    projectName: fields.projectName.default(''),
    jsonContent: fields.jsonContent.default(''),
    language: fields.language.default(INTEGRATION_DEFAULTS.language),
    urlN8N: fields.urlN8N.default(''),
    typebotSlug: fields.typebotSlug.default(''),
    typebotExpires: fields.typebotExpires.default(INTEGRATION_DEFAULTS.typebotExpires),
    typebotKeywordFinish: fields.typebotKeywordFinish.default(''),
    typebotKeywordRestart: fields.typebotKeywordRestart.default(''),
    typebotUnknownMessage: fields.typebotUnknownMessage.default(''),
    typebotDelayMessage: fields.typebotDelayMessage.default(INTEGRATION_DEFAULTS.typebotDelayMessage),
    typebotRestartMessage: fields.typebotRestartMessage.default(''),
  })
  .superRefine(typeRules);

/** PUT /queueIntegration/:id: each field optional (the type's rules apply to the merged record); `newWebhookSecret` makes another key. */
export const updateIntegrationSchema = optionalFields.extend({
  newWebhookSecret: z.boolean({ error: 'Must be true or false' }).optional(),
});

/** POST /queueIntegration/testSession: the dialog's values, or `id` for a stored integration (its secrets kept). */
export const testSessionSchema = optionalFields.extend({
  id: id.optional(),
});

/** GET /queueIntegration?searchParam&pageNumber. */
export const listIntegrationsQuery = z.object({
  searchParam: z.string({ error: 'Must be text' }).trim().max(200, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
});

export type CreateIntegrationInput = z.infer<typeof createIntegrationSchema>;
export type IntegrationFields = z.infer<typeof optionalFields>;
export type UpdateIntegrationInput = z.infer<typeof updateIntegrationSchema>;
export type TestSessionInput = z.infer<typeof testSessionSchema>;
