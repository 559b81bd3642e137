/**
 * The schedules API's answers, declared once for the server and the plugin's pages (which import
 * them as types). No imports, so a page pulls in nothing of the server.
 */

/**
 * PENDENTE: waiting for its time. AGENDADA: its time came, the message is in the send queue (the
 * connection may be down). ENVIADA: WhatsApp took it (sentAt). ERRO: it could not be sent (error).
 */
export const SCHEDULE_STATUSES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** A schedule as the API and the live events show it; media by its authenticated URL. */
export interface ScheduleView {
  id: number;
  companyId: number;
  body: string;
  /** UTC ISO instant. */
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatus;
  error: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  contactId: number;
  contact: { id: number; name: string; number: string; profilePicUrl: string };
  userId: number | null;
  user: { id: number; name: string } | null;
  ticketId: number | null;
  /** Waiting or failed: it may still be changed (sent, it is history). */
  editable: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The frames of company{id}-schedule (the spec's name, without the dash after "company"). */
export type ScheduleEvent = { action: 'create' | 'update'; schedule: ScheduleView } | { action: 'delete'; scheduleId: number };
