import type { RedisLink } from '../cluster/redis-link.js';
import type { Envelope, PubSubAdapter } from './pubsub.js';

const CHANNEL = 'realtime';

/**
 * Frames through one Redis channel: every node, this one included, delivers what it hears to its
 * own sockets, so a socket on any node gets every frame of its rooms in the order Redis got them.
 */
export class RedisPubSub implements PubSubAdapter {
  private readonly handlers: ((envelope: Envelope) => void)[] = [];
  private readonly subscribed: Promise<void>;

  constructor(private readonly link: RedisLink) {
    this.subscribed = link.subscribe(CHANNEL, (raw) => {
      const envelope = JSON.parse(raw) as Envelope;
      for (const handler of this.handlers) handler(envelope);
    });
  }

  /** Resolves once this node hears the channel (before it serves sockets). */
  ready(): Promise<void> {
    return this.subscribed;
  }

  async publish(envelope: Envelope): Promise<void> {
    await this.link.publish(CHANNEL, JSON.stringify(envelope));
  }

  subscribe(handler: (envelope: Envelope) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers.length = 0;
  }
}
