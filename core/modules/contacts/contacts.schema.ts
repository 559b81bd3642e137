import { z } from 'zod';
import { idParam, pageNumberQuery } from '../../http/validate.js';
import { required } from '../users/users.schema.js';
import { canonicalNumber } from '../../channels/phone.js';

/** GET /contacts: 20 a page, by name. */
export const CONTACTS_PAGE_SIZE = 20;

/** Spaces, '+', dots, dashes, slashes and parentheses: how people write phone numbers. */
const NUMBER_FORMATTING = /[\s+().\-/]/g;

/** A number as typed ('+55 (11) 98765-4321') without its formatting. */
export function stripNumber(raw: string): string {
  return raw.replace(NUMBER_FORMATTING, '');
}

export const contactName = z.string({ error: required('Required') }).trim().min(2, 'Too Short!').max(50, 'Too Long!');

export const contactNumber = z
  .string({ error: required('Required') })
  .max(100, 'Too Long!')
  .transform(stripNumber)
  .pipe(z.string().regex(/^\d*$/, 'Only digits').min(8, 'Too Short!').max(50, 'Too Long!'))
  // One form per person, as the WhatsApp drivers store it: a Brazilian mobile gets its ninth digit.
  .transform(canonicalNumber);

/** Optional: empty (or absent) means no e-mail. */
export const contactEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(255, 'Invalid email')
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Invalid email');

const extraInfo = z
  .array(
    z.object({
      name: z.string({ error: required('Required') }).trim().min(1, 'Required').max(100, 'Too Long!'),
      value: z.string().max(5000, 'Too Long!').default(''),
    }),
  )
  .max(100, 'Too many fields');

export const createContactSchema = z.object({
  name: contactName,
  number: contactNumber,
  email: contactEmail.default(''),
  extraInfo: extraInfo.default([]),
});

/**
 * PUT /contacts/:id: every field optional. The number stays raw here: an unchanged number (a
 * group's id, say) is kept as it is, and only a new one is checked (the service runs contactNumber).
 */
export const updateContactSchema = z.object({
  name: contactName.optional(),
  number: z.string().trim().max(100, 'Too Long!').optional(),
  email: contactEmail.optional(),
  /** When present, replaces every extra field of the contact. */
  extraInfo: extraInfo.optional(),
});

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date YYYY-MM-DD').refine((value) => !Number.isNaN(Date.parse(value)), 'Must be a date YYYY-MM-DD');

export const listContactsQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
  /** Contacts created on this day (the company's time zone). */
  date: day.optional(),
  /** Contacts created from this day on, and up to this day (inclusive). */
  dateStart: day.optional(),
  dateEnd: day.optional(),
});

export const listAllQuery = z.object({
  companyId: idParam.optional(),
});

export type CreateContactInput = z.infer<typeof createContactSchema>;
export type UpdateContactInput = z.infer<typeof updateContactSchema>;
export type ListContactsQuery = z.infer<typeof listContactsQuery>;
