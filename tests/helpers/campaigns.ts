import type { TestServer } from './server.js';

/** Campaign fixtures written straight to the database (one place to change once the campaigns routes exist here). */

export interface Recipient {
  name: string;
  number: string;
  email?: string;
}

/** `count` São Paulo mobiles (canonical), numbered from `from`. */
export function people(count: number, from = 0): Recipient[] {
  return Array.from({ length: count }, (_, i) => ({ name: `Cliente ${from + i}`, number: `55119${String(70_000_000 + from + i).padStart(8, '0')}`, email: `c${from + i}@mail.test` }));
}

function insertedId(row: unknown): number {
  return typeof row === 'object' ? (row as { id: number }).id : (row as number);
}

/** A contact list whose numbers are checked valid on WhatsApp. */
export async function createList(server: TestServer, companyId: number, recipients: Recipient[]): Promise<number> {
  const db = server.atende.container.db;
  const now = new Date().toISOString();
  const [row] = await db('contact_lists').insert({ companyId, name: `Lista ${Math.random().toString(36).slice(2, 8)}`, createdAt: now, updatedAt: now }).returning('id');
  const listId = insertedId(row);
  const items = recipients.map((r) => ({
    companyId,
    contactListId: listId,
    name: r.name,
    number: r.number,
    email: r.email ?? '',
    isWhatsappValid: true,
    whatsappCheckedAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < items.length; i += 100) await db('contact_list_items').insert(items.slice(i, i + 100));
  return listId;
}

/** A campaign, PROGRAMADA for now unless `fields` say otherwise. */
export async function createCampaign(server: TestServer, companyId: number, fields: Record<string, unknown>): Promise<number> {
  const now = new Date().toISOString();
  const [row] = await server.atende.container
    .db('campaigns')
    .insert({ companyId, name: 'Campanha', status: 'PROGRAMADA', scheduledAt: now, createdAt: now, updatedAt: now, ...fields })
    .returning('id');
  return insertedId(row);
}
