import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { Queue } from '../queues/queue.model.js';
import { QueueOption } from './queue-option.model.js';
import type { ListOptionsQuery, OptionCreateInput, OptionUpdateInput } from './queue-options.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { QueueOptionView as OptionNode } from '../../contract/views.js';
import { CacheSignals } from '../../cluster/cache-signals.js';

function keyTaken(): ConflictError {
  return new ConflictError(ErrorCode.ERR_QUEUE_OPTION_EXISTS, 'Another option of this menu already has this key');
}

/** Siblings in the order the bot lists them: by key, '2' before '10', then by id. */
const byKey = (a: QueueOption, b: QueueOption) => a.option.localeCompare(b.option, undefined, { numeric: true }) || a.id - b.id;

/**
 * The chatbot menu of a queue: a tree of options, each with the key the customer types. Keys are
 * unique among siblings; deleting an option takes its whole branch (the foreign key cascades).
 */
export class QueueOptionsService {
  constructor(private readonly infra: Pick<Infrastructure, 'db' | 'cluster'>) {}

  /** One level of the menu (the first by default), every option with its branch. */
  async list(actor: AuthUser, query: ListOptionsQuery): Promise<OptionNode[]> {
    const db = this.infra.db;
    await this.findQueue(db, actor.companyId, query.queueId);
    if (query.parentId !== null) await this.findOption(db, actor.companyId, query.parentId, query.queueId);
    const all = await QueueOption.query(db).where({ companyId: actor.companyId, queueId: query.queueId });
    const byParent = new Map<number | null, QueueOption[]>();
    for (const option of all.sort(byKey)) byParent.set(option.parentId, [...(byParent.get(option.parentId) ?? []), option]);
    const build = (parentId: number | null): OptionNode[] =>
      (byParent.get(parentId) ?? []).map((option) => ({ ...toNode(option), children: build(option.id) }));
    return build(query.parentId);
  }

  async create(actor: AuthUser, input: OptionCreateInput): Promise<OptionNode> {
    const option = await this.infra.db.transaction(async (trx) => {
      await this.findQueue(trx, actor.companyId, input.queueId);
      if (input.parentId !== null) await this.findOption(trx, actor.companyId, input.parentId, input.queueId);
      await this.assertKeyFree(trx, input.queueId, input.parentId, input.option);
      return uniqueOr(() => QueueOption.query(trx).insertAndFetch({ ...input, companyId: actor.companyId }), keyTaken);
    });
    this.infra.cluster.signals.send(CacheSignals.botSetup, actor.companyId);
    return { ...toNode(option), children: [] };
  }

  /** Title, message and key; the answer carries the option's branch. */
  async update(actor: AuthUser, id: number, input: OptionUpdateInput): Promise<OptionNode> {
    const option = await this.infra.db.transaction(async (trx) => {
      const current = await this.findOption(trx, actor.companyId, id);
      if (input.option !== undefined && input.option !== current.option) {
        await this.assertKeyFree(trx, current.queueId, current.parentId, input.option, id);
      }
      return uniqueOr(() => current.$query(trx).patchAndFetch(input), keyTaken);
    });
    this.infra.cluster.signals.send(CacheSignals.botSetup, actor.companyId);
    const [node] = (await this.list(actor, { queueId: option.queueId, parentId: option.parentId })).filter((n) => n.id === id);
    return node!;
  }

  /** The option and every option under it. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    const deleted = await QueueOption.query(this.infra.db).where({ companyId: actor.companyId, id }).delete();
    if (deleted === 0) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_OPTION_FOUND);
    this.infra.cluster.signals.send(CacheSignals.botSetup, actor.companyId);
  }

  private async findQueue(db: Knex, companyId: number, id: number): Promise<void> {
    if (!(await Queue.query(db).findOne({ companyId, id }).select('id'))) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_FOUND);
  }

  /** An option of the company (and of `queueId` when given), or 404 ERR_NO_QUEUE_OPTION_FOUND. */
  private async findOption(db: Knex, companyId: number, id: number, queueId?: number): Promise<QueueOption> {
    const option = await QueueOption.query(db).findOne({ companyId, id, ...(queueId === undefined ? {} : { queueId }) });
    if (!option) throw new NotFoundError(ErrorCode.ERR_NO_QUEUE_OPTION_FOUND);
    return option;
  }

  private async assertKeyFree(db: Knex, queueId: number, parentId: number | null, key: string, exceptId?: number): Promise<void> {
    const query = QueueOption.query(db).where({ queueId, option: key });
    if (parentId === null) query.whereNull('parentId');
    else query.where('parentId', parentId);
    if (exceptId !== undefined) query.whereNot('id', exceptId);
    if (await query.select('id').first()) throw keyTaken();
  }
}

function toNode(option: QueueOption): Omit<OptionNode, 'children'> {
  return {
    id: option.id,
    queueId: option.queueId,
    parentId: option.parentId,
    title: option.title,
    message: option.message,
    option: option.option,
    createdAt: option.createdAt,
    updatedAt: option.updatedAt,
  };
}
