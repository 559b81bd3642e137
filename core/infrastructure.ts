import type { Config } from './config/config.schema.js';
import type { Logger } from './logger.js';
import type { Database } from './db/database.js';
import type { EventBus } from './events/event-bus.js';
import type { RealtimeHub } from './realtime/hub.js';
import type { JobEngine } from './jobs/job-engine.js';
import type { MediaStorage } from './storage/media-storage.js';
import type { Cluster } from './cluster/cluster.js';

/**
 * What services receive: shared infrastructure, never a global. A leaf of the import graph (only
 * leaf types here), so services depend on it without depending on the composition root that
 * builds them.
 */
export interface Infrastructure {
  config: Config;
  log: Logger;
  db: Database;
  bus: EventBus;
  realtime: RealtimeHub;
  jobs: JobEngine;
  media: MediaStorage;
  /** What the nodes of the installation share (one node: this process). */
  cluster: Cluster;
}
