import type { SessionUser } from '../../../core/contract/views';

export interface LoginAnswer {
  token: string;
  user: SessionUser;
}

/**
 * The API's answers as the server declares them (core/contract/views.ts), under the names the
 * pages use. Types and the constant lists they come from: nothing else of the server reaches the bundle.
 */
export { PLAN_FLAGS, RECURRENCE_MONTHS, WEEKDAYS_EN, type Recurrence } from '../../../core/contract/views';
export type {
  CompanyCreatedView,
  CompanyView,
  HelpView as Help,
  ConnectionStatus,
  ContactDetail,
  ContactView,
  DashboardView,
  ImportReportView,
  LocalizedLabel as PlanLabel,
  MediaType as MessageMediaType,
  MessageView as ChatMessage,
  OtherOpenTicketView as OtherOpenTicket,
  PlanCatalogueView as PlanCatalogue,
  PlanFlag,
  PlanView as Plan,
  Profile,
  Provider,
  QueueOptionView as QueueOptionNode,
  QuickMessageView,
  QueueSummary as QueueRef,
  QueueView as Queue,
  ScheduleEntry,
  SessionCompany,
  SessionUser,
  Setting,
  TicketCardView as TicketCard,
  TagView,
  TicketContact,
  TicketNoteView as TicketNote,
  TicketStatus,
  TicketsPerTimeView,
  TicketsPerUserView,
  TicketView as Ticket,
  UserNameView,
  UserView,
  WeekdayEn,
  WhatsappView,
} from '../../../core/contract/views';

/** What the API accepts (core/contract/requests.ts): the input side of the server's zod schemas. */
export type {
  CompanySchedulesBody,
  ContactCreateBody,
  HelpCreateBody,
  MessageEditBody,
  MessageSendBody,
  PlanCreateBody,
  QueueCreateBody,
  QueueOptionCreateBody,
  QueueOptionUpdateBody,
  QueueUpdateBody,
  QuickMessageCreateBody,
  SettingUpdateBody,
  TagCreateBody,
  TicketCreateBody,
  TicketNoteCreateBody,
  TicketUpdateBody,
  UserCreateBody,
  UserUpdateBody,
} from '../../../core/contract/requests';
