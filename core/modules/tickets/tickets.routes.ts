import Router from '@koa/router';
import type { Next } from 'koa';
import type { Container } from '../../container.js';
import type { AppContext, AppRouter, AppState } from '../../http/context.js';
import { requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { NotFoundError } from '../../errors.js';
import { OtherOpenTicketError } from './tickets.service.js';
import { createTicketSchema, listTicketsQuery, ticketUuid, updateTicketSchema } from './tickets.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { z } from 'zod';
import type { RouteDoc } from '../../http/api-docs.js';
import { ticketPageSchema, ticketViewSchema } from '../../contract/view-schemas.js';

const NOT_FOUND = ErrorCode.ERR_NO_TICKET_FOUND;

/** The public routes' descriptions (GET /api/openapi.json), with the schemas the routes validate with. */
export const ticketsDocs: RouteDoc[] = [
  { method: 'GET', path: '/tickets', tag: 'tickets', summary: 'List tickets', description: '40 a page, newest update first; what the caller may see.', query: listTicketsQuery, answer: { status: 200, description: 'A page of tickets', schema: ticketPageSchema } },
  { method: 'GET', path: '/tickets/u/:uuid', tag: 'tickets', summary: 'Show a ticket by its uuid', params: z.object({ uuid: ticketUuid }), answer: { status: 200, description: 'The ticket', schema: ticketViewSchema } },
  { method: 'GET', path: '/tickets/:id', tag: 'tickets', summary: 'Show a ticket', answer: { status: 200, description: 'The ticket', schema: ticketViewSchema } },
  { method: 'POST', path: '/tickets', tag: 'tickets', summary: 'Open a ticket for a contact', description: '409 ERR_OTHER_OPEN_TICKET when the contact has another open one on the connection.', body: createTicketSchema, answer: { status: 201, description: 'The new ticket', schema: ticketViewSchema } },
  { method: 'PUT', path: '/tickets/:id', tag: 'tickets', summary: 'Accept, transfer, resolve or reopen a ticket', description: 'status open accepts (the ticket becomes the caller\'s), closed resolves, pending returns it; queueId/userId transfer.', body: updateTicketSchema, answer: { status: 200, description: 'The ticket after the change', schema: ticketViewSchema } },
  { method: 'DELETE', path: '/tickets/:id', tag: 'tickets', summary: 'Delete a ticket', answer: { status: 204, description: 'Deleted' } },
];

/** ERR_OTHER_OPEN_TICKET carries the other ticket beside the JSON string of its message. */
async function otherOpenTicketBody(ctx: AppContext, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof OtherOpenTicketError)) throw err;
    ctx.status = err.status;
    ctx.body = { error: err.code, message: err.message, ticket: err.ticket };
  }
}

/** /api/tickets: every user of the company; the service decides what each may see and change. */
export function ticketsRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const tickets = c.services.tickets;
  const auth = requireAuth(c);

  router.get('/tickets', auth, async (ctx) => {
    ctx.body = await tickets.list(ctx.state.user, validate(listTicketsQuery, ctx.query));
  });

  router.get('/tickets/u/:uuid', auth, async (ctx) => {
    const uuid = ticketUuid.safeParse(ctx.params.uuid);
    if (!uuid.success) throw new NotFoundError(NOT_FOUND);
    ctx.body = await tickets.showByUuid(ctx.state.user, uuid.data);
  });

  router.get('/tickets/:id', auth, async (ctx) => {
    ctx.body = await tickets.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/tickets', auth, otherOpenTicketBody, async (ctx) => {
    const input = validate(createTicketSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await tickets.create(ctx.state.user, input);
  });

  router.put('/tickets/:id', auth, otherOpenTicketBody, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await tickets.update(ctx.state.user, id, validate(updateTicketSchema, ctx.request.body));
  });

  router.delete('/tickets/:id', auth, async (ctx) => {
    await tickets.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
    ctx.status = 204;
  });

  return router;
}
