import { definePlugin } from 'atende/plugin';
import { kanbanRoutes } from './kanban.routes.js';

/**
 * The kanban board (spec: Kanban): lanes are the company's kanban tags, cards the open and pending
 * tickets; plan flag useKanban. No tables of its own, no channel of its own: the board follows the
 * core's ticket frames, which already go only to whom may see each ticket.
 */
export default definePlugin({
  name: 'kanban',
  flag: 'useKanban',
  web: 'web',
  routes: kanbanRoutes,
});
