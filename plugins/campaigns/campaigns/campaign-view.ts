import type { PluginApp } from 'atende/plugin';
import { ContactList } from '../contact-lists/contact-list.model.js';
import type { CampaignEvent, CampaignView } from './campaign.contract.js';
import { Campaign } from './campaign.model.js';

/**
 * Campaigns as the API and the live frames show them: with their contact list's and connection's
 * names, two lookups whatever the count. No user at hand is needed, so the dispatch builds the same
 * views for its status changes.
 */
export async function toCampaignViews(app: PluginApp, campaigns: Campaign[]): Promise<CampaignView[]> {
  if (campaigns.length === 0) return [];
  const companyId = campaigns[0]!.companyId;
  const listIds = [...new Set(campaigns.flatMap((c) => (c.contactListId === null ? [] : [c.contactListId])))];
  const whatsappIds = [...new Set(campaigns.flatMap((c) => (c.whatsappId === null ? [] : [c.whatsappId])))];
  const [lists, connections] = await Promise.all([
    listIds.length === 0 ? [] : ContactList.query(app.db).where('companyId', companyId).whereIn('id', listIds).select('id', 'name'),
    whatsappIds.length === 0 ? [] : app.services.whatsapps.summaries(companyId, whatsappIds),
  ]);
  const listName = new Map(lists.map((l) => [l.id, l.name]));
  const connectionName = new Map(connections.map((w) => [w.id, w.name]));
  return campaigns.map((c) => ({
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    status: c.status,
    confirmation: c.confirmation,
    scheduledAt: c.scheduledAt,
    completedAt: c.completedAt,
    whatsappId: c.whatsappId,
    contactListId: c.contactListId,
    tagListId: c.tagListId,
    fileListId: c.fileListId,
    message1: c.message1,
    message2: c.message2,
    message3: c.message3,
    message4: c.message4,
    message5: c.message5,
    confirmationMessage1: c.confirmationMessage1,
    confirmationMessage2: c.confirmationMessage2,
    confirmationMessage3: c.confirmationMessage3,
    confirmationMessage4: c.confirmationMessage4,
    confirmationMessage5: c.confirmationMessage5,
    mediaPath: c.mediaPath,
    mediaName: c.mediaName,
    // As the messages module builds it: /api/media serves the caller's company's files by stored name.
    mediaUrl: c.mediaPath ? `/api/media/${encodeURIComponent(c.mediaPath)}` : null,
    pauseReason: c.pauseReason,
    contactList: c.contactListId !== null && listName.has(c.contactListId) ? { id: c.contactListId, name: listName.get(c.contactListId)! } : null,
    whatsapp: c.whatsappId !== null && connectionName.has(c.whatsappId) ? { id: c.whatsappId, name: connectionName.get(c.whatsappId)! } : null,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  }));
}

export async function loadCampaignView(app: PluginApp, companyId: number, id: number): Promise<CampaignView | undefined> {
  const campaign = await Campaign.query(app.db).findOne({ id, companyId });
  return campaign && (await toCampaignViews(app, [campaign]))[0];
}

/**
 * The spec's channel, `company-{id}-campaign`, to every socket of the company (every user reads
 * its campaigns): `{ action, record }`. The dispatch announces its status changes through it too.
 */
export function publishCampaign(app: PluginApp, action: CampaignEvent['action'], record: CampaignView): void {
  const event: CampaignEvent = { action, record };
  app.realtime.publish(record.companyId, `company-${record.companyId}-campaign`, event);
}
