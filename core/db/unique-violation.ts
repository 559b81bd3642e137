import objection from 'objection';
import type { AppError } from '../errors.js';

const { UniqueViolationError } = objection;

/**
 * Runs a write whose uniqueness the service checked first; when two writers race past that check
 * and the unique index decides, the loser gets the same error as the check would have given.
 */
export async function uniqueOr<T>(write: () => PromiseLike<T>, conflict: () => AppError): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueViolationError) throw conflict();
    throw err;
  }
}

/**
 * A unique index refused the write, whether it came through an Objection model (wrapped) or a
 * plain knex query (the driver's own error: PostgreSQL's SQLSTATE 23505, SQLite's extended code).
 */
export function isUniqueViolation(err: unknown): boolean {
  if (err instanceof UniqueViolationError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
