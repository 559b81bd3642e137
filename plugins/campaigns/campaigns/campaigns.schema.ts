import { id, pageNumberQuery, required, z } from 'atende/plugin';
import { MESSAGE_NUMBERS } from './campaign.contract.js';

/** GET /campaigns: 20 a page, newest first. */
export const CAMPAIGNS_PAGE_SIZE = 20;
/** A message WhatsApp carries whole. */
const MESSAGE_MAX = 4096;

/** Spec §5: name required, 2 to 50, with the core's messages. */
const name = z.string({ error: required('Required') }).trim().min(1, 'Required').min(2, 'Too Short!').max(50, 'Too Long!');

/** '', null and the spec's 'Nenhuma' (the tag select's "none") mean no choice. */
const none = (value: unknown) => (value === '' || value === 'Nenhuma' ? null : value);
const optionalId = z.preprocess(none, z.coerce.number({ error: 'Must be a number' }).pipe(id).nullable());

/** A wall clock of the company ('YYYY-MM-DD HH:mm:ss', as the spec's client sends it, or with a T). */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Whether the fields name a real moment (no 31 February, no 25:00). */
function isWallClock(value: string): boolean {
  const m = WALL_CLOCK.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s = '0'] = m.slice(1).map((part) => part ?? '0') as string[];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  return date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d) && date.getUTCHours() === Number(h) && date.getUTCMinutes() === Number(mi);
}

/** Kept as the wall clock `YYYY-MM-DDTHH:mm:ss`; the service reads it in the company's timezone. Empty: not scheduled. */
const scheduledAt = z.preprocess(
  (value) => (value === '' ? null : value),
  z
    .string({ error: 'Must be a date and time (YYYY-MM-DD HH:mm:ss)' })
    .trim()
    .refine(isWallClock, 'Must be a date and time (YYYY-MM-DD HH:mm:ss)')
    .transform((value) => {
      const [day, time] = value.split(/[ T]/) as [string, string];
      return `${day}T${time.length === 5 ? `${time}:00` : time}`;
    })
    .nullable(),
);

const text = z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), z.string({ error: 'Must be text' }).max(MESSAGE_MAX, 'Too Long!').nullable());

/** message1..5 and confirmationMessage1..5: five variants at most, by the shape itself. */
const messages = Object.fromEntries(MESSAGE_NUMBERS.flatMap((n) => [[`message${n}`, text.optional()], [`confirmationMessage${n}`, text.optional()]])) as Record<
  `message${(typeof MESSAGE_NUMBERS)[number]}` | `confirmationMessage${(typeof MESSAGE_NUMBERS)[number]}`,
  z.ZodOptional<typeof text>
>;

const fields = {
  confirmation: z.boolean({ error: 'Must be true or false' }).optional(),
  scheduledAt: scheduledAt.optional(),
  whatsappId: optionalId.optional(),
  contactListId: optionalId.optional(),
  tagListId: optionalId.optional(),
  fileListId: optionalId.optional(),
  ...messages,
};

/** A campaign goes to a contact list or to the holders of a tag, never both (the dialog clears one when the other is chosen). */
const oneAudience = (input: { contactListId?: number | null; tagListId?: number | null }) => !(input.contactListId && input.tagListId);
const audienceIssue = { message: 'Choose a contact list or a tag, not both', path: ['tagListId'] };

/** POST /campaigns; status is the server's (unknown fields, status too, are dropped). */
export const createCampaignSchema = z.object({ name, ...fields }).refine(oneAudience, audienceIssue);

/** PUT /campaigns/:id: the fields given change; the audience rule is checked on the result. */
export const updateCampaignSchema = z.object({ name: name.optional(), ...fields });

export const listCampaignsQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
});

export type CreateCampaignInput = z.infer<typeof createCampaignSchema>;
export type UpdateCampaignInput = z.infer<typeof updateCampaignSchema>;
export type ListCampaignsQuery = z.infer<typeof listCampaignsQuery>;
