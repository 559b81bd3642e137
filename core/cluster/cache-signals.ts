import { Events, type EventBus } from '../events/event-bus.js';
import type { ClusterSignals } from './signals.js';

/**
 * Signals that a cached read went stale, sent by the node that changed it so that every node drops
 * its copy at once (the caches' time limits only bound a change made outside a server, e.g. by
 * a CLI command).
 */
export const CacheSignals = {
  /** A company's settings, schedules or plan link changed: data is the company id. */
  company: 'cache:company',
  /** A plan's flags or limits changed (any company on it). */
  plans: 'cache:plans',
  /** A connection, queue or chatbot option of a company changed: data is the company id. */
  botSetup: 'cache:bot-setup',
  /** A user's row changed: data is the user id. */
  user: 'cache:user',
} as const;

/** The domain events that stale a cache, sent as the signals the caches listen to. */
export function signalCacheChanges(bus: EventBus, signals: ClusterSignals): void {
  for (const name of [Events.settingUpdated, Events.companyUpdated, Events.companyDeleted]) {
    bus.on(name, (event) => (event.companyId === null ? undefined : signals.send(CacheSignals.company, event.companyId)), 'cache-signals');
  }
  bus.on(Events.planUpdated, () => signals.send(CacheSignals.plans, null), 'cache-signals');
  bus.on(Events.userUpdated, (event) => signals.send(CacheSignals.user, (event.payload as { user: { id: number } }).user.id), 'cache-signals');
}
