/** The dispatch API's answers, for the server and the report page. No imports. */

export type ShippingStateName = 'pending' | 'queued' | 'awaiting' | 'sent' | 'delivered' | 'read' | 'failed' | 'skipped';
export type ShippingCounts = Record<ShippingStateName, number>;
/** Why a running campaign waits. */
export type CampaignPauseReason = 'disconnected' | 'daily_cap' | 'rate_limited';

export interface CampaignReportCampaign {
  id: number;
  name: string;
  status: 'INATIVA' | 'PROGRAMADA' | 'EM_ANDAMENTO' | 'CANCELADA' | 'FINALIZADA';
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | null;
  pauseReason: string | null;
  contactList: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
}

/** GET /campaigns/:id/report */
export interface CampaignReport {
  campaign: CampaignReportCampaign;
  /** The contacts the campaign goes to (WhatsApp-valid, opted-out ones aside once started). */
  validContacts: number;
  counts: ShippingCounts;
  /** Delivered or read. */
  delivered: number;
  /** delivered / validContacts, 0..100. */
  deliveredPercent: number;
  confirmationsRequested: number;
  confirmations: number;
  /** The first failures, oldest first (their number is counts.failed). */
  failures: { number: string; name: string; reason: string }[];
  /** Numbers that opted out answering this campaign. */
  optOuts: number;
  pauseReason: CampaignPauseReason | string | null;
  /** When a campaign WhatsApp limited goes on. */
  resumeAt: string | null;
  /** When its last message should leave at the settings' pace and daily cap; null when it is not sending. */
  estimatedCompletionAt: string | null;
}
