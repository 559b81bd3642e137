import { createHash, randomUUID } from 'node:crypto';
import { ConflictError, ErrorCode, signedHeaders, type AuthUser, type DomainEvent, type EventOf, type KnownEventName, type PluginApp } from 'atende/plugin';
import { factOf } from './webhook-events.js';
import { WebhookDelivery, WebhookEndpoint } from './webhook.model.js';
import { deliveryView, type WebhooksService } from './webhooks.service.js';
import type { DeliveryView } from './webhooks.contract.js';

export const DELIVER_JOB = 'webhooks.deliver';
export const SWEEP_JOB = 'webhooks.sweep';
export const PRUNE_JOB = 'webhooks.prune';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Old deliveries are deleted this many at a time (one short statement each, on a big table). */
const PRUNE_BATCH = 1000;

export interface WebhooksConfig {
  /** The first retry's delay; each next one doubles, up to maxRetryDelayMs. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** A delivery still failing this long after its event is given up (status failed). */
  giveUpAfterMs: number;
  /** How long a receiver has to answer. */
  timeoutMs: number;
  /** How often pending deliveries whose job was lost (a crash at the wrong moment) are taken up again. */
  sweepEveryMs: number;
  /** Sent and failed deliveries older than this many days are deleted (pending ones never). */
  retentionDays: number;
  /** How often they are (a day). */
  pruneEveryMs: number;
}

/** The headers of every delivery, besides the signature's (signedHeaders: X-Atende-Timestamp, X-Atende-Signature). */
export const HEADERS = {
  event: 'x-atende-event',
  delivery: 'x-atende-delivery',
} as const;

/** A receiver's answer is read up to this many bytes (only its start is kept, as the error). */
const MAX_ANSWER_BYTES = 64 * 1024;

interface Attempt {
  statusCode: number | null;
  error: string | null;
}

/**
 * Deliveries: each event an active endpoint wants becomes a row as the event is emitted (after the
 * write's commit, before the emitter moves on), then goes out through `webhooks.deliver` jobs,
 * retried with exponential backoff until it is answered 2xx or given up. Deliveries of one
 * endpoint and one ticket (or contact) go out in the order of their events: a later one waits while
 * an earlier one is pending. A delivery marked sent is never sent again, save by an admin's resend.
 */
export class DeliveriesService {
  private lastSequence = 0;

  constructor(
    private readonly app: PluginApp<WebhooksConfig>,
    private readonly webhooks: WebhooksService,
  ) {}

  /**
   * Records the deliveries of a domain event. The sequence is taken before anything is awaited, so
   * it follows the order in which the events were emitted in this process.
   */
  async record(e: DomainEvent): Promise<void> {
    const sequence = this.nextSequence();
    const { companyId } = e;
    if (companyId === null) return;
    const fact = factOf(e as EventOf<KnownEventName>);
    if (!fact) return;
    if (!(await this.app.services.plans.isEnabled(companyId, 'useExternalApi'))) return;
    const endpoints = (await this.webhooks.subscriptionsOf(companyId)).filter((s) => s.events.has(fact.event));
    if (endpoints.length === 0) return;

    const now = new Date();
    const createdAt = now.toISOString();
    const expiresAt = new Date(now.getTime() + this.app.config.giveUpAfterMs).toISOString();
    const sourceKey = createHash('sha256').update(`${e.name}:${JSON.stringify(e.payload)}`).digest('hex');
    const rows = endpoints.map(({ endpointId }) => {
      const eventId = randomUUID();
      const payload = JSON.stringify({ id: eventId, event: fact.event, createdAt, companyId, data: fact.data });
      return { companyId, endpointId, eventId, event: fact.event, orderKey: fact.orderKey, sourceKey, eventSeq: sequence, payload, status: 'pending', attempts: 0, nextAttemptAt: createdAt, expiresAt, createdAt, updatedAt: createdAt };
    });
    // The same event told twice (a replayed hook) is one delivery per endpoint.
    await this.app.db('webhook_deliveries').insert(rows).onConflict(['endpoint_id', 'source_key']).ignore();
    const stored = await WebhookDelivery.query(this.app.db)
      .select('id')
      .whereIn('eventId', rows.map((r) => r.eventId));
    for (const { id } of stored) await this.app.jobs.now(DELIVER_JOB, { companyId, deliveryId: id });
  }

  /** One attempt of a delivery, when it is due, pending, the head of its line and not under way elsewhere. */
  async deliver(deliveryId: number): Promise<void> {
    const db = this.app.db;
    const row = await WebhookDelivery.query(db).findById(deliveryId);
    if (!row || row.status !== 'pending') return;
    const now = Date.now();
    // An early wake-up: the delivery's own job comes at its time.
    if (Date.parse(row.nextAttemptAt) > now + 1000) return;
    const endpoint = await WebhookEndpoint.query(db).findById(row.endpointId);
    // A paused endpoint keeps its deliveries until it is active again (or they are given up).
    if (!endpoint?.active) return;
    if (await this.waiting(row)) return;
    const nowIso = new Date(now).toISOString();
    const leasedUntil = new Date(now + this.app.config.timeoutMs + 30_000).toISOString();
    const leased = await WebhookDelivery.query(db)
      .patch({ leasedUntil })
      .where({ id: row.id, status: 'pending' })
      .where((q) => q.whereNull('leasedUntil').orWhere('leasedUntil', '<', nowIso));
    if (leased === 0) return;

    const attempt = await this.post(endpoint, row);
    const done = new Date();
    const attempts = row.attempts + 1;
    const common = { attempts, lastStatusCode: attempt.statusCode, lastError: attempt.error, lastAttemptAt: done.toISOString(), leasedUntil: null };
    if (attempt.error === null) {
      await WebhookDelivery.query(db).findById(row.id).patch({ ...common, status: 'sent', deliveredAt: done.toISOString() });
    } else if (done.getTime() >= Date.parse(row.expiresAt)) {
      await WebhookDelivery.query(db).findById(row.id).patch({ ...common, status: 'failed' });
    } else {
      const { retryDelayMs, maxRetryDelayMs } = this.app.config;
      const delay = Math.min(retryDelayMs * 2 ** (attempts - 1), maxRetryDelayMs);
      const next = new Date(Math.min(done.getTime() + delay, Date.parse(row.expiresAt)));
      await WebhookDelivery.query(db).findById(row.id).patch({ ...common, nextAttemptAt: next.toISOString() });
      await this.app.jobs.schedule(next, DELIVER_JOB, { companyId: row.companyId, deliveryId: row.id });
      return;
    }
    await this.wakeNext(row);
  }

  /** An admin's resend: the same event id and body, attempted again now (and retried as any delivery). */
  async resend(actor: AuthUser, webhookId: number, deliveryId: number): Promise<DeliveryView> {
    const row = await this.webhooks.delivery(actor, webhookId, deliveryId);
    const endpoint = await WebhookEndpoint.query(this.app.db).findById(row.endpointId);
    if (!endpoint?.active) throw new ConflictError(ErrorCode.ERR_WEBHOOK_INACTIVE, 'Activate the webhook before resending its deliveries');
    const now = new Date();
    const updated = await row.$query(this.app.db).patchAndFetch({
      status: 'pending',
      nextAttemptAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.app.config.giveUpAfterMs).toISOString(),
    });
    await this.app.jobs.now(DELIVER_JOB, { companyId: row.companyId, deliveryId: row.id });
    return deliveryView(updated);
  }

  /**
   * The safety net: gives up deliveries past their time that no attempt is holding, and takes up
   * due ones at the head of their line whose job was lost.
   */
  async sweep(): Promise<void> {
    const db = this.app.db;
    const nowIso = new Date().toISOString();
    const free = (q: ReturnType<typeof WebhookDelivery.query>) => q.whereNull('leasedUntil').orWhere('leasedUntil', '<', nowIso);
    const expired = await WebhookDelivery.query(db).select('id').where({ status: 'pending' }).where('expiresAt', '<', nowIso).where(free).limit(500);
    if (expired.length > 0) {
      const ids = expired.map((r) => r.id);
      // The last attempt's error stays: it says why; one never attempted says it was given up.
      await WebhookDelivery.query(db).patch({ status: 'failed' }).whereIn('id', ids).where({ status: 'pending' }).whereNotNull('lastError');
      await WebhookDelivery.query(db).patch({ status: 'failed', lastError: 'given up: not delivered in time' }).whereIn('id', ids).where({ status: 'pending' });
    }
    const due = await db('webhook_deliveries as d')
      .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select('d.id', 'd.company_id')
      .where('d.status', 'pending')
      .where('e.active', true)
      .where('d.next_attempt_at', '<=', new Date(Date.now() - 5000).toISOString())
      .where((q) => q.whereNull('d.leased_until').orWhere('d.leased_until', '<', nowIso))
      .whereNotExists((q) =>
        q
          .select(db.raw('1'))
          .from('webhook_deliveries as p')
          .whereRaw('p.endpoint_id = d.endpoint_id')
          .whereRaw('p.order_key = d.order_key')
          .where('p.status', 'pending')
          .where((w) => w.whereRaw('p.event_seq < d.event_seq').orWhere((t) => t.whereRaw('p.event_seq = d.event_seq').whereRaw('p.id < d.id'))),
      )
      .limit(200);
    for (const r of due as { id: number; companyId: number }[]) await this.app.jobs.now(DELIVER_JOB, { companyId: r.companyId, deliveryId: r.id });
  }

  /**
   * Deletes the settled (sent or failed) deliveries made more than retentionDays ago, in batches; a
   * pending one, however old, is still being tried (or waits for its endpoint) and stays.
   */
  async prune(): Promise<number> {
    const db = this.app.db;
    const before = new Date(Date.now() - this.app.config.retentionDays * DAY_MS).toISOString();
    let pruned = 0;
    for (;;) {
      const ids = (await WebhookDelivery.query(db).select('id').whereIn('status', ['sent', 'failed']).where('createdAt', '<', before).limit(PRUNE_BATCH)).map((r) => r.id);
      if (ids.length === 0) break;
      pruned += await WebhookDelivery.query(db).delete().whereIn('id', ids).whereIn('status', ['sent', 'failed']);
      if (ids.length < PRUNE_BATCH) break;
    }
    if (pruned > 0) this.app.log.info({ pruned, before }, 'old webhook deliveries deleted');
    return pruned;
  }

  /** Whether an earlier delivery of the same endpoint and key is still pending. */
  private async waiting(row: WebhookDelivery): Promise<boolean> {
    const earlier = await WebhookDelivery.query(this.app.db)
      .select('id')
      .where({ endpointId: row.endpointId, orderKey: row.orderKey, status: 'pending' })
      .where((q) => q.where('eventSeq', '<', row.eventSeq).orWhere((t) => t.where('eventSeq', row.eventSeq).where('id', '<', row.id)))
      .first();
    return earlier !== undefined;
  }

  /** The next pending delivery of the line, now that this one is settled. */
  private async wakeNext(row: WebhookDelivery): Promise<void> {
    const next = await WebhookDelivery.query(this.app.db)
      .select('id')
      .where({ endpointId: row.endpointId, orderKey: row.orderKey, status: 'pending' })
      .orderBy([{ column: 'eventSeq' }, { column: 'id' }])
      .first();
    if (next) await this.app.jobs.now(DELIVER_JOB, { companyId: row.companyId, deliveryId: next.id });
  }

  /** POSTs the delivery's body, signed; the URL checked again (its host may resolve elsewhere now), no redirects followed. */
  private async post(endpoint: WebhookEndpoint, row: WebhookDelivery): Promise<Attempt> {
    const timeoutMs = this.app.config.timeoutMs;
    try {
      const url = await this.app.outgoing.checkUrl(endpoint.url);
      const res = await fetch(url, {
        method: 'POST',
        body: row.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Atende-Webhooks/1',
          [HEADERS.event]: row.event,
          [HEADERS.delivery]: row.eventId,
          ...signedHeaders(this.webhooks.secretOf(endpoint), row.payload),
        },
      });
      const answer = await readStart(res);
      if (res.status >= 200 && res.status < 300) return { statusCode: res.status, error: null };
      return { statusCode: res.status, error: `HTTP ${res.status}${answer ? `: ${answer}` : ''}`.slice(0, 500) };
    } catch (err) {
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return { statusCode: null, error: `no answer within ${timeoutMs} ms` };
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      return { statusCode: null, error: `${err instanceof Error ? err.message : String(err)}${cause}`.slice(0, 500) };
    }
  }

  private nextSequence(): number {
    // Microseconds since the epoch, strictly increasing in this process (fits a double: < 2^53).
    this.lastSequence = Math.max(this.lastSequence + 1, Date.now() * 1000);
    return this.lastSequence;
  }
}

/** The start of an answer's text (for the delivery's error), read up to MAX_ANSWER_BYTES then dropped. */
async function readStart(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Uint8Array).byteLength;
    chunks.push(Buffer.from(chunk as Uint8Array));
    // Leaving the loop cancels the rest of the body.
    if (size >= MAX_ANSWER_BYTES) break;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, 200).trim();
}
