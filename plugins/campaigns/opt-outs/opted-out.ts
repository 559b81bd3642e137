import type { Knex } from 'knex';
import { OptOut } from './opt-out.model.js';

/** Which of these numbers (canonical) are on the company's opt-out list. */
export async function optedOut(db: Knex, companyId: number, numbers: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  // Chunks keep each query under SQLite's bound-parameter limit.
  for (let i = 0; i < numbers.length; i += 500) {
    const rows = await OptOut.query(db).where('companyId', companyId).whereIn('number', numbers.slice(i, i + 500)).select('number');
    for (const row of rows) found.add(row.number);
  }
  return found;
}
