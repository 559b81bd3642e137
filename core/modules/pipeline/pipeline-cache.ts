import type { Infrastructure } from '../../infrastructure.js';
import { CacheSignals } from '../../cluster/cache-signals.js';
import { Company, type ScheduleEntry } from '../companies/company.model.js';
import { QueueOption } from '../queue-options/queue-option.model.js';
import { Queue } from '../queues/queue.model.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { SettingKey } from '../settings/settings.schema.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { TtlCache } from './memo.js';

/**
 * How long the pipeline trusts what it read about a connection, its queues and a company's
 * settings without a signal. An edit on any node drops them at once (CacheSignals); this bounds
 * how late a change made outside a server is seen.
 */
export const PIPELINE_CACHE_MS = 3000;

/** A queue of a connection with its chatbot options (every level). */
export interface BotQueue {
  queue: Queue;
  options: QueueOption[];
}

/** What the bot needs of a connection: its texts and limits, and its queues in menu order. */
export interface ConnectionProfile {
  whatsapp: Whatsapp;
  queues: BotQueue[];
}

export type CompanySettings = Record<SettingKey, string>;

/** Queues in menu order: ordered ones first (by orderQueue), then by name (the queues page's order). */
function menuOrder(a: Queue, b: Queue): number {
  if (a.orderQueue !== b.orderQueue) {
    if (a.orderQueue === null) return 1;
    if (b.orderQueue === null) return -1;
    return a.orderQueue - b.orderQueue;
  }
  return a.name.localeCompare(b.name) || a.id - b.id;
}

/** Per-connection and per-company reads of the pipeline, kept for PIPELINE_CACHE_MS. */
export class PipelineCache {
  private readonly connections = new TtlCache<number, ConnectionProfile | undefined>(PIPELINE_CACHE_MS);
  private readonly settings = new TtlCache<number, CompanySettings>(PIPELINE_CACHE_MS);
  private readonly schedules = new TtlCache<number, ScheduleEntry[]>(PIPELINE_CACHE_MS);

  constructor(
    private readonly infra: Infrastructure,
    private readonly settingsService: SettingsService,
  ) {
    infra.cluster.signals.on(CacheSignals.company, (companyId) => this.forgetCompany(companyId as number));
    // Profiles are kept by connection: a company's change drops them all (edits are rare).
    infra.cluster.signals.on(CacheSignals.botSetup, () => this.connections.deleteWhere(() => true));
  }

  connection(connectionId: number): Promise<ConnectionProfile | undefined> {
    return this.connections.get(connectionId, () => this.loadConnection(connectionId));
  }

  companySettings(companyId: number): Promise<CompanySettings> {
    return this.settings.get(companyId, async () => {
      const list = await this.settingsService.list(companyId);
      return Object.fromEntries(list.map((s) => [s.key, s.value])) as CompanySettings;
    });
  }

  async setting(companyId: number, key: SettingKey): Promise<string> {
    return (await this.companySettings(companyId))[key];
  }

  companySchedules(companyId: number): Promise<ScheduleEntry[]> {
    return this.schedules.get(companyId, async () => (await Company.query(this.infra.db).findById(companyId).select('schedules'))?.schedules ?? []);
  }

  /** A queue with its options: the connection's own from the cache, another (a transfer's) read now. */
  async queue(profile: ConnectionProfile, queueId: number): Promise<BotQueue | undefined> {
    const known = profile.queues.find((q) => q.queue.id === queueId);
    if (known) return known;
    const queue = await Queue.query(this.infra.db).findOne({ id: queueId, companyId: profile.whatsapp.companyId });
    if (!queue) return undefined;
    return { queue, options: await QueueOption.query(this.infra.db).where({ queueId }) };
  }

  private async loadConnection(connectionId: number): Promise<ConnectionProfile | undefined> {
    const db = this.infra.db;
    const whatsapp = await Whatsapp.query(db).findById(connectionId);
    if (!whatsapp) return undefined;
    const queues = await Queue.query(db)
      .join('whatsappQueues', 'whatsappQueues.queueId', 'queues.id')
      .where('whatsappQueues.whatsappId', connectionId)
      .where('queues.companyId', whatsapp.companyId)
      .select('queues.*');
    queues.sort(menuOrder);
    const options = queues.length
      ? await QueueOption.query(db).whereIn(
          'queueId',
          queues.map((q) => q.id),
        )
      : [];
    return { whatsapp, queues: queues.map((queue) => ({ queue, options: options.filter((o) => o.queueId === queue.id) })) };
  }

  private forgetCompany(companyId: number): void {
    this.settings.delete(companyId);
    this.schedules.delete(companyId);
  }
}
