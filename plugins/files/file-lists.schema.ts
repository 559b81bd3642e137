import { id, idParam, pageNumberQuery, required, z } from 'atende/plugin';

/** GET /files: 20 a page, by name. */
export const FILE_LISTS_PAGE_SIZE = 20;
/** Files one list may hold (each is a message when the list is sent). */
export const MAX_OPTIONS = 50;
/** Files one upload request may carry; the page sends more in several requests. */
export const MAX_UPLOAD_FILES = 10;

/** The spec's messages (§5): name required and at least 3 ('nome muito curto'), message required. */
const name = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').min(3, 'nome muito curto').max(100, 'Too Long!');
const message = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').max(4096, 'Too Long!');
const optionName = z.string({ error: required('Obrigatório') }).trim().min(1, 'Obrigatório').max(100, 'Too Long!');

/** An option kept (with its id) or added (without); the array's order is the sending order. */
const option = z.object({ id: id.optional(), name: optionName });
const options = z
  .array(option, { error: 'Must be a list' })
  .max(MAX_OPTIONS, `At most ${MAX_OPTIONS} files`)
  .refine((list) => new Set(list.flatMap((o) => (o.id === undefined ? [] : [o.id]))).size === list.filter((o) => o.id !== undefined).length, 'An option appears twice');

/** POST /files: the spec's client also sends userId, dropped (the author is the caller). */
export const createFileListSchema = z.object({ name, message, options: options.default([]) });

/** PUT /files/:id: options, when given, are the whole set: those left out are removed with their files. */
export const updateFileListSchema = z.object({ name: name.optional(), message: message.optional(), options: options.optional() });

/**
 * GET /files: with companyId (the spec's selects) every list of the caller's company, whatever the
 * value (never trusted); otherwise a page of the search.
 */
export const listFileListsQuery = z.object({
  searchParam: z.string().trim().toLowerCase().max(100, 'Too Long!').default(''),
  pageNumber: pageNumberQuery,
  companyId: z.string().optional(),
});

/** A multipart field sent once is a value, sent several times a list. */
const many = <T extends z.ZodType>(item: T) => z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item));

/**
 * POST /files/uploadList/:fileId, the spec's fields: per file (in the order of `files`) the `id`
 * of its option and optionally its `name`; fileId, typeArch and mediaType are the old client's and
 * not trusted (the type comes from the file's name).
 */
export const uploadFieldsSchema = z.object({
  id: many(idParam).refine((ids) => ids.length > 0, 'Obrigatório'),
  name: many(optionName),
});

export const sendFileListSchema = z.object({ ticketId: z.number({ error: required('Obrigatório') }).pipe(id) });

export type CreateFileListInput = z.infer<typeof createFileListSchema>;
export type UpdateFileListInput = z.infer<typeof updateFileListSchema>;
export type ListFileListsQuery = z.infer<typeof listFileListsQuery>;
export type FileListOptionInput = z.infer<typeof option>;
