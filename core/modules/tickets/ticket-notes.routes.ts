import Router from '@koa/router';
import type { Container } from '../../container.js';
import type { AppRouter, AppState } from '../../http/context.js';
import { requireAuth } from '../../http/auth.middleware.js';
import { routeId, validate } from '../../http/validate.js';
import { createNoteSchema, listNotesQuery } from './tickets.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { z } from 'zod';
import type { RouteDoc } from '../../http/api-docs.js';
import { ticketNoteViewSchema } from '../../contract/view-schemas.js';

/** The public routes' descriptions (GET /api/openapi.json), with the schemas the routes validate with. */
export const ticketNotesDocs: RouteDoc[] = [
  { method: 'GET', path: '/ticket-notes/list', tag: 'tickets', summary: "List a ticket's notes", query: listNotesQuery, answer: { status: 200, description: 'The notes', schema: z.array(ticketNoteViewSchema) } },
  { method: 'POST', path: '/ticket-notes', tag: 'tickets', summary: 'Add a note to a ticket', body: createNoteSchema, answer: { status: 201, description: 'The note', schema: ticketNoteViewSchema } },
  { method: 'DELETE', path: '/ticket-notes/:id', tag: 'tickets', summary: 'Delete a note', answer: { status: 200, description: 'The deleted note', schema: ticketNoteViewSchema } },
];

/** /api/ticket-notes: the notes of the ticket drawer. */
export function ticketNotesRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const notes = c.services.ticketNotes;
  const auth = requireAuth(c);

  router.get('/ticket-notes/list', auth, async (ctx) => {
    ctx.body = await notes.list(ctx.state.user, validate(listNotesQuery, ctx.query));
  });

  router.post('/ticket-notes', auth, async (ctx) => {
    const input = validate(createNoteSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await notes.create(ctx.state.user, input);
  });

  router.delete('/ticket-notes/:id', auth, async (ctx) => {
    ctx.body = await notes.remove(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_TICKET_NOTE_FOUND));
  });

  return router;
}
