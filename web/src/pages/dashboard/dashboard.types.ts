import type { DashboardView, TicketsPerTimeView, TicketsPerUserView } from '../../api/types';

/** The answers of the dashboard API (admin only), as the server declares them. */
export type DashboardAnswer = DashboardView;
export type Counters = DashboardView['counters'];
export type Attendant = DashboardView['attendants'][number];
export type TicketsPerUser = TicketsPerUserView;
export type TicketsPerTime = TicketsPerTimeView;
