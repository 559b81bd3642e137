import type { Knex } from 'knex';
import type { Infrastructure } from '../../infrastructure.js';
import { NotFoundError } from '../../errors.js';
import { Help } from './helps.model.js';
import type { HelpCreateInput, HelpUpdateInput } from './helps.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { HelpView } from '../../contract/views.js';

/** Live channel of the help gallery, heard by every company. */
export const HELPS_CHANNEL = 'helps';

/** Help videos: listed to everyone, written by super users (the routes check who). */
export class HelpsService {
  constructor(private readonly infra: Pick<Infrastructure, 'db' | 'realtime'>) {}

  /** Every help, ordered by id. */
  async list(): Promise<HelpView[]> {
    return Help.query(this.infra.db).orderBy('id');
  }

  async create(input: HelpCreateInput): Promise<HelpView> {
    const help = await Help.query(this.infra.db).insertAndFetch(input);
    this.announce({ action: 'create', help });
    return help;
  }

  async update(id: number, input: HelpUpdateInput): Promise<HelpView> {
    const help = await this.infra.db.transaction(async (trx) => (await this.get(id, trx)).$query(trx).patchAndFetch(input));
    this.announce({ action: 'update', help });
    return help;
  }

  async remove(id: number): Promise<void> {
    const deleted = await Help.query(this.infra.db).deleteById(id);
    if (deleted === 0) throw new NotFoundError(ErrorCode.ERR_NO_HELP_FOUND);
    this.announce({ action: 'delete', helpId: id });
  }

  private async get(id: number, db: Knex): Promise<Help> {
    const help = await Help.query(db).findById(id);
    if (!help) throw new NotFoundError(ErrorCode.ERR_NO_HELP_FOUND);
    return help;
  }

  /** Every company hears it: helps are global. */
  private announce(data: { action: 'create' | 'update'; help: HelpView } | { action: 'delete'; helpId: number }): void {
    this.infra.realtime.publish(null, HELPS_CHANNEL, data);
  }
}
