import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import { ConflictError, NotFoundError, PlanBelowUsageError, PlanLimitError } from '../../errors.js';
import type { BaseModel } from '../../db/base.model.js';
import { Events } from '../../events/event-bus.js';
import { Company } from '../companies/company.model.js';
import { Queue } from '../queues/queue.model.js';
import { User } from '../users/user.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { TtlCache } from '../pipeline/memo.js';
import { PLAN_FLAGS, type PlanFlag, type PlanView } from '../../contract/views.js';
import { Plan } from './plan.model.js';
import { PlanCatalogue } from './plan-catalogue.js';
import { PlanFeature } from './plan-feature.model.js';
import { PLAN_RESOURCES, type PlanCreateInput, type PlanResource, type PlanUpdateInput } from './plans.schema.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { CacheSignals } from '../../cluster/cache-signals.js';
import { ErrorCode } from '../../contract/error-codes.js';

/**
 * How long a company's flags and limits are trusted without a signal. A plan or company change
 * on any node drops them at once (CacheSignals); this bounds how late a change made outside a
 * server (a CLI command) is seen.
 */
export const PLAN_CACHE_MS = 30_000;

/** A company's plan rows by key; null for a company without a plan. */
type Grants = Map<string, PlanFeature> | null;

const COLUMNS = ['name', 'users', 'connections', 'queues', 'value'] as const;

/** The table each plan limit counts. */
const RESOURCE_MODELS: Record<PlanResource, typeof BaseModel> = { users: User, connections: Whatsapp, queues: Queue };

/**
 * Plans: their limits and feature flags, and the checks every module makes against the plan of a
 * company (isEnabled for features, assertWithinLimit before creating a user, connection or queue).
 */
export class PlansService {
  /** The installation's flags and limits: the spec's, then the plugins' (the plugin host declares them). */
  readonly catalogue = new PlanCatalogue();
  private readonly grants = new TtlCache<number, Grants>(PLAN_CACHE_MS);

  constructor(private readonly infra: Infrastructure) {
    infra.cluster.signals.on(CacheSignals.plans, () => this.grants.deleteWhere(() => true));
    infra.cluster.signals.on(CacheSignals.company, (companyId) => this.grants.delete(companyId as number));
  }

  /** Every plan, ordered by id (public: signup picks one). */
  async list(): Promise<PlanView[]> {
    return this.present(await Plan.query(this.infra.db).orderBy('id'), this.infra.db);
  }

  /** One plan as the API answers it, or 404. */
  async view(id: number): Promise<PlanView> {
    return this.presentOne(await this.get(id), this.infra.db);
  }

  async get(id: number, db: Knex = this.infra.db): Promise<Plan> {
    const plan = await Plan.query(db).findById(id);
    if (!plan) throw new NotFoundError(ErrorCode.ERR_NO_PLAN_FOUND);
    return plan;
  }

  /** The plan with this name (case-insensitive), or 404. */
  async getByName(name: string, db: Knex = this.infra.db): Promise<Plan> {
    const plan = await this.findByName(name, db);
    if (!plan) throw new NotFoundError(ErrorCode.ERR_NO_PLAN_FOUND, `No plan is named "${name}"`);
    return plan;
  }

  /** The plan with the lowest id: what a tenant gets when nobody chose one. */
  async first(db: Knex = this.infra.db): Promise<Plan> {
    const plan = await Plan.query(db).orderBy('id').first();
    if (!plan) throw new NotFoundError(ErrorCode.ERR_NO_PLAN_FOUND, 'No plan exists yet');
    return plan;
  }

  /** The plan with this name, created quietly when missing (platform set-up at start). */
  async ensure(input: PlanCreateInput, db: Knex): Promise<Plan> {
    return (await this.findByName(input.name, db)) ?? this.insert(input, db);
  }

  async create(input: PlanCreateInput): Promise<PlanView> {
    const plan = await this.infra.db.transaction(async (trx) => {
      await this.assertNameFree(input.name, undefined, trx);
      return this.presentOne(await uniqueOr(() => this.insert(input, trx), nameTaken), trx);
    });
    await this.announce('create', plan);
    return plan;
  }

  async update(id: number, input: PlanUpdateInput): Promise<PlanView> {
    const plan = await this.infra.db.transaction(async (trx) => {
      const current = await this.get(id, trx);
      if (input.name !== undefined) await this.assertNameFree(input.name, id, trx);
      const { columns, flags, limits } = this.split(input);
      const saved = await uniqueOr(() => current.$query(trx).patchAndFetch(columns), nameTaken);
      await this.saveFeatures(id, flags, limits, trx);
      return this.presentOne(saved, trx);
    });
    await this.announce('update', plan);
    return plan;
  }

  /** A plan some company uses cannot go: 409 ERR_PLAN_IN_USE. */
  async remove(id: number): Promise<void> {
    const plan = await this.infra.db.transaction(async (trx) => {
      const current = await this.get(id, trx);
      const companies = await Company.query(trx).where('planId', id).resultSize();
      if (companies > 0) {
        throw new ConflictError(ErrorCode.ERR_PLAN_IN_USE, `The plan is used by ${companies} ${companies === 1 ? 'company' : 'companies'}`);
      }
      await current.$query(trx).delete();
      return current;
    });
    await this.announce('delete', plan);
  }

  /** Id and name of each plan asked for (company lists). */
  async summaries(ids: number[], db: Knex = this.infra.db): Promise<Map<number, { id: number; name: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await Plan.query(db).select('id', 'name').whereIn('id', ids);
    return new Map(rows.map((p) => [p.id, { id: p.id, name: p.name }]));
  }

  /** The plan of a company as the API answers it (listPlan), or 404 ERR_NO_PLAN_FOUND. */
  async forCompany(companyId: number, db: Knex = this.infra.db): Promise<PlanView> {
    const plan = await this.findForCompany(companyId, db);
    if (!plan) throw new NotFoundError(ErrorCode.ERR_NO_PLAN_FOUND);
    return this.presentOne(plan, db);
  }

  /**
   * Whether the company's plan has this flag (a spec flag or a plugin's); a company without a plan
   * has none. Cached per company (routes, jobs and hooks all ask): see PLAN_CACHE_MS.
   */
  async isEnabled(companyId: number, flag: string): Promise<boolean> {
    return (await this.grantsOf(companyId))?.get(flag)?.enabled === true;
  }

  /**
   * The company's value of a declared limit: its plan's, else the declared default; 0 for a company
   * without a plan. An undeclared key is a programming error.
   */
  async limit(companyId: number, key: string): Promise<number> {
    const fallback = this.catalogue.limitDefault(key);
    if (fallback === undefined) throw new Error(`No installed plugin declares the plan limit "${key}"`);
    const grants = await this.grantsOf(companyId);
    if (!grants) return 0;
    return grants.get(key)?.limit ?? fallback;
  }

  /** Throws PlanLimitError (403 ERR_PLAN_LIMIT) when one more than `used` would exceed the limit `key`. */
  async assertBelowLimit(companyId: number, key: string, used: number): Promise<void> {
    const max = await this.limit(companyId, key);
    if (used + 1 > max) throw new PlanLimitError(key, max);
  }

  /** A subquery of the ids of companies whose plan has this flag, for jobs that sweep every company. */
  companiesWith(flag: string, db: Knex = this.infra.db): Knex.QueryBuilder {
    return db('companies')
      .join('planFeatures', 'planFeatures.planId', 'companies.planId')
      .where({ 'planFeatures.key': flag, 'planFeatures.enabled': true })
      .select('companies.id');
  }

  /** Throws PlanLimitError when one more `resource` would exceed the company's plan. */
  async assertWithinLimit(companyId: number, resource: PlanResource, db: Knex = this.infra.db): Promise<void> {
    const plan = await this.findForCompany(companyId, db);
    if (!plan) throw new NotFoundError(ErrorCode.ERR_NO_PLAN_FOUND);
    const limit = plan[resource];
    const used = await RESOURCE_MODELS[resource].query(db).where('companyId', companyId).resultSize();
    if (used + 1 > limit) throw new PlanLimitError(resource, limit);
  }

  /**
   * Throws PlanBelowUsageError (409 ERR_PLAN_BELOW_USERS / _CONNECTIONS / _QUEUES) when the company
   * already has more users, connections or queues than plan `planId` allows: every plan change asks this first.
   * An unknown plan: 404.
   */
  async assertFits(companyId: number, planId: number, db: Knex = this.infra.db): Promise<void> {
    const plan = await this.get(planId, db);
    for (const resource of PLAN_RESOURCES) {
      const used = await RESOURCE_MODELS[resource].query(db).where('companyId', companyId).resultSize();
      if (used > plan[resource]) throw new PlanBelowUsageError(resource, plan[resource], used);
    }
  }

  private async findForCompany(companyId: number, db: Knex): Promise<Plan | undefined> {
    return Plan.query(db).whereIn('id', Company.query(db).select('planId').where('id', companyId)).first();
  }

  private grantsOf(companyId: number): Promise<Grants> {
    return this.grants.get(companyId, async () => {
      const db = this.infra.db;
      const company = await Company.query(db).findById(companyId).select('planId');
      if (company === undefined || company.planId === null) return null;
      const rows = await PlanFeature.query(db).where('planId', company.planId);
      return new Map(rows.map((row) => [row.key, row]));
    });
  }

  /** A new plan's row and its features: every flag of the catalogue is on unless the input says otherwise. */
  private async insert(input: PlanCreateInput, db: Knex): Promise<Plan> {
    const { columns, flags, limits } = this.split(input);
    const plan = await Plan.query(db).insertAndFetch(columns);
    const allOn = Object.fromEntries(this.catalogue.flagKeys.map((key) => [key, true]));
    await this.saveFeatures(plan.id, { ...allOn, ...flags }, limits, db);
    return plan;
  }

  /** The plan's columns, its flags (`features` merged under the spec's top-level booleans) and its limits. */
  private split(input: PlanUpdateInput) {
    const columns = Object.fromEntries(COLUMNS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Partial<
      Pick<Plan, (typeof COLUMNS)[number]>
    >;
    const topLevel = Object.fromEntries(PLAN_FLAGS.filter((flag) => input[flag] !== undefined).map((flag) => [flag, input[flag]!]));
    return { columns, flags: { ...input.features, ...topLevel }, limits: input.limits ?? {} };
  }

  /** Upserts the flags and limits the catalogue knows (others are dropped); a null limit goes back to its default. */
  private async saveFeatures(planId: number, flags: Record<string, boolean>, limits: Record<string, number | null>, db: Knex): Promise<void> {
    const flagRows = Object.entries(flags)
      .filter(([key]) => this.catalogue.hasFlag(key))
      .map(([key, enabled]) => ({ planId, key, enabled }));
    const known = Object.entries(limits).filter(([key]) => this.catalogue.limitDefault(key) !== undefined);
    const limitRows = known.flatMap(([key, limit]) => (limit === null ? [] : [{ planId, key, enabled: true, limit }]));
    const reset = known.filter(([, limit]) => limit === null).map(([key]) => key);
    if (flagRows.length > 0) await db('planFeatures').insert(flagRows).onConflict(['planId', 'key']).merge(['enabled']);
    if (limitRows.length > 0) await db('planFeatures').insert(limitRows).onConflict(['planId', 'key']).merge(['limit']);
    if (reset.length > 0) await db('planFeatures').where('planId', planId).whereIn('key', reset).delete();
  }

  private async presentOne(plan: Plan, db: Knex): Promise<PlanView> {
    return (await this.present([plan], db))[0]!;
  }

  /** Plans with their features and limits, as the API answers them. */
  private async present(plans: Plan[], db: Knex): Promise<PlanView[]> {
    const rows = plans.length === 0 ? [] : await PlanFeature.query(db).whereIn('planId', plans.map((p) => p.id));
    return plans.map((plan) => {
      const own = new Map(rows.filter((row) => row.planId === plan.id).map((row) => [row.key, row]));
      const features = Object.fromEntries(this.catalogue.flagKeys.map((key) => [key, own.get(key)?.enabled === true]));
      const limits = Object.fromEntries(this.catalogue.limitKeys.map((key) => [key, own.get(key)?.limit ?? this.catalogue.limitDefault(key)!]));
      const spec = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, features[flag]!])) as Record<PlanFlag, boolean>;
      const { id, name, users, connections, queues, value, createdAt, updatedAt } = plan;
      return { id, name, users, connections, queues, value: Number(value), ...spec, features, limits, createdAt, updatedAt };
    });
  }

  /**
   * Case-insensitive in any alphabet on both databases (SQLite's lower() folds only ASCII): the
   * database narrows to names of the same length, the comparison happens here.
   */
  private async findByName(name: string, db: Knex): Promise<Plan | undefined> {
    const sameLength = await Plan.query(db).whereRaw('length(name) = ?', [[...name].length]);
    return sameLength.find((plan) => plan.name.localeCompare(name, undefined, { sensitivity: 'accent' }) === 0);
  }

  /** Plan names are unique regardless of case: 409 ERR_PLAN_NAME_EXISTS. */
  private async assertNameFree(name: string, exceptId: number | undefined, db: Knex): Promise<void> {
    const other = await this.findByName(name, db);
    if (other && other.id !== exceptId) throw nameTaken();
  }

  private async announce(action: 'create' | 'update' | 'delete', plan: Pick<Plan, 'id'>): Promise<void> {
    const data = action === 'delete' ? { action, planId: plan.id } : { action, plan };
    this.infra.realtime.publish(null, 'plan', data, 'super');
    await this.infra.bus.emit(Events.planUpdated, null, data);
  }
}

function nameTaken(): ConflictError {
  return new ConflictError(ErrorCode.ERR_PLAN_NAME_EXISTS, 'A plan with this name already exists');
}

