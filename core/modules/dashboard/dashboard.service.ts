import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { isPostgres } from '../../db/database.js';
import { readRows } from '../../db/reader-pool.js';
import { ValidationError } from '../../errors.js';
import { nextDay, wallClock, zonedDayStart } from '../../time/zoned-time.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { DashboardQuery, DayRangeQuery } from './dashboard.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { DashboardView as Dashboard, TicketsPerTimeView as TicketsDay, TicketsPerUserView as TicketsUsers } from '../../contract/views.js';

/** UTC bounds [from, to) of a period; a missing bound is open. */
interface Period {
  from?: string;
  to?: string;
}

/** PostgreSQL answers counts (bigint) and sums (numeric) as strings. */
type Num = number | string | null;

/** One user's attendances finished in a period (userId null: nobody's). */
interface FinishedRow {
  userId: number | null;
  finished: Num;
  timed: Num;
  supportMinutes: Num;
  ratings: Num;
  rateSum: Num;
}

interface Dialect {
  /** Rows grouped by `group` (the UTC hour of `column`), each group named 'YYYY-MM-DDTHH' by `label`. */
  utcHour(column: string): { group: string; label: string };
}

/**
 * The only SQL that differs by database: the UTC hour of an instant (SQLite keeps ISO text,
 * PostgreSQL timestamptz). Durations are stored on the attendances (migration 20261127060100).
 */
function dialect(db: Knex): Dialect {
  return isPostgres(db)
    ? {
        utcHour: (column) => {
          const group = `date_trunc('hour', ${column} at time zone 'UTC')`;
          return { group, label: `to_char(${group}, 'YYYY-MM-DD"T"HH24')` };
        },
      }
    : {
        utcHour: (column) => ({ group: `substr(${column}, 1, 13)`, label: `substr(${column}, 1, 13)` }),
      };
}

function inPeriod(q: Knex.QueryBuilder, column: string, period: Period): void {
  if (period.from) q.where(column, '>=', period.from);
  if (period.to) q.where(column, '<', period.to);
}

/** total / count with one decimal; null when nothing was counted. */
function average(total: Num | undefined, count: Num | undefined): number | null {
  return Number(count ?? 0) > 0 ? Math.round((Number(total) / Number(count)) * 10) / 10 : null;
}

/** `day` moved by `n` days. */
function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** The UTC bounds of the local days first..last (inclusive) in `timeZone`. */
function localDays(first: string | undefined, last: string | undefined, timeZone: string): Period {
  return {
    from: first ? zonedDayStart(first, timeZone) : undefined,
    to: last ? zonedDayStart(nextDay(last), timeZone) : undefined,
  };
}

/**
 * The admin dashboard: live ticket counts, then what happened in a period of the company's local
 * days, all from attendances (ticket_tracking rows). Every figure is aggregated in the database and
 * scoped to the caller's company; a rating belongs to the attendance it rated.
 */
export class DashboardService {
  constructor(
    private readonly infra: Pick<Infrastructure, 'db'>,
    private readonly deps: { settings: SettingsService },
  ) {}

  /** GET /dashboard: counters and every user of the company with their attendances of the period. */
  async overview(actor: AuthUser, query: DashboardQuery, now = new Date()): Promise<Dashboard> {
    const { companyId } = actor;
    const [timeZone, users] = await Promise.all([
      this.deps.settings.get(companyId, 'timezone'),
      this.infra.db('users').where('companyId', companyId).orderBy('name').orderBy('id').select<{ id: number; name: string; online: unknown }[]>('id', 'name', 'online'),
    ]);
    const period = this.dashboardPeriod(query, timeZone, now);
    const [statuses, finished, waiting, leads] = await Promise.all([
      this.liveStatuses(companyId),
      this.finishedByUser(companyId, users.map((user) => user.id), period),
      this.waitTime(companyId, period),
      this.leads(companyId, period),
    ]);

    const sum = (field: keyof (typeof finished)[number]) => finished.reduce((total, row) => total + Number(row[field] ?? 0), 0);
    const byUser = new Map(finished.filter((row) => row.userId !== null).map((row) => [row.userId, row]));
    return {
      counters: {
        supportHappening: statuses.open,
        supportPending: statuses.pending,
        supportFinished: sum('finished'),
        leads,
        avgSupportTime: average(sum('supportMinutes'), sum('timed')) ?? 0,
        avgWaitTime: waiting,
      },
      attendants: users.map((user) => {
        const row = byUser.get(user.id);
        return {
          id: user.id,
          name: user.name,
          online: Boolean(user.online),
          tickets: Number(row?.finished ?? 0),
          avgSupportTime: average(row?.supportMinutes, row?.timed) ?? 0,
          rating: average(row?.rateSum, row?.ratings),
          ratings: Number(row?.ratings ?? 0),
        };
      }),
    };
  }

  /** GET /dashboard/ticketsUsers: attendances started in the local days, per user, most first. */
  async ticketsUsers(actor: AuthUser, query: DayRangeQuery): Promise<TicketsUsers> {
    const timeZone = await this.deps.settings.get(actor.companyId, 'timezone');
    const db = this.infra.db;
    const perUser = db('ticketTracking')
      .where('companyId', actor.companyId)
      .modify(inPeriod, 'startedAt', localDays(query.initialDate, query.finalDate, timeZone))
      .whereNotNull('userId')
      .groupBy('userId')
      .select('userId', db.raw('count(*) as quantidade'));
    // Counted per user id first, then named: the join runs once per user, not once per attendance.
    const rows = await readRows<{ nome: string; quantidade: Num }>(
      db,
      db.from(perUser.as('c')).join('users as u', 'u.id', 'c.userId').select('u.name as nome', 'c.quantidade').orderBy('c.quantidade', 'desc').orderBy('u.name'),
    );
    const data = rows.map((row) => ({ nome: row.nome, quantidade: Number(row.quantidade) }));
    return { data, count: data.reduce((total, row) => total + row.quantidade, 0) };
  }

  /**
   * GET /dashboard/ticketsDay: attendances created in the local days, per local hour of a single
   * day or per local day of a range (zeros included). The database counts per UTC hour; each hour
   * falls in one local hour, exactly for zones a whole number of hours from UTC.
   */
  async ticketsDay(actor: AuthUser, query: DayRangeQuery): Promise<TicketsDay> {
    const { initialDate, finalDate } = query;
    const timeZone = await this.deps.settings.get(actor.companyId, 'timezone');
    const hour = dialect(this.infra.db).utcHour('created_at');
    const db = this.infra.db;
    const rows = await readRows<{ utcHour: string; total: Num }>(
      db,
      db('ticketTracking')
        .where('companyId', actor.companyId)
        .modify(inPeriod, 'createdAt', localDays(initialDate, finalDate, timeZone))
        .groupByRaw(hour.group)
        .select(db.raw(`${hour.label} as utc_hour, count(*) as total`)),
    );

    const hourly = initialDate === finalDate;
    const totals = new Map<string, number>();
    for (const row of rows) {
      // SQLite text may have a space where ISO has the T.
      const local = wallClock(`${row.utcHour.slice(0, 10)}T${row.utcHour.slice(11, 13)}:00:00Z`, timeZone);
      const key = hourly ? local.slice(11, 13) : local.slice(0, 10);
      totals.set(key, (totals.get(key) ?? 0) + Number(row.total));
    }
    const count = [...totals.values()].reduce((total, n) => total + n, 0);
    if (hourly) {
      const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
      return { data: hours.map((horario) => ({ horario, total: totals.get(horario) ?? 0 })), count };
    }
    const days: string[] = [];
    for (let d = initialDate; d <= finalDate; d = nextDay(d)) days.push(d);
    return { data: days.map((data) => ({ data, total: totals.get(data) ?? 0 })), count };
  }

  /** `days` local days up to today, else the days date_from..date_to; neither is the spec's message. */
  private dashboardPeriod(query: DashboardQuery, timeZone: string, now: Date): Period {
    if (query.days) {
      const today = wallClock(now, timeZone).slice(0, 10);
      return localDays(addDays(today, 1 - query.days), today, timeZone);
    }
    if (query.date_from || query.date_to) return localDays(query.date_from, query.date_to, timeZone);
    throw new ValidationError('Parametrize o filtro', undefined, ErrorCode.ERR_DASHBOARD_FILTER);
  }

  /** Tickets open and pending now: not a matter of period. */
  private async liveStatuses(companyId: number): Promise<{ open: number; pending: number }> {
    const db = this.infra.db;
    const rows = await readRows<{ status: string; total: Num }>(
      db,
      db('tickets').where('companyId', companyId).whereIn('status', ['open', 'pending']).groupBy('status').select('status', db.raw('count(*) as total')),
    );
    const of = (status: string) => Number(rows.find((row) => row.status === status)?.total ?? 0);
    return { open: of('open'), pending: of('pending') };
  }

  /**
   * Attendances finished in the period, per user (null: finished with nobody assigned): how many,
   * how many had started (timed) and their support minutes (until the rating question, if one
   * was asked; stored on each attendance), and their ratings. Read per user id (`userIds`, the
   * company's users, and null) so that each is a range of the (company, user, finished) index.
   */
  private async finishedByUser(companyId: number, userIds: number[], period: Period): Promise<FinishedRow[]> {
    const db = this.infra.db;
    const figures = (q: Knex.QueryBuilder) =>
      readRows<FinishedRow>(
        db,
        q
          .where('companyId', companyId)
          .modify(inPeriod, 'finishedAt', period)
          .select('userId', db.raw('count(*) as finished, count(started_at) as timed, sum(support_minutes) as support_minutes, count(rate) as ratings, sum(rate) as rate_sum')),
      );
    const [assigned, nobody] = await Promise.all([
      userIds.length === 0 ? [] : figures(db('ticketTracking').whereIn('userId', userIds).groupBy('userId')),
      figures(db('ticketTracking').whereNull('userId').groupBy('userId')),
    ]);
    return [...assigned, ...nobody];
  }

  /** Average minutes from entering a queue to being taken (stored on each attendance), of attendances started in the period. */
  private async waitTime(companyId: number, period: Period): Promise<number> {
    const db = this.infra.db;
    const [row] = await readRows<{ waitMinutes: Num; waited: Num }>(
      db,
      db('ticketTracking')
        .where('companyId', companyId)
        .modify(inPeriod, 'startedAt', period)
        .select(db.raw('sum(wait_minutes) as wait_minutes, count(wait_minutes) as waited')),
    );
    return average(row?.waitMinutes, row?.waited) ?? 0;
  }

  /** Contacts (not groups) created in the period. */
  private async leads(companyId: number, period: Period): Promise<number> {
    const db = this.infra.db;
    const [row] = await readRows<{ total: Num }>(db, db('contacts').where({ companyId, isGroup: false }).modify(inPeriod, 'createdAt', period).count({ total: '*' }));
    return Number(row?.total ?? 0);
  }
}
