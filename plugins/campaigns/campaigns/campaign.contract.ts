/**
 * The campaigns API's answers, declared once for the server and the plugin's pages (which import
 * them as types). No imports, so a page pulls in nothing of the server.
 */

/** Spec §4 Campaign status. */
export type CampaignStatusValue = 'INATIVA' | 'PROGRAMADA' | 'EM_ANDAMENTO' | 'CANCELADA' | 'FINALIZADA';

/** The message fields: five variants, each with its confirmation message. */
export const MESSAGE_NUMBERS = [1, 2, 3, 4, 5] as const;

export interface CampaignMessages {
  message1: string | null;
  message2: string | null;
  message3: string | null;
  message4: string | null;
  message5: string | null;
  confirmationMessage1: string | null;
  confirmationMessage2: string | null;
  confirmationMessage3: string | null;
  confirmationMessage4: string | null;
  confirmationMessage5: string | null;
}

export interface CampaignView extends CampaignMessages {
  id: number;
  companyId: number;
  name: string;
  status: CampaignStatusValue;
  confirmation: boolean;
  /** ISO instant (UTC), or null: not scheduled. */
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  /** A tag: the campaign goes to the contacts holding it, instead of a contact list (null: 'Nenhuma'). */
  tagListId: number | null;
  /** A file list of the files plugin, sent before the message. */
  fileListId: number | null;
  /** The attachment's stored name (no spaces), what /api/media serves. */
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  /** Why a running campaign waits, or null. */
  pauseReason: string | null;
  contactList: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /campaigns: a page of 20, newest first. */
export interface CampaignPage {
  records: CampaignView[];
  count: number;
  hasMore: boolean;
}

/** The frames of company-{id}-campaign; a delete carries the campaign as it was. */
export interface CampaignEvent {
  action: 'create' | 'update' | 'delete';
  record: CampaignView;
}

/** How far ahead a scheduled campaign must be to be changed (spec §4, §9). */
export const EDIT_LEAD_MS = 60 * 60 * 1000;

/**
 * Spec §4: a campaign may be changed while INATIVA, or PROGRAMADA more than 1 hour ahead; a
 * CANCELADA one may still be saved (it stays CANCELADA). The server and the dialog use this one rule.
 */
export function campaignEditable(campaign: Pick<CampaignView, 'status' | 'scheduledAt'>, now = Date.now()): boolean {
  if (campaign.status === 'INATIVA' || campaign.status === 'CANCELADA') return true;
  return campaign.status === 'PROGRAMADA' && campaign.scheduledAt !== null && Date.parse(campaign.scheduledAt) - now > EDIT_LEAD_MS;
}
