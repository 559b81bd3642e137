import path from 'node:path';
import { ErrorCode, ForbiddenError, multipartBody, routeId, takeUpload, validate, type AppContext, type AppRouter, type PluginApp } from 'atende/plugin';
import { announcementsOf } from './announcements-of.js';
import { asImageError } from './announcements.service.js';
import { createAnnouncementSchema, listAnnouncementsQuery, updateAnnouncementSchema } from './announcements.schema.js';
import { IMAGE_EXTENSIONS } from './image-type.js';

const NOT_FOUND = ErrorCode.ERR_NO_ANNOUNCEMENT_FOUND;
/** An image is 5 MB at most: it is shown in a pop-over, not sent to customers. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Writing announcements (and listing them all) is for super users (spec §6); 403 for anyone else. */
async function superOnly(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  if (!ctx.state.user.super) throw new ForbiddenError();
  await next();
}

/** /api/announcements: the host puts login in front of each route (no plan flag). */
export function announcementsRoutes(router: AppRouter, app: PluginApp): void {
  const announcements = announcementsOf(app);

  // Every signed-in user: the top bar's list, read marks and images.
  router.get('/announcements/active', async (ctx) => {
    ctx.body = await announcements.active(ctx.state.user);
  });

  router.post('/announcements/:id/read', async (ctx) => {
    await announcements.markRead(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  router.get('/announcements/media/:file', async (ctx) => {
    const { companyId, file } = await announcements.image(ctx.state.user, ctx.params.file ?? '');
    const { stream, size } = await app.services.media.open(companyId, file);
    ctx.type = path.extname(file);
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.body = stream;
    ctx.length = size;
  });

  // Super users: the spec's calls.
  router.get('/announcements', superOnly, async (ctx) => {
    ctx.body = await announcements.list(validate(listAnnouncementsQuery, ctx.query));
  });

  router.get('/announcements/:id', superOnly, async (ctx) => {
    ctx.body = await announcements.show(routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/announcements', superOnly, async (ctx) => {
    const input = validate(createAnnouncementSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await announcements.create(ctx.state.user, input);
  });

  router.put('/announcements/:id', superOnly, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await announcements.update(id, validate(updateAnnouncementSchema, ctx.request.body));
  });

  router.delete('/announcements/:id', superOnly, async (ctx) => {
    await announcements.remove(routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  router.post('/announcements/:id/media-upload', superOnly, multipartBody({ maxBytes: MAX_IMAGE_BYTES }), async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    let file;
    try {
      file = takeUpload(ctx, IMAGE_EXTENSIONS);
    } catch (err) {
      throw asImageError(err);
    }
    ctx.body = await announcements.attach(id, file);
  });

  router.delete('/announcements/:id/media-upload', superOnly, async (ctx) => {
    ctx.body = await announcements.detach(routeId(ctx.params.id, NOT_FOUND));
  });
}
