import type { Knex } from 'knex';
import { Shipping } from '../dispatch/shipping.model.js';

/**
 * The campaign a customer's message answers: the newest campaign of the company that sent (or
 * asked for confirmation from) `number` (canonical digits), or null when none was sent to it.
 */
export async function answeredCampaignId(db: Knex, companyId: number, number: string): Promise<number | null> {
  const row = await Shipping.query(db)
    .where({ companyId, number })
    .whereIn('state', ['sent', 'delivered', 'read', 'awaiting'])
    .orderBy('campaignId', 'desc')
    .select('campaignId')
    .first();
  return row?.campaignId ?? null;
}
