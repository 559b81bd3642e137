import type { Logger } from '../logger.js';
import type { RedisLink } from './redis-link.js';

export type SignalHandler = (data: unknown) => void;

/**
 * Small notices every node must act on, such as "company 3's settings changed: forget them". The
 * sending node runs the topic's handlers at once, before its request answers; the other nodes run
 * them when they hear it. With one node there is nothing to tell.
 */
export interface ClusterSignals {
  send(topic: string, data: unknown): void;
  on(topic: string, handler: SignalHandler): void;
}

export class LocalSignals implements ClusterSignals {
  protected readonly handlers = new Map<string, SignalHandler[]>();

  constructor(protected readonly log: Logger) {}

  send(topic: string, data: unknown): void {
    this.run(topic, data);
  }

  on(topic: string, handler: SignalHandler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  protected run(topic: string, data: unknown): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(data);
      } catch (err) {
        this.log.error({ err, topic }, 'signal handler failed');
      }
    }
  }
}

const CHANNEL = 'signals';

interface SignalFrame {
  from: string;
  topic: string;
  data: unknown;
}

/** Signals through Redis pub/sub: here at once, elsewhere as soon as the message arrives. */
export class RedisSignals extends LocalSignals {
  private constructor(
    private readonly link: RedisLink,
    log: Logger,
  ) {
    super(log);
  }

  static async start(link: RedisLink, log: Logger): Promise<RedisSignals> {
    const signals = new RedisSignals(link, log);
    await link.subscribe(CHANNEL, (raw) => signals.heard(raw));
    return signals;
  }

  override send(topic: string, data: unknown): void {
    this.run(topic, data);
    const frame: SignalFrame = { from: this.link.nodeId, topic, data };
    this.link.publish(CHANNEL, JSON.stringify(frame)).catch((err: unknown) => this.log.error({ err, topic }, 'signal not published'));
  }

  private heard(raw: string): void {
    const frame = JSON.parse(raw) as SignalFrame;
    if (frame.from !== this.link.nodeId) this.run(frame.topic, frame.data);
  }
}
