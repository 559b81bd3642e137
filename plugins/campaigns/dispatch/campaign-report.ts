import { zonedDayStart, type PluginApp } from 'atende/plugin';
import type { Campaign } from '../campaigns/campaign.model.js';
import { ContactListItem } from '../contact-lists/contact-list.model.js';
import { OptOut } from '../opt-outs/opt-out.model.js';
import type { CampaignSettings } from '../settings/campaign-settings.service.js';
import { companyTimeZone, dayIn } from './company-day.js';
import type { CampaignReport, ShippingCounts } from './dispatch.contract.js';
import { SHIPPING_STATES, Shipping } from './shipping.model.js';

/** Failures listed on the report (their count is given in full). */
export const REPORT_FAILURES = 20;

/**
 * The report's figures (spec: Campaign report, plus counts per state, failures, opt-outs, the
 * pause and an estimate of the end): a handful of grouped counts whatever the campaign's size.
 */
export async function campaignReport(app: PluginApp, campaign: Campaign, settings: CampaignSettings, now = new Date()): Promise<CampaignReport> {
  const db = app.db;
  const grouped = (await Shipping.query(db).where({ campaignId: campaign.id }).groupBy('state').select('state').count('* as n')) as unknown as { state: string; n: number | string }[];
  const counts = Object.fromEntries(SHIPPING_STATES.map((s) => [s, 0])) as ShippingCounts;
  for (const { state, n } of grouped) if (state in counts) counts[state as keyof ShippingCounts] = Number(n);
  const rows = Object.values(counts).reduce((a, b) => a + b, 0);

  const [requested, confirmed, failures, optOuts, names, resume] = await Promise.all([
    Shipping.query(db).where({ campaignId: campaign.id }).whereNotNull('confirmationRequestedAt').resultSize(),
    Shipping.query(db).where({ campaignId: campaign.id }).whereNotNull('confirmedAt').resultSize(),
    Shipping.query(db).where({ campaignId: campaign.id, state: 'failed' }).orderBy('id').limit(REPORT_FAILURES).select('number', 'name', 'failureReason'),
    OptOut.query(db).where({ companyId: campaign.companyId, campaignId: campaign.id }).resultSize(),
    namesOf(app, campaign),
    db('campaigns').where({ id: campaign.id }).first('resumeAt') as Promise<{ resumeAt: string | Date | null } | undefined>,
  ]);
  // Before its start the audience is counted where it comes from; after, its rows are (opted-out ones aside).
  const validContacts = rows > 0 ? rows - counts.skipped : await audienceSize(app, campaign);
  const delivered = counts.delivered + counts.read;
  const remaining = counts.pending + counts.queued;
  const timeZone = await companyTimeZone(app, campaign.companyId);
  return {
    campaign: { ...campaign.toJSON(), ...names } as CampaignReport['campaign'],
    validContacts,
    counts,
    delivered,
    deliveredPercent: validContacts > 0 ? Math.round((delivered / validContacts) * 100) : 0,
    confirmationsRequested: requested,
    confirmations: confirmed,
    failures: failures.map((f) => ({ number: f.number, name: f.name, reason: f.failureReason ?? '' })),
    optOuts,
    pauseReason: campaign.status === 'EM_ANDAMENTO' ? campaign.pauseReason : null,
    resumeAt: resume?.resumeAt ? new Date(resume.resumeAt).toISOString() : null,
    estimatedCompletionAt: estimateEnd(campaign, campaign.status === 'PROGRAMADA' ? validContacts : remaining, settings, timeZone, now),
  };
}

async function namesOf(app: PluginApp, campaign: Campaign): Promise<Pick<CampaignReport['campaign'], 'contactList' | 'whatsapp'>> {
  const [list, connection] = await Promise.all([
    campaign.contactListId ? app.db('contact_lists').where({ id: campaign.contactListId }).first('id', 'name') : undefined,
    campaign.whatsappId ? app.db('whatsapps').where({ id: campaign.whatsappId }).first('id', 'name') : undefined,
  ]);
  return { contactList: (list as { id: number; name: string } | undefined) ?? null, whatsapp: (connection as { id: number; name: string } | undefined) ?? null };
}

async function audienceSize(app: PluginApp, campaign: Campaign): Promise<number> {
  if (campaign.contactListId) {
    return ContactListItem.query(app.db).where({ companyId: campaign.companyId, contactListId: campaign.contactListId, isWhatsappValid: true }).resultSize();
  }
  if (campaign.tagListId) return (await app.services.contacts.withTag(campaign.companyId, campaign.tagListId)).length;
  return 0;
}

/**
 * When the last of `remaining` messages should leave: the mean pause between messages (half the
 * message interval, plus the longer pause spread over its messages) from now (or the scheduled
 * time), the daily cap pushing what does not fit today to the following days. Null for a campaign
 * that is not going to send.
 */
export function estimateEnd(campaign: Campaign, remaining: number, settings: CampaignSettings, timeZone: string, now: Date): string | null {
  if (campaign.status !== 'EM_ANDAMENTO' && campaign.status !== 'PROGRAMADA') return null;
  if (remaining === 0) return campaign.status === 'EM_ANDAMENTO' ? now.toISOString() : campaign.scheduledAt;
  const start = campaign.status === 'PROGRAMADA' && campaign.scheduledAt ? new Date(Math.max(new Date(campaign.scheduledAt).getTime(), now.getTime())) : now;
  const longer = settings.longerIntervalAfter > 0 ? settings.greaterInterval / settings.longerIntervalAfter : 0;
  const meanMs = (settings.messageInterval / 2 + longer) * 1000;
  const cap = settings.dailyCap;
  if (remaining <= cap) return new Date(start.getTime() + remaining * meanMs).toISOString();
  // Whole days of the cap after today's share; the rest on the last day from its start.
  const fullDays = Math.floor((remaining - 1) / cap);
  const lastDayCount = remaining - fullDays * cap;
  const day = dayIn(timeZone, start);
  const lastDay = new Date(new Date(`${day}T12:00:00Z`).getTime() + fullDays * 86_400_000).toISOString().slice(0, 10);
  return new Date(new Date(zonedDayStart(lastDay, timeZone)).getTime() + lastDayCount * meanMs).toISOString();
}
