import { createHash } from 'node:crypto';
import type { Logger } from '../logger.js';

/** Tries before a start gives up on Redis; once connected, a node tries for as long as it runs. */
const START_TRIES = 5;

/** The client module is loaded by the first node that uses Redis: a lone node never holds it (about 5 MB of heap). */
async function redisClient(url: string) {
  const { createClient } = await import('redis');
  let connectedOnce = false;
  const client = createClient({
    url,
    socket: {
      connectTimeout: 5000,
      reconnectStrategy: (retries: number, cause: Error) =>
        !connectedOnce && retries >= START_TRIES ? new Error(`cannot reach Redis at ${new URL(url).host}: ${cause.message}`) : Math.min(100 * 2 ** retries, 3000),
    },
  });
  client.on('ready', () => {
    connectedOnce = true;
  });
  return client;
}

type RedisClient = Awaited<ReturnType<typeof redisClient>>;

/**
 * The connection of one node to the installation's Redis: a client for commands and one for
 * subscriptions (a subscribed connection takes no other command). Keys and channels carry a prefix
 * derived from the token secret, which every node of one installation shares and no other
 * installation has, so two installations on one Redis never hear each other.
 */
export class RedisLink {
  readonly prefix: string;
  private readonly subscriptions = new Map<string, ((message: string) => void)[]>();

  private constructor(
    /** This process, among the nodes: messages it published come back to it and are told apart by it. */
    readonly nodeId: string,
    readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    secret: string,
  ) {
    this.prefix = `atende:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}:`;
  }

  /** Connects both clients; a Redis that cannot be reached fails the start with its address' error. */
  static async connect(url: string, secret: string, nodeId: string, log: Logger): Promise<RedisLink> {
    const client = await redisClient(url);
    const subscriber: RedisClient = client.duplicate();
    // Without a listener an 'error' event would end the process; the clients reconnect by themselves.
    client.on('error', (err: unknown) => log.warn({ err, role: 'commands' }, 'redis connection error'));
    subscriber.on('error', (err: unknown) => log.warn({ err, role: 'subscriber' }, 'redis connection error'));
    await Promise.all([client.connect(), subscriber.connect()]);
    return new RedisLink(nodeId, client, subscriber, secret);
  }

  key(name: string): string {
    return this.prefix + name;
  }

  publish(channel: string, message: string): Promise<number> {
    return this.client.publish(this.key(channel), message);
  }

  /** Every message on `channel`, in the order Redis received them. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    const listeners = this.subscriptions.get(channel);
    if (listeners) {
      listeners.push(listener);
      return;
    }
    this.subscriptions.set(channel, [listener]);
    await this.subscriber.subscribe(this.key(channel), (message) => {
      for (const l of this.subscriptions.get(channel) ?? []) l(message);
    });
  }

  async close(): Promise<void> {
    this.subscriptions.clear();
    await Promise.allSettled([this.subscriber.close(), this.client.close()]);
  }
}
