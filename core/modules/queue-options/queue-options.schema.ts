import { z } from 'zod';
import { idParam } from '../../http/validate.js';
import { required } from '../users/users.schema.js';

/** The bot reads '#' as "main menu" and '0' as "previous menu": no option may take them. */
export const RESERVED_KEYS = ['#', '0'];

/** The parent option; null or -1 (the spec's "roots") put the option on the first level. */
const parentId = z.preprocess(
  (value) => (value === -1 || value === '-1' || value === '' ? null : value),
  idParam.nullable(),
);

const title = z.string({ error: required('Required') }).trim().min(1, 'Required').max(100, 'Too Long!');
const message = z.preprocess((value) => (value === null ? '' : value), z.string({ error: 'Must be text' }).trim().max(5000, 'Too Long!'));
/** What the customer types, e.g. '1'; a number is taken as its digits. */
const option = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z
    .string({ error: required('Required') })
    .trim()
    .min(1, 'Required')
    .max(20, 'Too Long!')
    .refine((key) => !RESERVED_KEYS.includes(key), "'0' and '#' are reserved for going back and to the main menu"),
);

export const optionCreateSchema = z.object({
  queueId: idParam,
  parentId: parentId.default(null),
  title,
  message: message.default(''),
  option,
});

export const optionUpdateSchema = z.object({
  title: title.optional(),
  message: message.optional(),
  option: option.optional(),
});

/** GET /api/queue-options: one level of a queue's menu, the first one by default (parentId -1). */
export const listOptionsQuery = z.object({
  queueId: idParam,
  parentId: parentId.default(null),
});

export type OptionCreateInput = z.infer<typeof optionCreateSchema>;
export type OptionUpdateInput = z.infer<typeof optionUpdateSchema>;
export type ListOptionsQuery = z.infer<typeof listOptionsQuery>;
