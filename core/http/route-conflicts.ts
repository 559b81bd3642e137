import { ConfigError } from '../config/load-config.js';
import type { AppRouter } from './context.js';

export interface OwnedRoute {
  /** `the core` or `plugin <name>`. */
  owner: string;
  method: string;
  /** The path inside /api, as the router declares it (`/tickets/:ticketId`). */
  path: string;
}

export function ownedRoutes(owner: string, router: AppRouter): OwnedRoute[] {
  return router.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ owner, method, path: String(layer.path) })),
  );
}

const isParam = (segment: string) => segment.startsWith(':');
const isWildcard = (segment: string) => segment.startsWith('*') || segment === '(.*)';

/** Whether some request path matches both patterns: segment by segment, a parameter matches anything. */
function overlap(a: string, b: string): boolean {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const x = left[i];
    const y = right[i];
    if ((x !== undefined && isWildcard(x)) || (y !== undefined && isWildcard(y))) return true;
    if (x === undefined || y === undefined) return false;
    if (x !== y && !isParam(x) && !isParam(y)) return false;
  }
  return true;
}

/**
 * Whether `narrow` matches only requests `wide` matches, and fewer: the same segments, with a
 * literal where `wide` has a parameter at least once (`/tags/kanban` narrows `/tags/:id`).
 */
function narrows(narrow: string, wide: string): boolean {
  const left = narrow.split('/');
  const right = wide.split('/');
  if (left.length !== right.length || [...left, ...right].some(isWildcard)) return false;
  let literalForParam = false;
  for (let i = 0; i < left.length; i += 1) {
    const x = left[i]!;
    const y = right[i]!;
    if (isParam(y) && !isParam(x)) literalForParam = true;
    else if (isParam(x) !== isParam(y) || (!isParam(x) && x !== y)) return false;
  }
  return literalForParam;
}

/**
 * Refuses a plugin route that would take requests meant for a core route or another plugin's, or
 * leave them to it: one of the two would silently never run. Plugin routers are mounted before the
 * core's, so a plugin may narrow a core route, a literal where the core has a parameter
 * (`GET /tags/kanban` beside the core's `GET /tags/:id`): that one path is the plugin's, every other
 * stays the core's. Between plugins, any overlap is refused.
 */
export function assertNoShadowing(core: OwnedRoute[], plugins: OwnedRoute[]): void {
  const earlier = [...core];
  for (const route of plugins) {
    const other = earlier.find(
      (e) => e.owner !== route.owner && e.method === route.method && overlap(e.path, route.path) && !(e.owner === 'the core' && narrows(route.path, e.path)),
    );
    if (other) {
      throw new ConfigError(
        `${route.owner}: route ${route.method} /api${route.path} shadows ${other.method} /api${other.path} of ${other.owner}`,
      );
    }
    earlier.push(route);
  }
}
