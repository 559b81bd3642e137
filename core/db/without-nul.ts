/**
 * The value with NUL removed from every string, at any depth (plain objects, the prototype-less
 * ones Koa parses query strings into, and arrays; never a Buffer or Date). PostgreSQL text cannot
 * hold NUL and no keyboard types it, so whatever enters (a request, a provider's event) drops it:
 * one rule for both databases. Values under a key in `keep` are left as they are.
 */
export function withoutNul<T>(value: T, keep: ReadonlySet<string> = NONE): T {
  if (typeof value === 'string') return (value.includes('\0') ? value.replaceAll('\0', '') : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutNul(item, keep)) as T;
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, keep.has(key) ? inner : withoutNul(inner, keep)])) as T;
  }
  return value;
}

const NONE: ReadonlySet<string> = new Set();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
