import type { Knex } from 'knex';
import objection from 'objection';
import type { Infrastructure } from '../../infrastructure.js';
import type { AllTicket, SessionUser, UserNameView, UserView } from '../../contract/views.js';
import type { PlansService } from '../plans/plans.service.js';
import { isAdmin, type AuthUser, type Profile } from '../../auth/auth-user.js';
import { hashPassword } from '../../auth/password.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { Events } from '../../events/event-bus.js';
import { Company } from '../companies/company.model.js';
import { Queue } from '../queues/queue.model.js';
import type { Setting } from '../settings/setting.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { User } from './user.model.js';
import { USERS_PAGE_SIZE } from './users.schema.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { likePattern } from '../../db/like-pattern.js';
import { ErrorCode } from '../../contract/error-codes.js';

const { raw } = objection;

function emailTaken(): ConflictError {
  return new ConflictError(ErrorCode.ERR_EMAIL_ALREADY_EXISTS, 'A user with this e-mail already exists');
}

export interface CreateUserInput {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  super?: boolean;
  financial?: boolean;
  allTicket?: AllTicket;
  whatsappId?: number | null;
  queueIds?: number[];
}

/** A new user whose password the caller hashed before opening its transaction (hashing is slow). */
export type HashedUserInput = Omit<CreateUserInput, 'password'> & { passwordHash: string };

export type UpdateUserInput = Partial<CreateUserInput>;

/** What authenticating a request needs: one indexed read. */
export type AuthRow = Pick<User, 'id' | 'companyId' | 'name' | 'email' | 'profile' | 'super' | 'financial' | 'tokenVersion'>;

/** Related rows loaded with a user, with only the columns the views show. */
const graphModifiers = {
  queueSummary: (qb: objection.QueryBuilder<Queue>) => qb.select('queues.id', 'queues.name', 'queues.color').orderBy('queues.name'),
  whatsappSummary: (qb: objection.QueryBuilder<Whatsapp>) => qb.select('whatsapps.id', 'whatsapps.name'),
  // PostgreSQL answers rows without an order by in whatever order its plan reads them.
  byKey: (qb: objection.QueryBuilder<Setting>) => qb.orderBy('settings.key'),
};
const VIEW_GRAPH = '[queues(queueSummary), whatsapp(whatsappSummary)]';
const SESSION_GRAPH = '[queues(queueSummary), company.settings(byKey)]';

/** What every answer about a user holds; secrets never among it. */
function userFields(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    super: user.super,
    financial: user.financial,
    companyId: user.companyId,
    allTicket: user.allTicket,
    whatsappId: user.whatsappId,
    online: user.online,
    queues: (user.queues ?? []).map(({ id, name, color }) => ({ id, name, color })),
  };
}

export function toUserView(user: User): UserView {
  return {
    ...userFields(user),
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    whatsapp: user.whatsapp ? { id: user.whatsapp.id, name: user.whatsapp.name } : null,
  };
}

function toSessionUser(user: User & { company: Company }): SessionUser {
  const { company } = user;
  return {
    ...userFields(user),
    company: {
      id: company.id,
      name: company.name,
      dueDate: company.dueDate,
      status: company.status,
      planId: company.planId,
      recurrence: company.recurrence,
      settings: (company.settings ?? []).map(({ key, value }) => ({ key, value })),
    },
  };
}

/** The company a request names: any for super users, always the caller's own for everyone else. */
function companyOf(actor: AuthUser, companyId: number | undefined): number {
  return actor.super && companyId ? companyId : actor.companyId;
}

/** Whether an optional input changes a current value. */
function changes<T>(next: T | undefined, current: T): boolean {
  return next !== undefined && next !== current;
}

function sameIds(a: number[], b: number[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}

/**
 * Users of a company: the admin's CRUD with the spec's permission rules, and the session state
 * (token version, current refresh token, online) that the auth module reads and writes.
 */
export class UsersService {
  constructor(
    private readonly infra: Infrastructure,
    private readonly plans: PlansService,
  ) {}

  /**
   * Creates a user in `companyId`: unique e-mail, within the plan's user limit, queues and default
   * connection of that company only. Runs in `trx` when given (its events wait for its commit).
   */
  async create(companyId: number, input: CreateUserInput | HashedUserInput, trx?: Knex.Transaction): Promise<User> {
    const passwordHash = 'passwordHash' in input ? input.passwordHash : await hashPassword(input.password);
    const insert = async (db: Knex): Promise<User> => {
      const email = input.email.trim().toLowerCase();
      await this.assertEmailFree(db, email);
      await this.plans.assertWithinLimit(companyId, 'users', db);
      const queueIds = [...new Set(input.queueIds ?? [])];
      await this.assertCompanyRefs(db, companyId, { queueIds, whatsappId: input.whatsappId });
      const user = await uniqueOr(
        () =>
        User.query(db).insert({
          companyId,
          name: input.name.trim(),
          email,
          passwordHash,
          profile: input.profile,
          super: input.super ?? false,
          financial: input.financial ?? false,
          allTicket: input.allTicket ?? 'disabled',
          whatsappId: input.whatsappId ?? null,
          tokenVersion: 0,
          refreshTokenId: null,
          online: false,
        }),
        emailTaken,
      );
      await this.replaceQueues(db, user.id, queueIds);
      return this.loadWithGraph(db, user.id);
    };
    const user = trx ? await insert(trx) : await this.infra.db.transaction(insert);
    await this.afterCommit(trx, async () => {
      const view = toUserView(user);
      this.publish(companyId, { action: 'create', user: view });
      await this.infra.bus.emit(Events.userCreated, companyId, { user: view });
    });
    return user;
  }

  /** POST /users: admins create in their company; only super users pick another company or set super/financial. */
  async createFor(actor: AuthUser, input: CreateUserInput & { companyId?: number }): Promise<UserView> {
    if (!isAdmin(actor)) throw new ForbiddenError();
    if (!actor.super && (input.super || input.financial)) throw new ForbiddenError();
    const companyId = companyOf(actor, input.companyId);
    if (companyId !== actor.companyId && !(await Company.query(this.infra.db).findById(companyId))) {
      throw new NotFoundError(ErrorCode.ERR_NO_COMPANY_FOUND);
    }
    return toUserView(await this.create(companyId, input));
  }

  /** GET /users: the caller's company (or the one a super user names), by name, 20 a page. */
  async list(actor: AuthUser, query: { searchParam: string; pageNumber: number; companyId?: number }): Promise<{ users: UserView[]; count: number; hasMore: boolean }> {
    const db = this.infra.db;
    const companyId = companyOf(actor, query.companyId);
    const filtered = () => {
      const q = User.query(db).where('companyId', companyId);
      if (query.searchParam) {
        const like = likePattern(query.searchParam);
        q.where((w) => w.whereRaw("lower(??) like ? escape '!'", ['name', like]).orWhereRaw("lower(??) like ? escape '!'", ['email', like]));
      }
      return q;
    };
    const offset = (query.pageNumber - 1) * USERS_PAGE_SIZE;
    const [users, count] = await Promise.all([
      filtered()
        .orderBy('name')
        .orderBy('id')
        .limit(USERS_PAGE_SIZE)
        .offset(offset)
        .withGraphFetched(VIEW_GRAPH)
        .modifiers(graphModifiers),
      filtered().resultSize(),
    ]);
    return { users: users.map(toUserView), count, hasMore: offset + users.length < count };
  }

  /** GET /users/list: names of a company's users, for pickers; another company's only for super users. */
  async listNames(actor: AuthUser, companyId = actor.companyId): Promise<UserNameView[]> {
    if (companyId !== actor.companyId && !actor.super) throw new ForbiddenError();
    const users = await User.query(this.infra.db).where('companyId', companyId).select('id', 'name', 'profile').orderBy('name').orderBy('id');
    return users.map(({ id, name, profile }) => ({ id, name, profile }));
  }

  /** GET /users/:id: an admin of that company, or the user itself. */
  async show(actor: AuthUser, id: number): Promise<UserView> {
    const user = await this.findScoped(actor, id);
    if (!isAdmin(actor) && actor.id !== id) throw new ForbiddenError();
    return toUserView(user);
  }

  /**
   * PUT /users/:id. Admins change everything but their own admin profile; a non-admin changes only
   * their own name, e-mail and password. A new password ends every session of that user.
   */
  async update(actor: AuthUser, id: number, input: UpdateUserInput): Promise<{ user: UserView; passwordChanged: boolean }> {
    const target = await this.findScoped(actor, id);
    this.assertMayEdit(actor, target, input);
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    const email = input.email?.trim().toLowerCase();

    await this.infra.db.transaction(async (trx) => {
      if (email && email !== target.email) await this.assertEmailFree(trx, email);
      await this.assertCompanyRefs(trx, target.companyId, { queueIds: input.queueIds, whatsappId: input.whatsappId });
      await uniqueOr(
        () =>
        User.query(trx)
          .findById(id)
          .patch({
            ...(input.name !== undefined && { name: input.name.trim() }),
            ...(email !== undefined && { email }),
            ...(input.profile !== undefined && { profile: input.profile }),
            ...(input.allTicket !== undefined && { allTicket: input.allTicket }),
            ...(input.whatsappId !== undefined && { whatsappId: input.whatsappId }),
            ...(input.super !== undefined && { super: input.super }),
            ...(input.financial !== undefined && { financial: input.financial }),
            ...(passwordHash && { passwordHash, refreshTokenId: null, tokenVersion: raw('?? + 1', ['tokenVersion']) }),
          }),
        emailTaken,
      );
      if (input.queueIds) await this.replaceQueues(trx, id, [...new Set(input.queueIds)]);
    });

    // Open sockets carry the identity they connected with: make them reconnect with the new one.
    if (passwordHash) this.infra.realtime.disconnectUser(id, 'password changed');
    else if (changes(input.profile, target.profile) || changes(input.super, target.super)) {
      this.infra.realtime.disconnectUser(id, 'profile changed');
    }
    const user = toUserView(await this.loadWithGraph(this.infra.db, id));
    this.publish(user.companyId, { action: 'update', user });
    await this.infra.bus.emit(Events.userUpdated, user.companyId, { user });
    return { user, passwordChanged: passwordHash !== undefined };
  }

  /** DELETE /users/:id: admins, never themselves; the user's sockets close. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    if (!isAdmin(actor)) throw new ForbiddenError();
    if (actor.id === id) throw new ValidationError('You cannot delete your own user', undefined, ErrorCode.ERR_CANNOT_DELETE_SELF);
    const target = await this.findScoped(actor, id);
    if (target.super && !actor.super) throw new ForbiddenError();
    await User.query(this.infra.db).deleteById(id);
    this.infra.realtime.disconnectUser(id, 'user deleted');
    this.publish(target.companyId, { action: 'delete', userId: id });
    await this.infra.bus.emit(Events.userDeleted, target.companyId, { userId: id });
  }

  // ---- session state, for the auth module -------------------------------------------------

  /** The user with its password hash and its company (with settings), by e-mail or id. */
  async findWithCompany(where: { email: string } | { id: number }): Promise<(User & { company: Company }) | undefined> {
    const user = await User.query(this.infra.db).findOne(where).withGraphFetched('company.settings');
    return user?.company ? (user as User & { company: Company }) : undefined;
  }

  async findSessionUser(id: number): Promise<SessionUser | undefined> {
    const user = await User.query(this.infra.db).findById(id).withGraphFetched(SESSION_GRAPH).modifiers(graphModifiers);
    return user?.company ? toSessionUser(user as User & { company: Company }) : undefined;
  }

  async findAuthRow(id: number): Promise<AuthRow | undefined> {
    return User.query(this.infra.db)
      .findById(id)
      .select('id', 'companyId', 'name', 'email', 'profile', 'super', 'financial', 'tokenVersion');
  }

  /**
   * Starts a new session: the token version goes up by one in a single statement, so of several
   * logins at the same moment each gets its own version and the last one written is the session.
   * Answers that version, or undefined when the user is gone.
   */
  async startSession(id: number, refreshTokenId: string): Promise<number | undefined> {
    const row = (await User.query(this.infra.db)
      .findById(id)
      .patch({
        tokenVersion: raw('?? + 1', ['tokenVersion']),
        refreshTokenId,
        previousRefreshTokenId: null,
        refreshRotatedAt: new Date().toISOString(),
      })
      .returning('tokenVersion')) as unknown as Pick<User, 'tokenVersion'> | undefined;
    return row?.tokenVersion;
  }

  /**
   * Rotates the refresh token id of the current session when the row still holds the expected
   * one; false when another login, logout or refresh changed it first.
   */
  async rotateRefreshToken(id: number, expected: { tokenVersion: number; refreshTokenId: string }, next: string): Promise<boolean> {
    const updated = await User.query(this.infra.db)
      .findById(id)
      .where(expected)
      .patch({ refreshTokenId: next, previousRefreshTokenId: expected.refreshTokenId, refreshRotatedAt: new Date().toISOString() });
    return updated === 1;
  }

  /** Replaces an outdated password hash with `next`, unless the password changed meanwhile. */
  async rehashPassword(id: number, current: string, next: string): Promise<void> {
    await User.query(this.infra.db).findById(id).where('passwordHash', current).patch({ passwordHash: next });
  }

  /** Ends every session of a user: tokens stop working and sockets close (which marks them offline). */
  async endSessions(id: number, reason: string): Promise<void> {
    await User.query(this.infra.db)
      .findById(id)
      .patch({ tokenVersion: raw('?? + 1', ['tokenVersion']), refreshTokenId: null });
    this.infra.realtime.disconnectUser(id, reason);
    await this.publishUpdate(id);
  }

  /**
   * Sets a new password (already hashed) and ends every session of the user, in `trx` when given;
   * the user's sockets close once it commits. False when the user is gone.
   */
  async setPassword(id: number, passwordHash: string, trx?: Knex.Transaction): Promise<boolean> {
    const changed = await User.query(trx ?? this.infra.db)
      .findById(id)
      .patch({ passwordHash, tokenVersion: raw('?? + 1', ['tokenVersion']), refreshTokenId: null, previousRefreshTokenId: null });
    if (changed) {
      await this.afterCommit(trx, async () => {
        this.infra.realtime.disconnectUser(id, 'password changed');
      });
    }
    return changed === 1;
  }

  /** Online while the user has a socket open (the realtime hub reports it); the company sees it live. */
  async setOnline(id: number, online: boolean): Promise<void> {
    const changed = await User.query(this.infra.db).findById(id).whereNot('online', online).patch({ online });
    if (changed) await this.publishUpdate(id);
  }

  /** At start-up no socket is open yet: nobody is online (a crash may have left flags behind). */
  async markAllOffline(): Promise<void> {
    await User.query(this.infra.db).where('online', true).patch({ online: false });
  }

  /**
   * Users still flagged online whom `absent` finds without a socket anywhere (their node died)
   * go offline, live for their company.
   */
  async sweepOnline(absent: (userIds: number[]) => Promise<number[]>): Promise<void> {
    const online = (await User.query(this.infra.db).where('online', true).select('id')).map((user) => user.id);
    for (const id of await absent(online)) await this.setOnline(id, false);
  }

  /** Tells the company a user's row changed (after a login or logout). */
  async publishUpdate(id: number): Promise<void> {
    const user = await User.query(this.infra.db).findById(id).withGraphFetched(VIEW_GRAPH).modifiers(graphModifiers);
    if (user) this.publish(user.companyId, { action: 'update', user: toUserView(user) });
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** A user the actor may reach: own company, any company for super users; 404 otherwise. */
  private async findScoped(actor: AuthUser, id: number): Promise<User> {
    const query = User.query(this.infra.db).findById(id).withGraphFetched(VIEW_GRAPH).modifiers(graphModifiers);
    if (!actor.super) query.where('companyId', actor.companyId);
    const user = await query;
    if (!user) throw new NotFoundError(ErrorCode.ERR_NO_USER_FOUND);
    return user;
  }

  private assertMayEdit(actor: AuthUser, target: User, input: UpdateUserInput): void {
    const self = actor.id === target.id;
    if (!isAdmin(actor)) {
      const currentQueues = (target.queues ?? []).map((q) => q.id);
      const adminOnly =
        changes(input.profile, target.profile) ||
        changes(input.allTicket, target.allTicket) ||
        changes(input.whatsappId, target.whatsappId) ||
        (input.queueIds !== undefined && !sameIds(input.queueIds, currentQueues));
      if (!self || adminOnly) throw new ForbiddenError();
    }
    if (!actor.super && (target.super || changes(input.super, target.super) || changes(input.financial, target.financial))) {
      throw new ForbiddenError();
    }
    if (self && target.profile === 'admin' && changes(input.profile, target.profile)) {
      throw new ValidationError('You cannot remove your own admin profile', undefined, ErrorCode.ERR_CANNOT_DEMOTE_SELF);
    }
  }

  /** Whether some user (of any company) already signs in with this e-mail; e-mails are stored lower-cased. */
  async emailTaken(email: string, db: Knex = this.infra.db): Promise<boolean> {
    return (await User.query(db).where('email', email.trim().toLowerCase()).select('id').first()) !== undefined;
  }

  private async assertEmailFree(db: Knex, email: string): Promise<void> {
    if (await this.emailTaken(email, db)) throw emailTaken();
  }

  /** Queues and the default connection must belong to the user's company. */
  private async assertCompanyRefs(db: Knex, companyId: number, refs: { queueIds?: number[]; whatsappId?: number | null }): Promise<void> {
    const queueIds = [...new Set(refs.queueIds ?? [])];
    if (queueIds.length > 0) {
      const found = await Queue.query(db).where('companyId', companyId).whereIn('id', queueIds).resultSize();
      if (found !== queueIds.length) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_FOUND, 'Queue not found');
    }
    if (refs.whatsappId !== undefined && refs.whatsappId !== null) {
      const found = await Whatsapp.query(db).where({ companyId, id: refs.whatsappId }).resultSize();
      if (found === 0) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND, 'Connection not found');
    }
  }

  private async replaceQueues(db: Knex, userId: number, queueIds: number[]): Promise<void> {
    await db('userQueues').where('userId', userId).delete();
    if (queueIds.length > 0) await db('userQueues').insert(queueIds.map((queueId) => ({ userId, queueId })));
  }

  private async loadWithGraph(db: Knex, id: number): Promise<User> {
    return User.query(db).findById(id).withGraphFetched(VIEW_GRAPH).modifiers(graphModifiers).throwIfNotFound();
  }

  private publish(companyId: number, data: { action: 'create' | 'update'; user: UserView } | { action: 'delete'; userId: number }): void {
    this.infra.realtime.publish(companyId, `company-${companyId}-user`, data);
  }

  /**
   * Runs `announce` once the data is visible: now, or when the caller's transaction commits (so
   * listeners never see, nor wait on, a row that may still roll back).
   */
  private async afterCommit(trx: Knex.Transaction | undefined, announce: () => Promise<void>): Promise<void> {
    if (!trx) return announce();
    trx.executionPromise.then(announce, () => undefined).catch((err: unknown) => {
      this.infra.log.error({ err }, 'user announcement failed');
    });
  }
}
