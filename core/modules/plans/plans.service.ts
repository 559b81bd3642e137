import type { Knex } from 'knex';
import type { Infrastructure } from '../../container.js';
import { ConflictError, NotFoundError, PlanLimitError } from '../../errors.js';
import type { BaseModel } from '../../db/base.model.js';
import { Events } from '../../events/event-bus.js';
import { Company } from '../companies/company.model.js';
import { Queue } from '../queues/queue.model.js';
import { User } from '../users/user.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { Plan, type PlanFlag } from './plan.model.js';
import type { PlanCreateInput, PlanResource, PlanUpdateInput } from './plans.schema.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { ErrorCode } from '../../contract/error-codes.js';


/** The table each plan limit counts. */
const RESOURCE_MODELS: Record<PlanResource, typeof BaseModel> = { users: User, connections: Whatsapp, queues: Queue };

/**
 * Plans: their limits and feature flags, and the checks every module makes against the plan of a
 * company (isEnabled for features, assertWithinLimit before creating a user, connection or queue).
 */
export class PlansService {
  constructor(private readonly infra: Infrastructure) {}

  /** Every plan, ordered by id (public: signup picks one). */
  async list(): Promise<Plan[]> {
    return Plan.query(this.infra.db).orderBy('id');
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
    return (await this.findByName(input.name, db)) ?? Plan.query(db).insertAndFetch(input);
  }

  async create(input: PlanCreateInput): Promise<Plan> {
    const plan = await this.infra.db.transaction(async (trx) => {
      await this.assertNameFree(input.name, undefined, trx);
      return uniqueOr(() => Plan.query(trx).insertAndFetch(input), nameTaken);
    });
    await this.announce('create', plan);
    return plan;
  }

  async update(id: number, input: PlanUpdateInput): Promise<Plan> {
    const plan = await this.infra.db.transaction(async (trx) => {
      const current = await this.get(id, trx);
      if (input.name !== undefined) await this.assertNameFree(input.name, id, trx);
      return uniqueOr(() => current.$query(trx).patchAndFetch(input), nameTaken);
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

  /** The plan of a company, or 404 ERR_NO_PLAN_FOUND. */
  async forCompany(companyId: number, db: Knex = this.infra.db): Promise<Plan> {
    const plan = await this.findForCompany(companyId, db);
    if (!plan) throw new NotFoundError(ErrorCode.ERR_NO_PLAN_FOUND);
    return plan;
  }

  /** Whether the company's plan has this feature; a company without a plan has none. */
  async isEnabled(companyId: number, flag: PlanFlag): Promise<boolean> {
    const plan = await this.findForCompany(companyId, this.infra.db);
    return plan?.[flag] === true;
  }

  /** Throws PlanLimitError when one more `resource` would exceed the company's plan. */
  async assertWithinLimit(companyId: number, resource: PlanResource, db: Knex = this.infra.db): Promise<void> {
    const plan = await this.forCompany(companyId, db);
    const limit = plan[resource];
    const used = await RESOURCE_MODELS[resource].query(db).where('companyId', companyId).resultSize();
    if (used + 1 > limit) throw new PlanLimitError(resource, limit);
  }

  private async findForCompany(companyId: number, db: Knex): Promise<Plan | undefined> {
    return Plan.query(db).whereIn('id', Company.query(db).select('planId').where('id', companyId)).first();
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

  private async announce(action: 'create' | 'update' | 'delete', plan: Plan): Promise<void> {
    const data = action === 'delete' ? { action, planId: plan.id } : { action, plan };
    this.infra.realtime.publish(null, 'plan', data, 'super');
    await this.infra.bus.emit(Events.planUpdated, null, data);
  }
}

function nameTaken(): ConflictError {
  return new ConflictError(ErrorCode.ERR_PLAN_NAME_EXISTS, 'A plan with this name already exists');
}

