import { ErrorCode, multipartBody, routeId, takeUpload, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { schedulesOf } from './schedules-of.js';
import { calendarQuery, createScheduleSchema, listSchedulesQuery, updateScheduleSchema } from './schedules.schema.js';

const NOT_FOUND = ErrorCode.ERR_NO_SCHEDULE_FOUND;

/** /api/schedules: the host puts login and the useSchedules check in front of each route. */
export function schedulesRoutes(router: AppRouter, app: PluginApp): void {
  const schedules = schedulesOf(app).service;

  router.get('/schedules', async (ctx) => {
    ctx.body = await schedules.list(ctx.state.user, validate(listSchedulesQuery, ctx.query));
  });

  router.get('/schedules/calendar', async (ctx) => {
    ctx.body = await schedules.calendar(ctx.state.user, validate(calendarQuery, ctx.query));
  });

  router.get('/schedules/:id', async (ctx) => {
    ctx.body = await schedules.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/schedules', async (ctx) => {
    const input = validate(createScheduleSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await schedules.create(ctx.state.user, input);
  });

  router.put('/schedules/:id', async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await schedules.update(ctx.state.user, id, validate(updateScheduleSchema, ctx.request.body));
  });

  router.delete('/schedules/:id', async (ctx) => {
    await schedules.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  router.post('/schedules/:id/media-upload', multipartBody(), async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await schedules.attach(ctx.state.user, id, takeUpload(ctx));
  });

  router.delete('/schedules/:id/media-upload', async (ctx) => {
    ctx.body = await schedules.detach(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });
}
