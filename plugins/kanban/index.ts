import { definePlugin, z, type RouteDoc } from 'atende/plugin';
import { kanbanRoutes } from './kanban.routes.js';

/**
 * The kanban board (spec: Kanban): lanes are the company's kanban tags, cards the open and pending
 * tickets; plan flag useKanban. No tables of its own, no channel of its own: the board follows the
 * core's ticket frames, which already go only to whom may see each ticket.
 */
/** Its route under /tags (an API token with tags:read reaches it), in the OpenAPI document. */
const apiDocs: RouteDoc[] = [
  {
    method: 'GET',
    path: '/tags/kanban',
    tag: 'tags',
    summary: "The kanban's lanes (plan flag useKanban)",
    answer: { status: 200, description: 'The kanban tags', schema: z.object({ lista: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string() }).loose()) }) },
  },
];

export default definePlugin({
  name: 'kanban',
  flag: 'useKanban',
  web: 'web',
  routes: kanbanRoutes,
  apiDocs,
});
