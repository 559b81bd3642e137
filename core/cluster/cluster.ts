import type { Config } from '../config/config.schema.js';
import type { Logger } from '../logger.js';
import { InProcessPubSub, type PubSubAdapter } from '../realtime/pubsub.js';
import { RedisPubSub } from '../realtime/redis-pubsub.js';
import { MemoryAttemptStore, RedisAttemptStore, type AttemptStore } from './attempt-store.js';
import { LocalNodeCalls, RedisNodeCalls, type NodeCalls } from './node-calls.js';
import { LocalPresence, RedisPresence, type Presence } from './presence.js';
import { RedisLink } from './redis-link.js';
import { LocalSignals, RedisSignals, type ClusterSignals } from './signals.js';

/**
 * What the nodes of one installation share (DESIGN §4): live frames, attempt counters, presence
 * and cache signals. Without `redisUrl` all of it stays in this process, as one node needs.
 */
export interface Cluster {
  /** Whether other nodes may exist (Redis is configured). */
  shared: boolean;
  /** This process among the nodes (config `nodeId`). */
  nodeId: string;
  pubsub: PubSubAdapter;
  signals: ClusterSignals;
  attempts: AttemptStore;
  presence: Presence;
  /** Requests to a given node (commands for the sessions it runs). */
  calls: NodeCalls;
  close(): Promise<void>;
}

export function localCluster(config: Config, log: Logger): Cluster {
  return {
    shared: false,
    nodeId: config.nodeId,
    pubsub: new InProcessPubSub(),
    signals: new LocalSignals(log),
    attempts: new MemoryAttemptStore(),
    presence: new LocalPresence(),
    calls: new LocalNodeCalls(config.nodeId),
    close: async () => undefined,
  };
}

/** Connects to the configured Redis; an unreachable one fails the start. */
export async function connectCluster(config: Config, log: Logger): Promise<Cluster> {
  if (!config.redisUrl) return localCluster(config, log);
  const link = await RedisLink.connect(config.redisUrl, config.jwtSecret, config.nodeId, log);
  const pubsub = new RedisPubSub(link);
  const [signals, calls] = await Promise.all([RedisSignals.start(link, log), RedisNodeCalls.start(link, log), pubsub.ready()]);
  const presence = new RedisPresence(link);
  return {
    shared: true,
    nodeId: config.nodeId,
    pubsub,
    signals,
    attempts: new RedisAttemptStore(link),
    presence,
    calls,
    async close() {
      await presence.close();
      await link.close();
    },
  };
}
