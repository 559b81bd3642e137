import type { Knex } from 'knex';
import { canonicalNumber, type PluginApp } from 'atende/plugin';
import { Campaign } from '../campaigns/campaign.model.js';
import { ContactListItem } from '../contact-lists/contact-list.model.js';
import { optedOut } from '../opt-outs/opted-out.js';
import type { CampaignSettings } from '../settings/campaign-settings.service.js';
import { fillVariables, pickVariant, type Recipient } from './message-plan.js';
import { Shipping } from './shipping.model.js';

/** Rows written per insert: under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 200;

interface AudienceMember extends Recipient {
  contactListItemId: number | null;
  contactId: number | null;
}

/** Audience members read (and rows written) at a time: a 100,000-number list is never held whole. */
const PAGE = 1000;

type Tagged = Awaited<ReturnType<PluginApp['services']['contacts']['withTag']>>;

/**
 * Who a campaign goes to, a page at a time: the WhatsApp-valid items of its contact list (by id),
 * or the company's contacts holding its tag (`tagged`, read through the core's contacts service).
 */
async function* audienceOf(trx: Knex, campaign: Campaign, tagged: Tagged): AsyncGenerator<AudienceMember[]> {
  if (campaign.contactListId) {
    for (let after = 0; ; ) {
      const items = await ContactListItem.query(trx)
        .where({ companyId: campaign.companyId, contactListId: campaign.contactListId, isWhatsappValid: true })
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .select('id', 'name', 'number', 'email');
      if (items.length === 0) return;
      after = items.at(-1)!.id;
      yield items.map((i) => ({ name: i.name, number: i.number, email: i.email, contactListItemId: i.id, contactId: null }));
    }
  }
  if (campaign.tagListId) {
    for (let i = 0; i < tagged.length; i += PAGE) {
      yield tagged.slice(i, i + PAGE).map((c) => ({ name: c.name, number: canonicalNumber(c.number), email: c.email ?? '', contactListItemId: null, contactId: c.id }));
    }
  }
}

/**
 * Gives a campaign its shipping rows, in `trx`: each member's message chosen and filled in now
 * (so a restart never picks another variant), opted-out numbers written as skipped. A number met
 * twice keeps its first row.
 */
async function writeShippings(trx: Knex, campaign: Campaign, settings: CampaignSettings, tagged: Tagged): Promise<void> {
  for await (const page of audienceOf(trx, campaign, tagged)) {
    const members = page.filter((m) => m.number);
    const optOuts = await optedOut(trx, campaign.companyId, members.map((m) => m.number));
    const now = new Date().toISOString();
    const rows = members.map((member) => {
      const variant = pickVariant(campaign);
      const skipped = optOuts.has(member.number);
      return {
        campaignId: campaign.id,
        companyId: campaign.companyId,
        number: member.number,
        name: member.name.slice(0, 100),
        email: member.email.slice(0, 255),
        contactListItemId: member.contactListItemId,
        contactId: member.contactId,
        state: skipped ? 'skipped' : 'pending',
        failureReason: skipped ? 'opted_out' : null,
        message: fillVariables(variant.message, member, settings.variables),
        confirmationMessage: campaign.confirmation && variant.confirmation ? fillVariables(variant.confirmation, member, settings.variables) : null,
        createdAt: now,
        updatedAt: now,
      };
    });
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx(Shipping.tableName).insert(rows.slice(i, i + INSERT_CHUNK)).onConflict(['campaignId', 'number']).ignore();
    }
  }
}

/**
 * A campaign whose time came (PROGRAMADA, scheduled_at <= now) becomes EM_ANDAMENTO with its
 * shipping rows, in one transaction; a campaign another process started meanwhile is left alone.
 * Answers whether this call started it.
 */
export async function startCampaign(app: PluginApp, campaign: Campaign, settings: CampaignSettings, from: Campaign['status'] = 'PROGRAMADA'): Promise<boolean> {
  // Read before the transaction: the contacts service reads on its own connection, which SQLite's
  // single one, held by the transaction, would never give it.
  const tagged = campaign.tagListId ? await app.services.contacts.withTag(campaign.companyId, campaign.tagListId) : [];
  return app.db.transaction(async (trx) => {
    const taken = await Campaign.query(trx)
      .where({ id: campaign.id, status: from })
      .patch({ status: 'EM_ANDAMENTO', pauseReason: null, completedAt: null });
    if (taken === 0) return false;
    await writeShippings(trx, campaign, settings, tagged);
    return true;
  });
}
