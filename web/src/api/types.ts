import type { SessionUser } from '../../../core/contract/views';

export interface LoginAnswer {
  token: string;
  user: SessionUser;
}

/**
 * The API's answers as the server declares them (core/contract/views.ts), under the names the
 * pages use. Types and the constant lists they come from: nothing else of the server reaches the bundle.
 */
export { PLAN_FLAGS } from '../../../core/contract/views';
export type {
  ConnectionStatus,
  ContactDetail,
  ContactView,
  LocalizedLabel as PlanLabel,
  MediaType as MessageMediaType,
  MessageView as ChatMessage,
  PlanCatalogueView as PlanCatalogue,
  PlanFlag,
  PlanView as Plan,
  Profile,
  Provider,
  QueueSummary as QueueRef,
  QueueView as Queue,
  ScheduleEntry,
  SessionCompany,
  SessionUser,
  Setting,
  TicketCardView as TicketCard,
  TicketContact,
  TicketNoteView as TicketNote,
  TicketStatus,
  TicketView as Ticket,
  UserView,
  WhatsappView,
} from '../../../core/contract/views';

/** What the API accepts (core/contract/requests.ts): the input side of the server's zod schemas. */
export type {
  ContactCreateBody,
  MessageSendBody,
  PlanCreateBody,
  QueueCreateBody,
  QuickMessageCreateBody,
  SettingUpdateBody,
  TagCreateBody,
  TicketUpdateBody,
  UserCreateBody,
  UserUpdateBody,
} from '../../../core/contract/requests';
