import { z } from 'atende/plugin';
import type { CampaignSettingsValues } from './campaign-settings.contract.js';

/** The spec's options (§9). */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
/** Always on, whatever the company adds. */
export const DEFAULT_OPT_OUT_WORDS = ['SAIR', 'PARAR', 'STOP', 'CANCELAR'] as const;
/** Placeholders every message has (spec: {nome}, {numero}, {email}); a custom variable may not take them. */
export const BUILT_IN_VARIABLES = ['nome', 'numero', 'email'] as const;
export const MAX_VARIABLES = 50;
export const MAX_OPT_OUT_WORDS = 50;
export const MAX_DAILY_CAP = 100_000;

export const CAMPAIGN_SETTINGS_DEFAULTS: CampaignSettingsValues = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  optOutWords: [],
  dailyCap: 1000,
};

const oneOf = (options: readonly number[]) =>
  z.number({ error: 'Must be a number' }).refine((value) => options.includes(value), `Must be one of ${options.join(', ')}`);

const variable = z.object({
  key: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(30, 'Too Long!')
    .regex(/^[\p{L}\p{N}_]+$/u, 'Letters, digits and _ only')
    .refine((key) => !(BUILT_IN_VARIABLES as readonly string[]).includes(key.toLowerCase()), 'nome, numero and email are built in'),
  value: z.string({ error: 'Required' }).max(1000, 'Too Long!'),
});

const word = z
  .string({ error: 'Must be text' })
  .trim()
  .min(1, 'Required')
  .max(30, 'Too Long!')
  .regex(/^\S+$/, 'One word, no spaces')
  .transform((w) => w.toUpperCase());

/** Each setting's rule; a save may carry any of them (the others stay). */
export const campaignSettingsShape = {
  messageInterval: oneOf(MESSAGE_INTERVAL_OPTIONS),
  longerIntervalAfter: oneOf(INTERVAL_OPTIONS),
  greaterInterval: oneOf(INTERVAL_OPTIONS),
  variables: z
    .array(variable, { error: 'Must be a list' })
    .max(MAX_VARIABLES, `At most ${MAX_VARIABLES} variables`)
    .refine((list) => new Set(list.map((v) => v.key.toLowerCase())).size === list.length, 'A variable appears twice'),
  optOutWords: z
    .array(word, { error: 'Must be a list' })
    .max(MAX_OPT_OUT_WORDS, `At most ${MAX_OPT_OUT_WORDS} words`)
    // The defaults are always on: they need not be stored; repeats are dropped.
    .transform((words) => [...new Set(words)].filter((w) => !(DEFAULT_OPT_OUT_WORDS as readonly string[]).includes(w))),
  dailyCap: z.number({ error: 'Must be a number' }).int('Must be a whole number').min(1, 'At least 1').max(MAX_DAILY_CAP, `At most ${MAX_DAILY_CAP}`),
};

/** POST /campaign-settings: `{ settings: { messageInterval: 10, ... } }`; the spec's `[{ key, value }]` array is taken too. */
export const saveCampaignSettingsSchema = z.object({
  settings: z.preprocess(
    (value) => (Array.isArray(value) ? Object.fromEntries(value.map((entry: { key?: unknown; value?: unknown }) => [String(entry?.key), entry?.value])) : value),
    z.strictObject(Object.fromEntries(Object.entries(campaignSettingsShape).map(([k, schema]) => [k, schema.optional()])) as {
      [K in keyof typeof campaignSettingsShape]: z.ZodOptional<(typeof campaignSettingsShape)[K]>;
    }, { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown setting: ${issue.keys.join(', ')}` : 'Must be an object') }),
  ),
});

export type SaveCampaignSettingsInput = z.infer<typeof saveCampaignSettingsSchema>;
