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
 * Refuses a plugin route that some request could reach through an earlier route (the core's or
 * another plugin's) or that would take requests meant for one: the earlier route answers first,
 * so one of the two would silently never run.
 */
export function assertNoShadowing(core: OwnedRoute[], plugins: OwnedRoute[]): void {
  const earlier = [...core];
  for (const route of plugins) {
    const other = earlier.find((e) => e.owner !== route.owner && e.method === route.method && overlap(e.path, route.path));
    if (other) {
      throw new ConfigError(
        `${route.owner}: route ${route.method} /api${route.path} shadows ${other.method} /api${other.path} of ${other.owner}`,
      );
    }
    earlier.push(route);
  }
}
