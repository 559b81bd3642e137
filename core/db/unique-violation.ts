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
