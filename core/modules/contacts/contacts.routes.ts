import { readFile, rm } from 'node:fs/promises';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { File } from 'formidable';
import type { Container } from '../../container.js';
import type { AppContext, AppRouter, AppState } from '../../http/context.js';
import { requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { AppError, ValidationError } from '../../errors.js';
import { createContactSchema, listAllQuery, listContactsQuery, updateContactSchema } from './contacts.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { z } from 'zod';
import type { RouteDoc } from '../../http/api-docs.js';
import { contactDetailSchema, contactViewSchema } from '../../contract/view-schemas.js';

const NOT_FOUND = ErrorCode.ERR_NO_CONTACT_FOUND;
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
const IMPORT_EXTENSIONS = /\.(csv|xlsx|xls)$/i;

/** The public routes' descriptions (GET /api/openapi.json), with the schemas the routes validate with. */
const importFile = { fields: z.object({}), files: 'file' };
export const contactsDocs: RouteDoc[] = [
  { method: 'GET', path: '/contacts', tag: 'contacts', summary: 'List contacts', query: listContactsQuery, answer: { status: 200, description: 'A page of contacts', schema: z.object({ contacts: z.array(contactViewSchema), count: z.number().int(), hasMore: z.boolean() }) } },
  { method: 'GET', path: '/contacts/list', tag: 'contacts', summary: 'Every contact, id, name and number', query: listAllQuery, answer: { status: 200, description: 'The contacts', schema: z.array(z.object({ id: z.number().int(), name: z.string(), number: z.string() })) } },
  { method: 'GET', path: '/contacts/export', tag: 'contacts', summary: 'Export the contacts as CSV', answer: { status: 200, description: 'A CSV file' } },
  { method: 'POST', path: '/contacts/import/preview', tag: 'contacts', summary: 'Preview a spreadsheet import', description: 'An .xlsx or .csv in the field file; nothing is written.', multipart: importFile, answer: { status: 200, description: 'What the import would do' } },
  { method: 'POST', path: '/contacts/import/file', tag: 'contacts', summary: 'Import a spreadsheet of contacts', multipart: importFile, answer: { status: 200, description: 'What the import did' } },
  { method: 'GET', path: '/contacts/:id', tag: 'contacts', summary: 'Show a contact', answer: { status: 200, description: 'The contact', schema: contactDetailSchema } },
  { method: 'POST', path: '/contacts', tag: 'contacts', summary: 'Create a contact', body: createContactSchema, answer: { status: 201, description: 'The contact', schema: contactDetailSchema } },
  { method: 'PUT', path: '/contacts/:id', tag: 'contacts', summary: 'Update a contact', body: updateContactSchema, answer: { status: 200, description: 'The contact', schema: contactDetailSchema } },
  { method: 'DELETE', path: '/contacts/:id', tag: 'contacts', summary: 'Delete a contact', answer: { status: 204, description: 'Deleted' } },
];

/** Multipart for the import routes only (the app's body parser refuses it): one file, 5 MB at most. */
const importUpload = koaBody({
  multipart: true,
  json: false,
  urlencoded: false,
  text: false,
  formidable: { maxFiles: 1, maxFileSize: IMPORT_MAX_BYTES, maxTotalFileSize: IMPORT_MAX_BYTES, maxFields: 10, allowEmptyFiles: false },
  onError: (err) => {
    if ((err as { httpCode?: number }).httpCode === 413) {
      throw new AppError(ErrorCode.ERR_PAYLOAD_TOO_LARGE, 413, `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB`);
    }
    throw new ValidationError(`The upload could not be read: ${err.message}`, undefined, ErrorCode.ERR_IMPORT_FILE);
  },
});

/** The uploaded spreadsheet's bytes and name; the temporary file is removed once read. */
async function uploadedFile(ctx: AppContext): Promise<{ data: Buffer; name: string }> {
  const files = ctx.request.files ?? {};
  const uploads = Object.values(files).flat() as File[];
  try {
    const file = files.file;
    if (!file || Array.isArray(file)) throw new ValidationError('Send one spreadsheet in the field "file"', undefined, ErrorCode.ERR_IMPORT_FILE);
    const name = file.originalFilename ?? '';
    if (!IMPORT_EXTENSIONS.test(name)) {
      throw new ValidationError('The file must be .csv, .xlsx or .xls', undefined, ErrorCode.ERR_IMPORT_FILE_TYPE);
    }
    return { data: await readFile(file.filepath), name };
  } finally {
    await Promise.all(uploads.map((u) => rm(u.filepath, { force: true })));
  }
}

export function contactsRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const contacts = c.services.contacts;
  const auth = requireAuth(c);

  router.get('/contacts', auth, async (ctx) => {
    ctx.body = await contacts.list(ctx.state.user, validate(listContactsQuery, ctx.query));
  });

  router.get('/contacts/list', auth, async (ctx) => {
    const { companyId } = validate(listAllQuery, ctx.query);
    ctx.body = { contacts: await contacts.listAll(ctx.state.user, companyId) };
  });

  router.get('/contacts/export', auth, async (ctx) => {
    const csv = await contacts.exportCsv(ctx.state.user);
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', 'attachment; filename="contatos.csv"');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = csv;
  });

  router.post('/contacts/import/preview', auth, importUpload, async (ctx) => {
    ctx.body = await contacts.importFile(ctx.state.user, await uploadedFile(ctx), false);
  });

  router.post('/contacts/import/file', auth, importUpload, async (ctx) => {
    ctx.body = await contacts.importFile(ctx.state.user, await uploadedFile(ctx), true);
  });

  router.get('/contacts/:id', auth, async (ctx) => {
    ctx.body = await contacts.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/contacts', auth, async (ctx) => {
    const input = validate(createContactSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await contacts.create(ctx.state.user, input);
  });

  router.put('/contacts/:id', auth, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await contacts.update(ctx.state.user, id, validate(updateContactSchema, ctx.request.body));
  });

  router.delete('/contacts/:id', auth, async (ctx) => {
    await contacts.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  return router;
}
