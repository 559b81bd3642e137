export type Profile = 'admin' | 'user' | 'supervisor';

export interface Setting {
  key: string;
  value: string;
}

export interface QueueRef {
  id: number;
  name: string;
  color: string;
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

export type TicketStatus = 'pending' | 'open' | 'closed';

export interface TicketContact {
  id: number;
  uuid: string;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
}

/** A ticket as GET /api/tickets and the company-{id}-ticket events carry it. */
export interface Ticket {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  unreadMessages: number;
  lastMessage: string;
  isGroup: boolean;
  fromMe: boolean;
  userId: number | null;
  contactId: number;
  whatsappId: number | null;
  queueId: number | null;
  queueOptionId: number | null;
  chatbot: boolean;
  useIntegration: boolean;
  integrationId: number | null;
  promptId: number | null;
  createdAt: string;
  updatedAt: string;
  contact: TicketContact;
  queue: { id: number; name: string; color: string } | null;
  user: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  tags: { id: number; name: string; color: string }[];
}

export type MessageMediaType = 'image' | 'audio' | 'video' | 'application' | 'sticker' | 'locationMessage' | 'vcard' | 'call_log';

/** A message as GET /api/messages/:ticketId and the company-{id}-appMessage events carry it. */
export interface ChatMessage {
  id: number;
  wid: string;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  /** 0 waiting, 1 sent, 2 delivered, 3 read, 4–5 played. */
  ack: number;
  mediaType: MessageMediaType | null;
  /** Authenticated: fetch with the token as a blob. */
  mediaUrl: string | null;
  mediaName: string | null;
  mediaMime: string | null;
  location: { latitude: number; longitude: number; name?: string; address?: string } | null;
  vcard: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  sendStatus: 'received' | 'queued' | 'sent' | 'failed';
  sendError: string | null;
  quotedMsg: ChatMessage | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketNote {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
}
