import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import { isAdmin, type AuthUser } from '../../auth/auth-user.js';
import { hashPassword, randomPassword } from '../../auth/password.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { Events } from '../../events/event-bus.js';
import type { Plan } from '../plans/plan.model.js';
import { RECURRENCE_MONTHS, type CompanyView, type PlanView } from '../../contract/views.js';
import { isPostgres } from '../../db/database.js';
import { addMonths } from '../../time/zoned-time.js';
import type { PlansService } from '../plans/plans.service.js';
import { Queue } from '../queues/queue.model.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { SettingValue } from '../settings/settings.schema.js';
import { User } from '../users/user.model.js';
import type { UsersService } from '../users/users.service.js';
import { Company, type ScheduleEntry } from './company.model.js';
import { DEFAULT_SCHEDULES, type CompanyUpdateInput, type Recurrence } from './companies.schema.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { ErrorCode } from '../../contract/error-codes.js';


/** What the platform starts with (DESIGN §2: init / first start). */
const PLATFORM = {
  plan: {
    name: 'Plano Padrão',
    users: 10,
    connections: 5,
    queues: 10,
    value: 0,
    useCampaigns: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
  },
  companyName: 'Atende',
  adminName: 'Administrador',
} as const;

/** The queue every tenant starts with. */
const FIRST_QUEUE = { name: 'Atendimento', color: '#0B7DDA', greetingMessage: '' } as const;

/** A new tenant is due this many days after it was created, unless told otherwise. */
const TRIAL_DAYS = 30;

export interface TenantInput {
  name: string;
  email: string;
  password?: string;
  phone?: string;
  /** The plan by id, else by name, else the first plan. */
  planId?: number;
  planName?: string;
  /** YYYY-MM-DD; null never expires; omitted: TRIAL_DAYS from today. */
  dueDate?: string | null;
  recurrence?: Recurrence;
  status?: boolean;
  campaignsEnabled?: boolean;
  /** The admin user's name; the company's name when omitted. */
  adminName?: string;
}

export interface TenantCreated {
  company: CompanyView;
  admin: { id: number; email: string };
  password: string;
  /** Whether `password` was generated here (and so must be handed to the tenant). */
  generatedPassword: boolean;
}

const COMPANY_EVENTS = {
  create: Events.companyCreated,
  update: Events.companyUpdated,
  delete: Events.companyDeleted,
} as const;

function nameTaken(): ConflictError {
  return new ConflictError(ErrorCode.ERR_COMPANY_NAME_EXISTS, 'A company with this name already exists');
}


function daysFromToday(days: number): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/**
 * Companies (tenants): the platform company at first start, new tenants with everything they need
 * to work (settings, a queue, an admin), their administration by super users and their working hours.
 */
export class CompaniesService {
  constructor(
    private readonly infra: Infrastructure,
    private readonly plans: PlansService,
    private readonly settings: SettingsService,
    private readonly users: UsersService,
  ) {}

  /**
   * When no user exists: the default plan, the platform company and its super admin, in one
   * transaction. Answers the admin's credentials then, and undefined on every later start.
   */
  async ensurePlatform(admin: { email: string; password?: string }): Promise<{ email: string; password: string; generated: boolean } | undefined> {
    if (await this.anyUser()) return undefined;
    const password = admin.password ?? randomPassword();
    // Hashed before the transaction: its write lock is not held through the slow hash.
    const passwordHash = await hashPassword(password);
    try {
      await this.infra.db.transaction(async (trx) => {
        const plan = await this.plans.ensure(PLATFORM.plan, trx);
        const company =
          (await Company.query(trx).findOne({ name: PLATFORM.companyName })) ??
          (await this.insertCompany(trx, { name: PLATFORM.companyName, email: admin.email, planId: plan.id, dueDate: null }));
        await this.users.create(
          company.id,
          { name: PLATFORM.adminName, email: admin.email, passwordHash, profile: 'admin', super: true },
          trx,
        );
      });
    } catch (err) {
      // Another process starting on the same database created the platform first.
      if (await this.anyUser()) return undefined;
      throw err;
    }
    return { email: admin.email, password, generated: admin.password === undefined };
  }

  /**
   * A new company with its default settings, its first queue and its admin user, all or nothing.
   * With `trx` the caller owns the transaction and the live events follow its commit.
   */
  async createTenant(input: TenantInput, trx?: Knex.Transaction): Promise<TenantCreated> {
    const password = input.password ?? randomPassword();
    // Hashed before the transaction: its write lock is not held through the slow hash.
    const passwordHash = await hashPassword(password);
    const create = async (db: Knex.Transaction) => {
      const plan = await this.choosePlan(input, db);
      await this.assertNameFree(input.name, undefined, db);
      const company = await this.insertCompany(
        db,
        {
          name: input.name,
          email: input.email,
          phone: input.phone ?? '',
          planId: plan.id,
          status: input.status ?? true,
          dueDate: input.dueDate === undefined ? daysFromToday(TRIAL_DAYS) : input.dueDate,
          recurrence: input.recurrence ?? 'MENSAL',
        },
        input.campaignsEnabled === undefined ? {} : { campaignsEnabled: String(input.campaignsEnabled) },
      );
      await this.plans.assertWithinLimit(company.id, 'queues', db);
      await Queue.query(db).insert({ companyId: company.id, ...FIRST_QUEUE, schedules: DEFAULT_SCHEDULES });
      const user = await this.users.create(
        company.id,
        { name: input.adminName ?? input.name, email: input.email, passwordHash, profile: 'admin' },
        db,
      );
      const [view] = await this.present([company], db);
      return { company: view!, admin: { id: user.id, email: user.email } };
    };

    let created: Omit<TenantCreated, 'password' | 'generatedPassword'>;
    if (trx) {
      created = await create(trx);
      const view = created.company;
      void trx.executionPromise.then(
        () => this.announce('create', view),
        () => undefined, // rolled back: nothing to announce
      );
    } else {
      created = await this.infra.db.transaction(create);
      await this.announce('create', created.company);
    }
    return { ...created, password, generatedPassword: input.password === undefined };
  }

  /** Every company, by name as a Portuguese reader sorts it (the same on both databases). */
  async list(): Promise<CompanyView[]> {
    const companies = await Company.query(this.infra.db);
    companies.sort((x, y) => x.name.localeCompare(y.name, 'pt-BR') || x.id - y.id);
    return this.present(companies, this.infra.db);
  }

  /** A company for its own admins, or any company for super users. */
  async show(caller: AuthUser, id: number): Promise<CompanyView> {
    this.assertVisible(caller, id);
    if (!isAdmin(caller)) throw new ForbiddenError();
    return this.get(id);
  }

  async get(id: number): Promise<CompanyView> {
    const [view] = await this.present([await this.find(id, this.infra.db)], this.infra.db);
    return view!;
  }

  /** Super-user edit; campaignsEnabled is the company's setting of that name. */
  async update(id: number, input: CompanyUpdateInput): Promise<CompanyView> {
    const { campaignsEnabled, ...fields } = input;
    const { view, setting } = await this.infra.db.transaction(async (trx) => {
      const current = await this.find(id, trx);
      if (fields.name !== undefined) await this.assertNameFree(fields.name, id, trx);
      // A new plan must hold what the company has (the same plan, kept, is never refused).
      if (fields.planId !== undefined && fields.planId !== current.planId) await this.plans.assertFits(id, fields.planId, trx);
      const company = await uniqueOr(() => current.$query(trx).patchAndFetch(fields), nameTaken);
      let saved: SettingValue | undefined;
      if (campaignsEnabled !== undefined) {
        saved = await this.settings.save(id, 'campaignsEnabled', String(campaignsEnabled), trx);
      }
      const [presented] = await this.present([company], trx);
      return { view: presented!, setting: saved };
    });
    if (setting) await this.settings.announce(id, setting);
    await this.announce('update', view);
    return view;
  }

  /**
   * A period paid: the due date moves one recurrence forward (from the old due date, so paying late
   * does not lend days; from `today` when there was none), inside the payer's transaction, the row
   * held so two payments never read the same old date. Announced once `trx` commits.
   */
  async renew(id: number, today: string, trx: Knex.Transaction): Promise<CompanyView> {
    const query = Company.query(trx).findById(id);
    const current = await (isPostgres(trx) ? query.forUpdate() : query);
    if (!current) throw new NotFoundError(ErrorCode.ERR_NO_COMPANY_FOUND);
    const months = RECURRENCE_MONTHS[current.recurrence as Recurrence] ?? RECURRENCE_MONTHS.MENSAL;
    // Read before the patch, which updates `current` in place.
    const wasBlocked = current.blockedAt !== null;
    const company = await current.$query(trx).patchAndFetch({ dueDate: addMonths(current.dueDate ?? today, months), blockedAt: null });
    const [view] = await this.present([company], trx);
    void trx.executionPromise.then(
      async () => {
        await this.announce('update', view!);
        if (wasBlocked) await this.infra.bus.emit(Events.companyUnblocked, id, { companyId: id });
      },
      () => undefined,
    );
    return view!;
  }

  /**
   * Billing's block of an unpaid company: its WhatsApp sessions stop (credentials kept) and stay
   * stopped until `unblock` or a paid period (`renew`). Its users already meet the
   * expired-subscription rule, the due date being past. Answers whether it was not blocked before.
   */
  async block(id: number): Promise<boolean> {
    const changed = await Company.query(this.infra.db).patch({ blockedAt: new Date().toISOString() }).where('id', id).whereNull('blockedAt');
    if (changed === 0) return false;
    await this.announce('update', await this.get(id));
    await this.infra.bus.emit(Events.companyBlocked, id, { companyId: id });
    return true;
  }

  /** Lifts billing's block (the due date moved by hand, or paid): its sessions start again. */
  async unblock(id: number): Promise<boolean> {
    const changed = await Company.query(this.infra.db).patch({ blockedAt: null }).where('id', id).whereNotNull('blockedAt');
    if (changed === 0) return false;
    await this.announce('update', await this.get(id));
    await this.infra.bus.emit(Events.companyUnblocked, id, { companyId: id });
    return true;
  }

  /** Deletes a company and, through the foreign keys, everything it owns. Never the caller's own. */
  async remove(caller: AuthUser, id: number): Promise<void> {
    if (id === caller.companyId) {
      throw new ValidationError('You cannot delete your own company', undefined, ErrorCode.ERR_CANNOT_DELETE_OWN_COMPANY);
    }
    const { view, userIds } = await this.infra.db.transaction(async (trx) => {
      const company = await this.find(id, trx);
      const [presented] = await this.present([company], trx);
      const users = await User.query(trx).select('id').where('companyId', id);
      await company.$query(trx).delete();
      return { view: presented!, userIds: users.map((u) => u.id) };
    });
    for (const userId of userIds) this.infra.realtime.disconnectUser(userId, 'company deleted');
    await this.announce('delete', view);
  }

  /** The plan of a company; users other than super users only see their own company's. */
  async planOf(caller: AuthUser, companyId: number): Promise<PlanView> {
    this.assertVisible(caller, companyId);
    await this.find(companyId, this.infra.db);
    return this.plans.forCompany(companyId);
  }

  /** Working hours: an admin of that company, or a super user. */
  async updateSchedules(caller: AuthUser, id: number, schedules: ScheduleEntry[]): Promise<CompanyView> {
    this.assertVisible(caller, id);
    if (!isAdmin(caller)) throw new ForbiddenError();
    const view = await this.infra.db.transaction(async (trx) => {
      const company = await (await this.find(id, trx)).$query(trx).patchAndFetch({ schedules });
      const [presented] = await this.present([company], trx);
      return presented!;
    });
    await this.announce('update', view);
    return view;
  }

  private async anyUser(): Promise<boolean> {
    return (await User.query(this.infra.db).select('id').first()) !== undefined;
  }

  private choosePlan(input: TenantInput, db: Knex): Promise<Plan> {
    if (input.planId !== undefined) return this.plans.get(input.planId, db);
    if (input.planName !== undefined) return this.plans.getByName(input.planName, db);
    return this.plans.first(db);
  }

  /** The company row, its working hours and its default settings. */
  private async insertCompany(
    db: Knex,
    fields: Pick<Company, 'name' | 'email' | 'planId' | 'dueDate'> & Partial<Pick<Company, 'phone' | 'status' | 'recurrence'>>,
    settings: Parameters<SettingsService['createDefaults']>[2] = {},
  ): Promise<Company> {
    const company = await uniqueOr(() => Company.query(db).insertAndFetch({ ...fields, schedules: DEFAULT_SCHEDULES }), nameTaken);
    await this.settings.createDefaults(company.id, db, settings);
    return company;
  }

  private async find(id: number, db: Knex): Promise<Company> {
    const company = await Company.query(db).findById(id);
    if (!company) throw new NotFoundError(ErrorCode.ERR_NO_COMPANY_FOUND);
    return company;
  }

  /** Another company's id answers 404, as if it did not exist, unless the caller is a super user. */
  private assertVisible(caller: AuthUser, companyId: number): void {
    if (!caller.super && caller.companyId !== companyId) throw new NotFoundError(ErrorCode.ERR_NO_COMPANY_FOUND);
  }

  /**
   * Company names are unique regardless of case, in any alphabet: 409 ERR_COMPANY_NAME_EXISTS.
   * (SQLite's lower() folds only ASCII, so the database narrows by length and the comparison is here.)
   */
  private async assertNameFree(name: string, exceptId: number | undefined, db: Knex): Promise<void> {
    const sameLength = await Company.query(db).select('id', 'name').whereRaw('length(name) = ?', [[...name].length]);
    const other = sameLength.find((c) => c.name.localeCompare(name, undefined, { sensitivity: 'accent' }) === 0);
    if (other && other.id !== exceptId) throw nameTaken();
  }

  /** Companies with their plan's id and name and the campaignsEnabled setting. */
  private async present(companies: Company[], db: Knex): Promise<CompanyView[]> {
    const ids = companies.map((c) => c.id);
    const planIds = [...new Set(companies.map((c) => c.planId).filter((id): id is number => id !== null))];
    const plans = await this.plans.summaries(planIds, db);
    const campaigns = await this.settings.valuesOf(ids, 'campaignsEnabled', db);
    return companies.map((c) => ({
      id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      planId: c.planId,
      plan: c.planId === null ? null : (plans.get(c.planId) ?? null),
      status: c.status,
      dueDate: c.dueDate,
      recurrence: c.recurrence,
      blockedAt: c.blockedAt,
      schedules: c.schedules,
      campaignsEnabled: campaigns.get(c.id) === 'true',
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    }));
  }

  private async announce(action: 'create' | 'update' | 'delete', company: CompanyView): Promise<void> {
    const data = action === 'delete' ? { action, companyId: company.id } : { action, company };
    this.infra.realtime.publish(null, 'company', data, 'super');
    await this.infra.bus.emit(COMPANY_EVENTS[action], company.id, data);
  }
}
