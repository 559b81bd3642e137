import { z } from 'zod';
import { id } from '../../http/validate.js';
import { RECURRENCE_MONTHS, WEEKDAYS_EN, type Recurrence } from '../../contract/views.js';
import type { ScheduleEntry } from './company.model.js';

/** How often a company pays; '+ Vencimento' moves the due date forward by one period. */
export const RECURRENCES = Object.keys(RECURRENCE_MONTHS) as [Recurrence, ...Recurrence[]];
export type { Recurrence };

/** The weekday names `weekdayEn` takes, declared with the ScheduleEntry type in the contract. */
export { WEEKDAYS_EN };

/** Working hours of a new company (and of its first queue): spec core §3, Queue defaults. */
export const DEFAULT_SCHEDULES: ScheduleEntry[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

/** A calendar day written YYYY-MM-DD that exists (no 2026-02-30). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (v) => {
      const day = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v;
    },
    { message: 'is not a calendar date' },
  );

/** An empty due date means the company never expires (null); anything else must be a real day. */
const dueDate = z.preprocess((v) => (v === '' ? null : v), isoDate.nullable());

const companyFields = {
  name: z.string().trim().min(2).max(50),
  email: z.string().trim().toLowerCase().max(255).pipe(z.email()),
  phone: z.string().trim().max(50),
  planId: id,
  status: z.boolean(),
  dueDate,
  recurrence: z.enum(RECURRENCES),
  campaignsEnabled: z.boolean(),
};

/**
 * POST /api/companies. Omitted fields take the service's defaults (status true, due in 30 days,
 * MENSAL, campaigns on, a random admin password).
 */
export const companyCreateSchema = z.object({
  name: companyFields.name,
  email: companyFields.email,
  planId: companyFields.planId,
  phone: companyFields.phone.optional(),
  status: companyFields.status.optional(),
  dueDate: companyFields.dueDate.optional(),
  recurrence: companyFields.recurrence.optional(),
  campaignsEnabled: companyFields.campaignsEnabled.optional(),
  password: z.string().min(5).max(50).optional(),
});

/** PUT /api/companies/:id: any subset of the company's fields. */
export const companyUpdateSchema = z.object(companyFields).partial();

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM between 00:00 and 23:59');

/** PUT /api/companies/:id/schedules: at most one entry per weekday. */
export const schedulesSchema = z.object({
  schedules: z
    .array(
      z.object({
        weekday: z.string().trim().min(1).max(30),
        weekdayEn: z.enum(WEEKDAYS_EN),
        startTime: time,
        endTime: time,
      }),
    )
    .max(WEEKDAYS_EN.length)
    .refine((list) => new Set(list.map((s) => s.weekdayEn)).size === list.length, {
      message: 'each weekday may appear only once',
    }),
});

export type CompanyCreateInput = z.infer<typeof companyCreateSchema>;
export type CompanyUpdateInput = z.infer<typeof companyUpdateSchema>;
