import { readFile } from 'node:fs/promises';
import { ErrorCode, multipartBody, routeId, takeUpload, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { campaignsOf } from '../campaigns-of.js';
import { contactListSchema, createItemSchema, listContactListsQuery, listItemsQuery, updateItemSchema, uploadQuery } from './contact-lists.schema.js';

const LIST_NOT_FOUND = ErrorCode.ERR_NO_CONTACT_LIST_FOUND;
const ITEM_NOT_FOUND = ErrorCode.ERR_NO_CONTACT_LIST_ITEM_FOUND;
/** What the import takes; the file's first bytes decide how it is read (.xls is refused with a clear message). */
const SHEETS = new Set(['.xls', '.xlsx', '.csv']);
/** A spreadsheet of 20,000 rows is well under this. */
const MAX_SHEET_BYTES = 10 * 1024 * 1024;

/** /api/contact-lists and /api/contact-list-items (the spec's paths), behind the plan flag and campaignsEnabled. */
export function contactListsRoutes(router: AppRouter, app: PluginApp): void {
  const { contactLists: lists, gate } = campaignsOf(app);
  const guard = gate.guard;

  router.get('/contact-lists', guard, async (ctx) => {
    ctx.body = await lists.list(ctx.state.user, validate(listContactListsQuery, ctx.query));
  });

  router.get('/contact-lists/list', guard, async (ctx) => {
    ctx.body = await lists.choices(ctx.state.user);
  });

  router.post('/contact-lists', guard, async (ctx) => {
    const { name } = validate(contactListSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await lists.create(ctx.state.user, name);
  });

  router.get('/contact-lists/:id', guard, async (ctx) => {
    ctx.body = await lists.show(ctx.state.user, routeId(ctx.params.id, LIST_NOT_FOUND));
  });

  router.put('/contact-lists/:id', guard, async (ctx) => {
    const id = routeId(ctx.params.id, LIST_NOT_FOUND);
    ctx.body = await lists.rename(ctx.state.user, id, validate(contactListSchema, ctx.request.body).name);
  });

  router.delete('/contact-lists/:id', guard, async (ctx) => {
    await lists.remove(ctx.state.user, routeId(ctx.params.id, LIST_NOT_FOUND));
    ctx.status = 204;
  });

  router.post('/contact-lists/:id/upload', guard, multipartBody({ maxBytes: MAX_SHEET_BYTES }), async (ctx) => {
    const id = routeId(ctx.params.id, LIST_NOT_FOUND);
    const { dryRun } = validate(uploadQuery, ctx.query);
    const file = takeUpload(ctx, SHEETS);
    ctx.body = await lists.importFile(ctx.state.user, id, { data: await readFile(file.path), name: file.name }, dryRun);
  });

  router.post('/contact-lists/:id/check', guard, async (ctx) => {
    ctx.body = await lists.startCheck(ctx.state.user, routeId(ctx.params.id, LIST_NOT_FOUND));
  });

  router.get('/contact-list-items', guard, async (ctx) => {
    ctx.body = await lists.items(ctx.state.user, validate(listItemsQuery, ctx.query));
  });

  router.post('/contact-list-items', guard, async (ctx) => {
    const input = validate(createItemSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await lists.createItem(ctx.state.user, input);
  });

  router.get('/contact-list-items/:id', guard, async (ctx) => {
    ctx.body = await lists.showItem(ctx.state.user, routeId(ctx.params.id, ITEM_NOT_FOUND));
  });

  router.put('/contact-list-items/:id', guard, async (ctx) => {
    const id = routeId(ctx.params.id, ITEM_NOT_FOUND);
    ctx.body = await lists.updateItem(ctx.state.user, id, validate(updateItemSchema, ctx.request.body));
  });

  router.delete('/contact-list-items/:id', guard, async (ctx) => {
    await lists.removeItem(ctx.state.user, routeId(ctx.params.id, ITEM_NOT_FOUND));
    ctx.status = 204;
  });
}
