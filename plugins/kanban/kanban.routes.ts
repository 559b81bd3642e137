import { ErrorCode, routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import { kanbanCardsQuery } from './kanban.schema.js';
import { kanbanOf } from './kanban.service.js';

/** The spec's kanban calls; the host puts login and the useKanban check in front of each. */
export function kanbanRoutes(router: AppRouter, app: PluginApp): void {
  const kanban = kanbanOf(app);

  router.get('/tags/kanban', async (ctx) => {
    ctx.body = { lista: await kanban.lanes(ctx.state.user) };
  });

  router.get('/ticket/kanban', async (ctx) => {
    ctx.body = await kanban.cards(ctx.state.user, validate(kanbanCardsQuery, ctx.query).queueIds);
  });

  router.put('/ticket-tags/:ticketId/:tagId', async (ctx) => {
    const ticketId = routeId(ctx.params.ticketId, ErrorCode.ERR_NO_TICKET_FOUND);
    ctx.body = await kanban.move(ctx.state.user, ticketId, routeId(ctx.params.tagId, ErrorCode.ERR_NO_TAG_FOUND));
  });

  // The old product's removal: the ticket's kanban tags only (its other tags stay).
  router.delete('/ticket-tags/:ticketId', async (ctx) => {
    ctx.body = await kanban.move(ctx.state.user, routeId(ctx.params.ticketId, ErrorCode.ERR_NO_TICKET_FOUND), null);
  });
}
