import type { RedisLink } from './redis-link.js';

/**
 * Who has a socket open anywhere. The hub reports its own sockets' first open and last close of a
 * user; presence answers whether that changes the user's status for the installation.
 */
export interface Presence {
  /** A user's first socket on this node opened (true) or their last one here closed (false): answers whether the user's status changed. */
  report(userId: number, online: boolean): Promise<boolean>;
  /** Whether a start-up may mark everybody offline: no other node holds a socket. */
  aloneAtStart(): Promise<boolean>;
  /** Of these users, those no live node holds a socket for (a dead node's users). */
  absent(userIds: number[]): Promise<number[]>;
  close(): Promise<void>;
}

/** One node: its own sockets are the whole truth. */
export class LocalPresence implements Presence {
  async report(): Promise<boolean> {
    return true;
  }

  async aloneAtStart(): Promise<boolean> {
    return true;
  }

  /** A running node's flags follow its sockets, and a start clears a crash's: none is stale. */
  async absent(): Promise<number[]> {
    return [];
  }

  async close(): Promise<void> {}
}

/** Flags a dead node left online are cleared by this job, run once cluster-wide. */
export const PRESENCE_SWEEP_JOB = 'users.presence.sweep';
export const PRESENCE_SWEEP_EVERY_MS = 60_000;

/** How long a node's socket list outlives the node: renewed at a third of it while the node runs. */
const NODE_TTL_MS = 30_000;

/**
 * Each node keeps the users it holds sockets for in a Redis set of its own that expires unless
 * renewed, so a node that dies takes its sockets with it within NODE_TTL_MS. A user goes offline
 * when their last socket closes on a node and no other live node holds one.
 */
export class RedisPresence implements Presence {
  private readonly local = new Set<number>();
  private readonly renewal: NodeJS.Timeout;

  constructor(private readonly link: RedisLink) {
    this.renewal = setInterval(() => void this.renew().catch(() => undefined), NODE_TTL_MS / 3);
    this.renewal.unref();
  }

  async report(userId: number, online: boolean): Promise<boolean> {
    const mine = this.nodeKey(this.link.nodeId);
    if (online) {
      this.local.add(userId);
      await this.link.client.multi().sAdd(mine, String(userId)).pExpire(mine, NODE_TTL_MS).exec();
      return true;
    }
    this.local.delete(userId);
    await this.link.client.sRem(mine, String(userId));
    for (const key of await this.otherNodes()) {
      if (await this.link.client.sIsMember(key, String(userId))) return false;
    }
    return true;
  }

  async aloneAtStart(): Promise<boolean> {
    return (await this.otherNodes()).length === 0;
  }

  async absent(userIds: number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const keys = [this.nodeKey(this.link.nodeId), ...(await this.otherNodes())];
    const held = new Set(await this.link.client.sUnion(keys));
    return userIds.filter((id) => !held.has(String(id)));
  }

  async close(): Promise<void> {
    clearInterval(this.renewal);
    await this.link.client.del(this.nodeKey(this.link.nodeId)).catch(() => undefined);
  }

  private async renew(): Promise<void> {
    if (this.local.size === 0) return;
    const mine = this.nodeKey(this.link.nodeId);
    await this.link.client.multi().sAdd(mine, [...this.local].map(String)).pExpire(mine, NODE_TTL_MS).exec();
  }

  private async otherNodes(): Promise<string[]> {
    const mine = this.nodeKey(this.link.nodeId);
    const keys: string[] = [];
    for await (const batch of this.link.client.scanIterator({ MATCH: this.nodeKey('*'), COUNT: 100 })) keys.push(...batch);
    return keys.filter((key) => key !== mine);
  }

  private nodeKey(nodeId: string): string {
    return this.link.key(`sockets:${nodeId}`);
  }
}
