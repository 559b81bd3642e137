import type { CampaignEvent, CampaignPage, CampaignStatusValue, CampaignView } from '../../campaigns/campaign.contract';

export { campaignEditable, MESSAGE_NUMBERS } from '../../campaigns/campaign.contract';
export type CampaignRecord = CampaignView;
export type { CampaignEvent, CampaignPage, CampaignStatusValue };

export const campaignChannel = (companyId: number) => `company-${companyId}-campaign`;

/** The server's order: newest first. */
export const newestFirst = (a: { id: number }, b: { id: number }) => b.id - a.id;

/** Where the dispatch's report of a campaign lives (spec: /campaign/{campaignId}/report). */
export const reportHref = (id: number) => `/campaign/${id}/report`;
