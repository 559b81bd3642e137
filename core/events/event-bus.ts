import { KeyedSerializer } from '../keyed-serializer.js';
import type { Logger } from '../logger.js';
import type { DomainEvent, EventName, EventOf, PayloadOf } from './catalogue.js';

export { Events } from './catalogue.js';
export type { DomainEvent, EventName, EventOf, EventPayloads, KnownEventName, PayloadOf } from './catalogue.js';

export type EventHandler<N extends EventName = EventName> = (event: EventOf<N>) => Promise<void> | void;

interface Subscription {
  label: string;
  handler: (event: DomainEvent) => Promise<void> | void;
}

/**
 * In-process domain events with two dispatchers (Chatwoot's): `on` handlers are the core's own
 * (live frames, caches, the pipeline's intake) and run in order inside `emit`, which awaits them;
 * `listen` handlers (plugin hooks) are queued per label and run after, one event at a time per
 * label, never awaited by the emitter: a slow listener holds neither the request nor the inbound
 * path, only its own later events. A failing handler of either kind is logged and never fails the
 * emitter nor the other handlers. Emitters call `emit` after their transaction has committed.
 */
export class EventBus {
  private readonly handlers = new Map<string, Subscription[]>();
  private readonly listeners = new Map<string, Subscription[]>();
  private readonly queues: KeyedSerializer;

  constructor(private readonly log: Logger) {
    this.queues = new KeyedSerializer((err, label) => this.log.error({ err, handler: label }, 'event listener failed'));
  }

  /** A core handler: runs inside emit, in subscription order. */
  on<N extends EventName>(name: N, handler: EventHandler<N>, label = 'core'): () => void {
    return this.add(this.handlers, name, handler as Subscription['handler'], label);
  }

  /** A listener: queued behind the label's earlier events, run after emit has returned. */
  listen<N extends EventName>(name: N, handler: EventHandler<N>, label: string): () => void {
    return this.add(this.listeners, name, handler as Subscription['handler'], label);
  }

  /** Never rejects. */
  async emit<N extends EventName>(name: N, companyId: number | null, payload: PayloadOf<N>): Promise<void> {
    const event: DomainEvent = { name, companyId, payload };
    for (const { label, handler } of this.listeners.get(name) ?? []) {
      void this.queues.run(label, async () => handler(event));
    }
    for (const { label, handler } of this.handlers.get(name) ?? []) {
      try {
        await handler(event);
      } catch (err) {
        this.log.error({ err, event: name, handler: label }, 'event handler failed');
      }
    }
  }

  /** Resolves once every listener queued so far (and meanwhile) has run: shutdown and tests. */
  idle(): Promise<void> {
    return this.queues.idle();
  }

  private add(map: Map<string, Subscription[]>, name: string, handler: EventHandler, label: string): () => void {
    const entry = { label, handler };
    map.set(name, [...(map.get(name) ?? []), entry]);
    return () => map.set(name, (map.get(name) ?? []).filter((e) => e !== entry));
  }
}
