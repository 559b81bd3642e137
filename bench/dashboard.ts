import { wallClock } from '../core/time/zoned-time.js';
import { ADMIN_EMAIL } from './dataset.js';
import type { Figures } from './figures.js';
import { httpFigures, type HttpRequest } from './http-bench.js';
import { login, onEachDatabase } from './on-database.js';

/**
 * The admin dashboard on the dataset of bench-dataset.md (100,000 attendances over six months):
 * GET /api/dashboard for 7, 30 and 90 days and the two charts, as the web app asks for them.
 * DESIGN §10 gives the dashboard no budget of its own: it is held to the ticket list's.
 */
const TIME_ZONE = 'America/Sao_Paulo';

/** `day` moved by `n` days. */
function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

export function dashboardBench(): Promise<Figures> {
  return onEachDatabase(async (url) => {
    const admin = await login(url, ADMIN_EMAIL);
    const today = wallClock(new Date(), TIME_ZONE).slice(0, 10);
    const range = (days: number) => `initialDate=${addDays(today, 1 - days)}&finalDate=${today}`;
    const common = { token: admin, count: 100, maxMs: 30_000, budget: { p95: 50 } };
    const requests: HttpRequest[] = [
      ...[7, 30, 90].map((days) => ({ label: `dashboard, ${days} days`, path: `/api/dashboard?days=${days}`, ...common })),
      { label: 'ticketsUsers, 30 days', path: `/api/dashboard/ticketsUsers?${range(30)}`, ...common },
      { label: 'ticketsDay, 30 days', path: `/api/dashboard/ticketsDay?${range(30)}`, ...common },
      { label: 'ticketsDay, one day', path: `/api/dashboard/ticketsDay?${range(1)}`, ...common },
    ];
    const figures = await httpFigures(url, requests);
    // How much each period holds (the dataset is as old as its build).
    for (const days of [7, 30, 90]) {
      const res = await fetch(`${url}/api/dashboard?days=${days}`, { headers: { Authorization: `Bearer ${admin}` } });
      const { counters } = (await res.json()) as { counters: Record<string, number> };
      figures[`dashboard, ${days} days: counters`] = JSON.stringify(counters);
    }
    return figures;
  });
}
