import { z } from 'zod';

const onOff = z.enum(['enabled', 'disabled']);

/** A zone the runtime knows (America/Sao_Paulo, UTC, Etc/GMT+3, …), answered in its canonical spelling. */
const timeZone = z.string().transform((value, ctx) => {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone such as America/Sao_Paulo' });
    return z.NEVER;
  }
});

/**
 * Every company setting: its allowed values and its default (spec core §3, DESIGN §3). The one
 * table the service, the routes and the tests read; a company gets one row per key when created.
 */
export const SETTINGS = {
  userRating: { schema: onOff, default: 'disabled' },
  scheduleType: { schema: z.enum(['disabled', 'queue', 'company']), default: 'disabled' },
  call: { schema: onOff, default: 'enabled' },
  CheckMsgIsGroup: { schema: onOff, default: 'enabled' },
  sendGreetingAccepted: { schema: onOff, default: 'disabled' },
  sendMsgTransfTicket: { schema: onOff, default: 'disabled' },
  sendGreetingMessageOneQueues: { schema: onOff, default: 'disabled' },
  chatBotType: { schema: z.enum(['text']), default: 'text' },
  userCreation: { schema: onOff, default: 'enabled' },
  campaignsEnabled: { schema: z.enum(['true', 'false']), default: 'true' },
  sideMenu: { schema: z.enum(['open', 'closed']), default: 'open' },
  timezone: { schema: timeZone, default: 'America/Sao_Paulo' },
} as const satisfies Record<string, { schema: z.ZodType<string, string>; default: string }>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

export interface SettingValue {
  key: SettingKey;
  value: string;
}

/** PUT /api/settings/:key. Switches may send a boolean; values are stored as text. */
export const settingUpdateSchema = z.object({
  value: z.union([z.string().max(1000), z.boolean()]).transform(String),
});
