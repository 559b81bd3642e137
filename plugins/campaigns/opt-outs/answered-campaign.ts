import type { Knex } from 'knex';
import { Campaign } from '../campaigns/campaign.model.js';

/**
 * The campaign a customer's message answers: the newest campaign of the company whose contact
 * list holds `number` (canonical digits), or null when no campaign was meant for that number.
 * Tag campaigns are not counted here: what tells who received a campaign is its shippings, which
 * this lookup gives way to once they exist.
 */
export async function answeredCampaignId(db: Knex, companyId: number, number: string): Promise<number | null> {
  const row = await Campaign.query(db)
    .join('contact_list_items', 'contact_list_items.contactListId', 'campaigns.contactListId')
    .where('campaigns.companyId', companyId)
    .where('contact_list_items.companyId', companyId)
    .where('contact_list_items.number', number)
    .orderBy('campaigns.id', 'desc')
    .select('campaigns.id')
    .first();
  return row?.id ?? null;
}
