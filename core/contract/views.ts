/**
 * What the API answers and the live frames carry, declared once: the server builds these views
 * and the web reads them (`import type`, so the bundle gets nothing from here). Only types and
 * the constant lists they come from; no imports.
 */

export type ConnectionStatus = 'OPENING' | 'qrcode' | 'PAIRING' | 'CONNECTED' | 'DISCONNECTED' | 'TIMEOUT';

/** The providers a connection may name (`whatsapps.provider`). */
export const PROVIDERS = ['baileys', 'simulator'] as const;
export type Provider = (typeof PROVIDERS)[number];

export type MediaType = 'image' | 'audio' | 'video' | 'application' | 'sticker' | 'locationMessage' | 'vcard' | 'call_log';

/** Where an outgoing message stands in the durable send queue; 'received' for everything inbound. */
export type SendStatus = 'received' | 'queued' | 'sent' | 'failed';

export type TicketStatus = 'pending' | 'open' | 'closed';

export interface MessageLocation {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** A queue as users, connections and tickets name it. */
export interface QueueSummary {
  id: number;
  name: string;
  color: string;
}

/** A message as GET /api/messages/:ticketId and the company-{id}-appMessage frames carry it. */
/** Who did something: a person (a user) or a company API token acting for the company. */
export interface Actor {
  type: 'user' | 'apiToken';
  id: number;
  name: string;
}

export interface MessageView {
  id: number;
  wid: string;
  ticketId: number;
  contactId: number | null;
  /** The agent who wrote it; null for customers, bots, automatic texts and API tokens. */
  userId: number | null;
  /** The company API token that sent it (then userId is null); null otherwise. */
  apiToken: { id: number; name: string } | null;
  body: string;
  fromMe: boolean;
  /** The bot (a conversation step's name, `prompts.answer`) that wrote it; null for people. */
  bot: string | null;
  read: boolean;
  /** 0 waiting, 1 sent, 2 delivered, 3 read, 4–5 played. */
  ack: number;
  mediaType: MediaType | null;
  /** Authenticated: the client fetches it with its token, as a blob. */
  mediaUrl: string | null;
  mediaName: string | null;
  mediaMime: string | null;
  /** What a voice note says, shown under the audio: a bot's transcription of the customer's, or the text of a bot's voice answer. */
  transcript: string | null;
  location: MessageLocation | null;
  vcard: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  sendStatus: SendStatus;
  sendError: string | null;
  quotedMsg: MessageView | null;
  createdAt: string;
  updatedAt: string;
}

/** The contact of a ticket, reduced to what a ticket row and header need. */
export interface TicketContact {
  id: number;
  uuid: string;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
}

/** A ticket as GET /api/tickets and the company-{id}-ticket frames carry it (the ticket graph). */
export interface TicketView {
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
  /** How many times the queue menu was sent in this attendance. */
  amountUsedBotQueues: number;
  createdAt: string;
  updatedAt: string;
  contact: TicketContact;
  queue: QueueSummary | null;
  user: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  tags: { id: number; name: string; color: string }[];
}

/**
 * An open or pending ticket as a board shows it (the kanban's card, spec §3): a TicketView narrowed
 * to these fields is one, so a board takes the company-{id}-ticket frames as they come.
 */
export interface TicketCardView extends Pick<TicketView, 'id' | 'uuid' | 'status' | 'userId' | 'queueId' | 'lastMessage' | 'updatedAt'> {
  contact: Pick<TicketContact, 'id' | 'name' | 'number'>;
  tags: { id: number }[];
}

/** The contact's other open attendance on the connection, as a 409 ERR_OTHER_OPEN_TICKET names it (its message is this as JSON). */
export interface OtherOpenTicketView {
  id: number;
  uuid: string;
  userId: number | null;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string } | null;
  status: TicketStatus;
}

/** A tag as the API shows it, with how many tickets carry it. */
export interface TagView {
  id: number;
  companyId: number;
  name: string;
  color: string;
  kanban: number;
  userId: number | null;
  ticketsCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A quick reply as the API shows it; `mediaUrl` is where the client fetches the attachment. */
export interface QuickMessageView {
  id: number;
  companyId: number;
  userId: number | null;
  shortcode: string;
  message: string;
  geral: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/dashboard (admins): the period's counters (times in minutes, one decimal) and each attendant's numbers. */
export interface DashboardView {
  counters: {
    supportHappening: number;
    supportPending: number;
    supportFinished: number;
    leads: number;
    avgSupportTime: number;
    avgWaitTime: number;
  };
  attendants: {
    id: number;
    name: string;
    online: boolean;
    tickets: number;
    avgSupportTime: number;
    /** Average rate 1..3 of the attendances finished in the period; null when none was rated. */
    rating: number | null;
    ratings: number;
  }[];
}

/** GET /api/dashboard/ticketsUsers: the period's tickets per attendant. */
export interface TicketsPerUserView {
  data: { nome: string; quantidade: number }[];
  count: number;
}

/** GET /api/dashboard/ticketsDay: per hour ('00'..'23') when the range is one day, otherwise per day ('YYYY-MM-DD'). */
export interface TicketsPerTimeView {
  data: { horario: string; total: number }[] | { data: string; total: number }[];
  count: number;
}

/** A note as the ticket drawer shows it. */
export interface TicketNoteView {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  /** The author; null when an API token wrote it (see apiToken). */
  userId: number | null;
  user: { id: number; name: string } | null;
  /** The company API token that wrote it; null otherwise. */
  apiToken: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** A connection as GET /api/whatsapp answers it; `token` only to admins (and never in live frames, which every user gets). */
export interface WhatsappView {
  id: number;
  companyId: number;
  name: string;
  provider: Provider;
  status: ConnectionStatus;
  qrcode: string;
  retries: number;
  number: string;
  /** The node running its session (config `nodeId`), null while none does. */
  node: string | null;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  timeToTransfer: number | null;
  transferQueueId: number | null;
  promptId: number | null;
  integrationId: number | null;
  token?: string;
  createdAt: string;
  updatedAt: string;
  queues: QueueSummary[];
}

/** A contact as lists and live frames show it. */
export interface ContactView {
  id: number;
  uuid: string;
  companyId: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  whatsappId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Why the contacts import refuses a row of the file. */
export type ImportRejectReason = 'missing_name' | 'invalid_name' | 'missing_number' | 'invalid_number' | 'invalid_email' | 'duplicate_in_file';

/** A row of the file the import refuses. */
export interface ImportRejectedRow {
  row: number;
  reason: ImportRejectReason;
  /** The same reason for people reading the API's answer. */
  message: string;
  /** For duplicates: the row that holds the number first. */
  firstRow?: number;
}

/** What POST /api/contacts/import/preview and /import/file answer. */
export interface ImportReportView {
  create: number;
  update: number;
  /** Known numbers whose name and e-mail in the file are the ones already stored. */
  unchanged: number;
  rejected: ImportRejectedRow[];
  /** The first rows of the file as read, with what the import does with each. */
  rows: { row: number; name: string; number: string; email: string; action: 'create' | 'update' | 'unchanged' | 'rejected' }[];
}

/** GET /contacts/:id adds the extra fields and the connection the contact came through. */
export interface ContactDetail extends ContactView {
  extraInfo: { id: number; name: string; value: string }[];
  whatsapp: { id: number; name: string } | null;
}

export type Profile = 'admin' | 'user' | 'supervisor';

/** Whether a user sees the tickets without a queue. */
export type AllTicket = 'enabled' | 'disabled';

/** A user as GET /api/users and the company-{id}-user frames carry it: never the password hash nor session state. */
export interface UserView {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  financial: boolean;
  companyId: number;
  allTicket: AllTicket;
  whatsappId: number | null;
  online: boolean;
  createdAt: string;
  updatedAt: string;
  queues: QueueSummary[];
  whatsapp: { id: number; name: string } | null;
}

export interface Setting {
  key: string;
  value: string;
}

/** The signed-in user's company: what the client needs from the start. */
export interface SessionCompany {
  id: number;
  name: string;
  dueDate: string | null;
  status: boolean;
  planId: number | null;
  recurrence: string;
  settings: Setting[];
}

/** A user as GET /api/users/list names them (the pickers): `{ users: UserNameView[] }`. */
export type UserNameView = Pick<UserView, 'id' | 'name' | 'profile'>;

/** The signed-in user as login, refresh and GET /auth/me answer it. */
export interface SessionUser extends Omit<UserView, 'createdAt' | 'updatedAt' | 'whatsapp'> {
  company: SessionCompany;
}

/** The week as opening hours name its days, Monday first: the only `weekdayEn` values the API accepts. */
export const WEEKDAYS_EN = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekdayEn = (typeof WEEKDAYS_EN)[number];

/** One day of opening hours (a company's or a queue's week holds seven). */
export interface ScheduleEntry {
  /** The day's Portuguese name ('Segunda-feira'), as the spec's clients show and send it. */
  weekday: string;
  weekdayEn: WeekdayEn;
  startTime: string;
  endTime: string;
}

/** A help video as GET /api/helps and the 'helps' frames carry it. */
export interface HelpView {
  id: number;
  title: string;
  description: string;
  /** The YouTube video code (the part after v=). */
  video: string;
  /** An optional http(s) address with more reading. */
  link: string;
  createdAt: string;
  updatedAt: string;
}

/** A company as GET/PUT /api/companies and the company frames carry it. */
/** How many months a company's due date moves per payment ('+ Vencimento', a paid invoice), by recurrence. */
export const RECURRENCE_MONTHS = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 } as const;
export type Recurrence = keyof typeof RECURRENCE_MONTHS;

export interface CompanyView {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number | null;
  plan: { id: number; name: string } | null;
  status: boolean;
  /** YYYY-MM-DD, or null when the company never expires. */
  dueDate: string | null;
  recurrence: string;
  /** When billing blocked it for an unpaid invoice (sessions stopped), or null. */
  blockedAt: string | null;
  schedules: ScheduleEntry[];
  campaignsEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** POST /api/companies: the company and its admin; the password only when it was generated. */
export interface CompanyCreatedView {
  company: CompanyView;
  admin: { id: number; email: string; password?: string };
}

/** A queue as GET /api/queue and the company-{id}-queue frames carry it. */
export interface QueueView {
  id: number;
  companyId: number;
  name: string;
  color: string;
  greetingMessage: string;
  completionMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  orderQueue: number | null;
  integrationId: number | null;
  promptId: number | null;
  schedules: ScheduleEntry[];
  createdAt: string;
  updatedAt: string;
}

/** A chatbot option as GET /api/queue-options answers it: with the options under it, nested to the last level. */
export interface QueueOptionView {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  /** The key the customer types. */
  option: string;
  createdAt: string;
  updatedAt: string;
  children: QueueOptionView[];
}

/** The spec's plan flags: stored as plan_features rows, answered as booleans of the plan. */
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

/**
 * A plan as the API answers it: its columns, the spec's seven flags as booleans (the spec's
 * shape), and every flag and limit of the catalogue (`features`, the seven included; `limits`,
 * the plan's value or the declared default).
 */
export interface PlanView extends Record<PlanFlag, boolean> {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
  features: Record<string, boolean>;
  limits: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}

/** A label in each of the web's languages. */
export type LocalizedLabel = Record<'pt-BR' | 'en' | 'es', string>;

/** What the Plans tab lists (GET /api/plans/features): the flags and limits a plan can set. */
export interface PlanCatalogueView {
  features: { key: string; label: LocalizedLabel; plugin: string | null }[];
  limits: { key: string; label: LocalizedLabel; default: number; plugin: string }[];
}
