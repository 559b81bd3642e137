import type { QueueSummary as QueueRef } from '../../../core/contract/views';

export type { QueueRef };

export type Profile = 'admin' | 'user' | 'supervisor';

export interface Setting {
  key: string;
  value: string;
}

export interface SessionCompany {
  id: number;
  name: string;
  dueDate: string | null;
  status: boolean;
  planId: number | null;
  recurrence: string;
  settings: Setting[];
}

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  financial: boolean;
  companyId: number;
  allTicket: 'enabled' | 'disabled';
  whatsappId: number | null;
  online: boolean;
  queues: QueueRef[];
  company: SessionCompany;
}

export const PLAN_FLAGS = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const;

export type PlanFlag = (typeof PLAN_FLAGS)[number];

export interface Plan extends Record<PlanFlag, boolean> {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
  /** Every flag of the installation (the spec's seven included) and every declared limit. */
  features: Record<string, boolean>;
  limits: Record<string, number>;
}

export type PlanLabel = Record<'pt-BR' | 'en' | 'es', string>;

/** GET /api/plans/features: the flags and limits a plan can set, with their labels. */
export interface PlanCatalogue {
  features: { key: string; label: PlanLabel; plugin: string | null }[];
  limits: { key: string; label: PlanLabel; default: number; plugin: string }[];
}

export interface LoginAnswer {
  token: string;
  user: SessionUser;
}

/**
 * The API's answers as the server declares them (core/contract/views.ts), under the names the
 * pages use. Types only: nothing of the server reaches the bundle.
 */
export type {
  ConnectionStatus,
  ContactDetail,
  ContactView,
  MediaType as MessageMediaType,
  MessageView as ChatMessage,
  Provider,
  TicketContact,
  TicketNoteView as TicketNote,
  TicketStatus,
  TicketView as Ticket,
  WhatsappView,
} from '../../../core/contract/views';
