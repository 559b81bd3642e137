import { ErrorCode, multipartBody, routeId, takeUploads, validate, ValidationError, type AppRouter, type PluginApp } from 'atende/plugin';
import { filesOf } from './files-of.js';
import { createFileListSchema, listFileListsQuery, MAX_UPLOAD_FILES, sendFileListSchema, updateFileListSchema, uploadFieldsSchema } from './file-lists.schema.js';

const NOT_FOUND = ErrorCode.ERR_NO_FILE_LIST_FOUND;

/** /api/files (the spec's paths) and /api/files/:id/send; the host puts login in front of each route. */
export function fileListsRoutes(router: AppRouter, app: PluginApp): void {
  const files = filesOf(app).service;

  router.get('/files', async (ctx) => {
    ctx.body = await files.list(ctx.state.user, validate(listFileListsQuery, ctx.query));
  });

  router.get('/files/:id', async (ctx) => {
    ctx.body = await files.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/files', async (ctx) => {
    const input = validate(createFileListSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await files.create(ctx.state.user, input);
  });

  router.put('/files/:id', async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await files.update(ctx.state.user, id, validate(updateFileListSchema, ctx.request.body));
  });

  router.delete('/files/:id', async (ctx) => {
    await files.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  router.post('/files/uploadList/:fileId', multipartBody({ maxFiles: MAX_UPLOAD_FILES }), async (ctx) => {
    const id = routeId(ctx.params.fileId, NOT_FOUND);
    const fields = validate(uploadFieldsSchema, ctx.request.body);
    const uploaded = takeUploads(ctx, 'files');
    if (fields.id.length !== uploaded.length) throw new ValidationError('id: One option id per file');
    if (fields.name.length > 0 && fields.name.length !== uploaded.length) throw new ValidationError('name: One name per file');
    const uploads = uploaded.map((file, index) => ({ optionId: fields.id[index]!, name: fields.name[index], file }));
    ctx.body = await files.upload(ctx.state.user, id, uploads);
  });

  router.post('/files/:id/send', async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    const { ticketId } = validate(sendFileListSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await files.send(ctx.state.user, id, ticketId);
  });
}
