import type { Knex } from 'knex';
import { ErrorCode, ForbiddenError, NotFoundError, ValidationError, type AuthUser, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { Promotion, toPromotionView, type PromotionView } from './promotion.model.js';
import { PROMOTION_MESSAGES, type PromotionInput } from './promotions.schema.js';


function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

function notFound(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_PROMOTION_FOUND, 'No promotion found with this id');
}

function codeTaken(): ValidationError {
  return new ValidationError(`code: ${PROMOTION_MESSAGES.codeTaken}`, { issues: [{ path: 'code', message: PROMOTION_MESSAGES.codeTaken }] });
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { name?: string; code?: string; message?: string; nativeError?: { code?: string } };
  return e.name === 'UniqueViolationError' || e.code === '23505' || e.nativeError?.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e.message ?? '');
}

/**
 * Promotion codes: written by super users, used at signup. A code is usable while it has uses
 * left and its expiry day has not passed; a signup takes one use in its own transaction.
 */
export class PromotionsService {
  constructor(private readonly app: PluginApp<BillingConfig>) {}

  private assertSuper(actor: AuthUser): void {
    if (!actor.super) throw new ForbiddenError(ErrorCode.ERR_NO_PERMISSION);
  }

  private usable(db: Knex, code: string): Knex.QueryBuilder {
    const today = todayUtc();
    return db('promotions')
      .where('code', code.trim().toUpperCase())
      .where('usesLeft', '>', 0)
      .where((w) => w.whereNull('expiresAt').orWhere('expiresAt', '>=', today));
  }

  async list(actor: AuthUser): Promise<PromotionView[]> {
    this.assertSuper(actor);
    return (await Promotion.query(this.app.db).orderBy('code')).map(toPromotionView);
  }

  async create(actor: AuthUser, input: PromotionInput): Promise<PromotionView> {
    this.assertSuper(actor);
    try {
      return toPromotionView(await Promotion.query(this.app.db).insertAndFetch(input));
    } catch (err) {
      if (isUniqueViolation(err)) throw codeTaken();
      throw err;
    }
  }

  async update(actor: AuthUser, id: number, input: PromotionInput): Promise<PromotionView> {
    this.assertSuper(actor);
    const current = await Promotion.query(this.app.db).findById(id);
    if (!current) throw notFound();
    try {
      return toPromotionView(await current.$query(this.app.db).patchAndFetch(input));
    } catch (err) {
      if (isUniqueViolation(err)) throw codeTaken();
      throw err;
    }
  }

  async remove(actor: AuthUser, id: number): Promise<void> {
    this.assertSuper(actor);
    const deleted = await Promotion.query(this.app.db).deleteById(id);
    if (deleted === 0) throw notFound();
  }

  /** The signup page's check: the code exists, has uses left and has not expired. */
  async valid(code: string): Promise<boolean> {
    if (!code.trim()) return false;
    return (await this.usable(this.app.db, code).first('id')) !== undefined;
  }

  /** The usable promotion of `code` (what a signup will get), or undefined; its use is taken later, by `take`. */
  async offer(code: string): Promise<Promotion | undefined> {
    if (!code.trim()) return undefined;
    const row = (await this.usable(this.app.db, code).first('id')) as { id: number } | undefined;
    return row ? Promotion.query(this.app.db).findById(row.id) : undefined;
  }

  /**
   * Takes one use of `code` inside the signup's transaction: one conditional decrement, so of two
   * signups racing for the last use only one changes the row (on PostgreSQL the second waits for
   * the first's commit and then finds none left). Undefined when the code is not usable.
   */
  async take(code: string, trx: Knex.Transaction): Promise<Promotion | undefined> {
    const taken = await this.usable(trx, code).decrement('usesLeft', 1);
    if (Number(taken) !== 1) return undefined;
    return Promotion.query(trx).findOne({ code: code.trim().toUpperCase() });
  }

  /** Which company used the code, in the same transaction. */
  async record(promotion: Promotion, companyId: number, trx: Knex.Transaction): Promise<void> {
    await trx('promotion_redemptions').insert({ promotionId: promotion.id, companyId, createdAt: new Date().toISOString() });
  }
}
