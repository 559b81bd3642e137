import type { ScheduleEntry } from '../../api/types';

/** Records the settings tabs read and write (shapes of /api/companies, /api/helps). */

export interface Company {
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
  campaignsEnabled: boolean;
  schedules: ScheduleEntry[];
}

/** POST /api/companies answers the company and its admin; the password only when it was generated. */
export interface CompanyCreated {
  company: Company;
  admin: { id: number; email: string; password?: string };
}

export interface Help {
  id: number;
  title: string;
  description: string;
  /** The YouTube video code. */
  video: string;
  /** An optional http(s) address with more reading. */
  link: string;
}
