/** One realtime frame on its way to the sockets of a company (and optionally one room of it). */
export interface Envelope {
  companyId: number | null; // null: every company (platform announcements)
  /** e.g. 'user:3', 'queue:2', 'ticket:12', 'notification'; several: a socket in any of them; none: the whole company. */
  room?: string | string[];
  channel: string; // the spec's channel name, e.g. 'company-1-ticket'
  data: unknown;
}

/**
 * Carries envelopes between processes. The in-process adapter is the default; a Redis or Postgres
 * LISTEN/NOTIFY adapter implements the same three methods when several processes serve one site.
 */
export interface PubSubAdapter {
  publish(envelope: Envelope): Promise<void>;
  subscribe(handler: (envelope: Envelope) => void): void;
  close(): Promise<void>;
}

export class InProcessPubSub implements PubSubAdapter {
  private handlers: ((envelope: Envelope) => void)[] = [];

  async publish(envelope: Envelope): Promise<void> {
    for (const handler of this.handlers) handler(envelope);
  }

  subscribe(handler: (envelope: Envelope) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers = [];
  }
}
