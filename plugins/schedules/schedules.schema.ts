import { id, idParam, pageNumberQuery, required, z, zonedInstant } from 'atende/plugin';

/** GET /schedules: 20 a page, newest sendAt first. */
export const SCHEDULES_PAGE_SIZE = 20;
/** GET /schedules/calendar: at most this many days (two months of a month view with its edges). */
export const CALENDAR_MAX_DAYS = 62;

/** A company-local wall clock, as the date-time picker sends it. */
const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2})?$/;
/** An instant: ISO 8601 with Z or an offset. */
const INSTANT = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `YYYY-MM-DD` naming a day that exists (no 31 February). Zod runs every check of a field even
 * after its format check failed, so anything else must answer false here, never throw.
 */
function isDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10) === day;
}

/** The spec's messages (§5): required 'Obrigatório', at least 5 'Mensagem muito curta'. */
const body = z
  .string({ error: required('Obrigatório') })
  .trim()
  .min(1, 'Obrigatório')
  .min(5, 'Mensagem muito curta')
  .max(4096, 'Too Long!');

const contactId = z.number({ error: required('Obrigatório') }).pipe(id);

/** Either form; turned into an instant by sendAtInstant with the company's time zone. */
const sendAt = z
  .string({ error: required('Obrigatório') })
  .trim()
  .min(1, 'Obrigatório')
  .refine((value) => {
    const match = LOCAL_TIME.exec(value) ?? INSTANT.exec(value);
    return match !== null && isDay(match[1]!) && !Number.isNaN(Date.parse(LOCAL_TIME.test(value) ? `${value}Z` : value));
  }, 'Must be a date and time (YYYY-MM-DDTHH:mm)');

/** The UTC ISO instant of a validated sendAt: a wall clock is read in `timeZone`. */
export function sendAtInstant(value: string, timeZone: string): string {
  return LOCAL_TIME.test(value) ? zonedInstant(value, timeZone) : new Date(value).toISOString();
}

export const createScheduleSchema = z.object({ body, contactId, sendAt });

export const updateScheduleSchema = z.object({
  body: body.optional(),
  contactId: contactId.optional(),
  sendAt: sendAt.optional(),
});

export const listSchedulesQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
  contactId: z.preprocess((value) => (value === '' ? undefined : value), idParam.optional()),
});

const day = z
  .string({ error: required('Obrigatório') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a day (YYYY-MM-DD)')
  .refine(isDay, 'Must be a day (YYYY-MM-DD)');

export const calendarQuery = z
  .object({ from: day, to: day })
  .refine((range) => range.from <= range.to, { message: 'Must not be before from', path: ['to'] })
  .refine((range) => (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 + 1 <= CALENDAR_MAX_DAYS, {
    message: `At most ${CALENDAR_MAX_DAYS} days`,
    path: ['to'],
  });

export type CreateScheduleInput = z.infer<typeof createScheduleSchema>;
export type UpdateScheduleInput = z.infer<typeof updateScheduleSchema>;
export type ListSchedulesQuery = z.infer<typeof listSchedulesQuery>;
export type CalendarQuery = z.infer<typeof calendarQuery>;
