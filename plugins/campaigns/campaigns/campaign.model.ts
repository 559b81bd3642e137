import { BaseModel } from 'atende/plugin';

export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export class Campaign extends BaseModel {
  static override tableName = 'campaigns';
  static override booleanFields = ['confirmation'];

  companyId!: number;
  name!: string;
  status!: CampaignStatus;
  confirmation!: boolean;
  scheduledAt!: string | null;
  completedAt!: string | null;
  whatsappId!: number | null;
  contactListId!: number | null;
  tagListId!: number | null;
  fileListId!: number | null;
  message1!: string | null;
  message2!: string | null;
  message3!: string | null;
  message4!: string | null;
  message5!: string | null;
  confirmationMessage1!: string | null;
  confirmationMessage2!: string | null;
  confirmationMessage3!: string | null;
  confirmationMessage4!: string | null;
  confirmationMessage5!: string | null;
  mediaPath!: string | null;
  mediaName!: string | null;
  pauseReason!: string | null;
}
