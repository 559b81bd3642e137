/**
 * What an API token may do: read or write on a few resources of its company. A request's scope
 * follows from its path and method (GET reads, anything else writes); a path of no resource
 * (users, settings, connections, super users' routes…) is never a token's.
 */
export const API_RESOURCES = ['contacts', 'tickets', 'messages', 'tags', 'queues'] as const;
export type ApiResource = (typeof API_RESOURCES)[number];
export type ApiAccess = 'read' | 'write';
export type ApiScope = `${ApiResource}:${ApiAccess}`;

export const API_SCOPES: readonly ApiScope[] = API_RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`] as ApiScope[]);

/** The first segment under /api of each resource's routes (a ticket's notes are the ticket's; a message's files, the messages'). */
const RESOURCE_OF_SEGMENT: Readonly<Record<string, ApiResource>> = {
  contacts: 'contacts',
  tickets: 'tickets',
  'ticket-notes': 'tickets',
  messages: 'messages',
  media: 'messages',
  tags: 'tags',
  queue: 'queues',
};

/** The scope a request to `path` (the full path, /api/…) needs, or null when no token may make it. */
export function requiredScope(method: string, path: string): ApiScope | null {
  const match = /^\/api\/([^/]+)(?:\/|$)/.exec(path);
  const resource = match ? RESOURCE_OF_SEGMENT[match[1]] : undefined;
  if (!resource) return null;
  const read = method === 'GET' || method === 'HEAD';
  return `${resource}:${read ? 'read' : 'write'}`;
}

/** A write scope includes the read of the same resource. */
export function scopeAllows(scopes: readonly string[], needed: ApiScope): boolean {
  if (scopes.includes(needed)) return true;
  const [resource, access] = needed.split(':');
  return access === 'read' && scopes.includes(`${resource}:write`);
}
