import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { uniqueOr } from '../../db/unique-violation.js';
import type { PlansService } from '../plans/plans.service.js';
import { DEFAULT_SCHEDULES } from '../companies/companies.schema.js';
import { Queue } from './queue.model.js';
import type { QueueCreateInput, QueueUpdateInput } from './queues.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { QueueView } from '../../contract/views.js';
import { CacheSignals } from '../../cluster/cache-signals.js';

function colorTaken(): ConflictError {
  return new ConflictError(ErrorCode.ERR_QUEUE_COLOR_ALREADY_EXISTS, 'Another queue of the company already has this colour');
}

export type QueueFrame = { action: 'create' | 'update'; queue: QueueView } | { action: 'delete'; queueId: number };

export function toQueueView(queue: Queue): QueueView {
  const { id, companyId, name, color, greetingMessage, completionMessage, outOfHoursMessage, ratingMessage } = queue;
  const { orderQueue, integrationId, promptId, schedules, createdAt, updatedAt } = queue;
  return { id, companyId, name, color, greetingMessage, completionMessage, outOfHoursMessage, ratingMessage, orderQueue, integrationId, promptId, schedules, createdAt, updatedAt };
}

/**
 * The company's queues: every user reads them, admins write them (the routes check who). A colour
 * names one queue of a company; the plan caps how many there are.
 */
export class QueuesService {
  constructor(
    private readonly infra: Pick<Infrastructure, 'db' | 'realtime' | 'cluster'>,
    private readonly plans: PlansService,
  ) {}

  /** Ordered queues first (by orderQueue), then the rest; by name within the same order. */
  async list(actor: AuthUser, companyId = actor.companyId): Promise<QueueView[]> {
    if (companyId !== actor.companyId && !actor.super) throw new ForbiddenError();
    const queues = await Queue.query(this.infra.db)
      .where('companyId', companyId)
      .orderByRaw('?? is null', ['orderQueue'])
      .orderBy('orderQueue')
      .orderBy('name')
      .orderBy('id');
    return queues.map(toQueueView);
  }

  async show(actor: AuthUser, id: number): Promise<QueueView> {
    return toQueueView(await this.find(actor.companyId, id, this.infra.db));
  }

  async create(actor: AuthUser, input: QueueCreateInput): Promise<QueueView> {
    const companyId = actor.companyId;
    const queue = await this.infra.db.transaction(async (trx) => {
      await this.plans.assertWithinLimit(companyId, 'queues', trx);
      await this.assertColorFree(trx, companyId, input.color);
      const { promptId, integrationId, schedules, ...fields } = input;
      return uniqueOr(
        () =>
          Queue.query(trx).insertAndFetch({
            ...fields,
            companyId,
            promptId: promptId ?? null,
            integrationId: integrationId ?? null,
            schedules: schedules ?? DEFAULT_SCHEDULES,
          }),
        colorTaken,
      );
    });
    const view = toQueueView(queue);
    this.publish(companyId, { action: 'create', queue: view });
    return view;
  }

  async update(actor: AuthUser, id: number, input: QueueUpdateInput): Promise<QueueView> {
    const queue = await this.infra.db.transaction(async (trx) => {
      const current = await this.find(actor.companyId, id, trx);
      if (input.color !== undefined) await this.assertColorFree(trx, actor.companyId, input.color, id);
      return uniqueOr(() => current.$query(trx).patchAndFetch(input), colorTaken);
    });
    this.infra.cluster.signals.send(CacheSignals.botSetup, actor.companyId);
    const view = toQueueView(queue);
    this.publish(actor.companyId, { action: 'update', queue: view });
    return view;
  }

  /**
   * The foreign keys detach the queue from users and connections (their link rows go), from
   * tickets and connections' transfer queue (set to null), and take its chatbot options along.
   */
  async remove(actor: AuthUser, id: number): Promise<void> {
    const deleted = await Queue.query(this.infra.db).where({ companyId: actor.companyId, id }).delete();
    if (deleted === 0) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_FOUND);
    this.infra.cluster.signals.send(CacheSignals.botSetup, actor.companyId);
    this.publish(actor.companyId, { action: 'delete', queueId: id });
  }

  /** A queue of the company, or 404 ERR_NO_QUEUE_FOUND (another company's id included). */
  async find(companyId: number, id: number, db: Knex): Promise<Queue> {
    const queue = await Queue.query(db).findOne({ companyId, id });
    if (!queue) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_FOUND);
    return queue;
  }

  /** Colours compare without case: '#FF0000' and '#ff0000' are the same colour. */
  private async assertColorFree(db: Knex, companyId: number, color: string, exceptId?: number): Promise<void> {
    const query = Queue.query(db).where('companyId', companyId).whereRaw('lower(??) = ?', ['color', color.toLowerCase()]);
    if (exceptId !== undefined) query.whereNot('id', exceptId);
    if (await query.select('id').first()) throw colorTaken();
  }

  private publish(companyId: number, data: QueueFrame): void {
    this.infra.realtime.publish(companyId, `company-${companyId}-queue`, data);
  }
}
