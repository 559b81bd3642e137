/** The answers of the dashboard API (admin only); times are minutes with one decimal. */
export interface Counters {
  supportHappening: number;
  supportPending: number;
  supportFinished: number;
  leads: number;
  avgSupportTime: number;
  avgWaitTime: number;
}

export interface Attendant {
  id: number;
  name: string;
  online: boolean;
  tickets: number;
  avgSupportTime: number;
  /** Average rate 1..3 of the attendances finished in the period; null when none was rated. */
  rating: number | null;
  ratings: number;
}

export interface DashboardAnswer {
  counters: Counters;
  attendants: Attendant[];
}

export interface TicketsPerUser {
  data: { nome: string; quantidade: number }[];
  count: number;
}

/** Per hour ('00'..'23') when the range is one day, otherwise per day ('YYYY-MM-DD'). */
export interface TicketsPerTime {
  data: ({ horario: string; total: number } | { data: string; total: number })[];
  count: number;
}
