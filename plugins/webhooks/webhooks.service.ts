import { randomBytes } from 'node:crypto';
import { ErrorCode, ForbiddenError, isAdmin, NotFoundError, type AuthUser, type PluginApp } from 'atende/plugin';
import { WebhookDelivery, WebhookEndpoint } from './webhook.model.js';
import type { CreateWebhook, UpdateWebhook } from './webhooks.schema.js';
import type { DeliveryPage, DeliveryView, WebhookEvent, WebhookView, WebhookWithSecret } from './webhooks.contract.js';

export const ERR_NO_WEBHOOK = ErrorCode.ERR_NO_WEBHOOK_FOUND;
export const ERR_NO_DELIVERY = ErrorCode.ERR_NO_WEBHOOK_DELIVERY_FOUND;
/** Deliveries per page of GET /webhooks/:id/deliveries. */
export const DELIVERIES_PAGE = 20;
/** How long this process trusts its copy of a company's endpoints without a signal (a change made outside a server). */
const SUBSCRIPTIONS_TTL_MS = 5000;
/** The signal of a company's endpoints edited: data is the company id. */
const ENDPOINTS_CHANGED = 'webhooks:endpoints';

/** Recognizable in logs and secret scanners; 32 random bytes after it. */
const SECRET_PREFIX = 'whsec_';

export interface Subscription {
  endpointId: number;
  events: Set<string>;
}

export function view(row: WebhookEndpoint): WebhookView {
  return { id: row.id, url: row.url, events: JSON.parse(row.events) as WebhookEvent[], active: row.active, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export function deliveryView(row: WebhookDelivery): DeliveryView {
  return {
    id: row.id,
    webhookId: row.endpointId,
    eventId: row.eventId,
    event: row.event as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    deliveredAt: row.deliveredAt,
    createdAt: row.createdAt,
  };
}

/** The endpoints admins register: every call is an admin's, within their company (another's id is 404). */
export class WebhooksService {
  /** By company: the endpoints read once for all the events asking at the same time. */
  private readonly subscriptions = new Map<number, { at: number; list: Promise<Subscription[]> }>();

  constructor(private readonly app: PluginApp) {
    app.signals.on(ENDPOINTS_CHANGED, (companyId) => this.subscriptions.delete(companyId as number));
  }

  async list(actor: AuthUser): Promise<WebhookView[]> {
    assertAdmin(actor);
    const rows = await WebhookEndpoint.query(this.app.db).where({ companyId: actor.companyId }).orderBy('id');
    return rows.map(view);
  }

  async show(actor: AuthUser, id: number): Promise<WebhookView> {
    return view(await this.find(actor, id));
  }

  /** A new endpoint with a secret made here, answered this once (admins may reveal it later). */
  async create(actor: AuthUser, input: CreateWebhook): Promise<WebhookWithSecret> {
    assertAdmin(actor);
    const url = (await this.app.outgoing.checkUrl(input.url)).toString();
    const secret = newSecret();
    const row = await WebhookEndpoint.query(this.app.db).insertAndFetch({
      companyId: actor.companyId,
      url,
      events: JSON.stringify(input.events),
      active: input.active,
      secret: this.app.secrets.seal(secret),
    });
    this.forget(actor.companyId);
    return { ...view(row), secret };
  }

  async update(actor: AuthUser, id: number, input: UpdateWebhook): Promise<WebhookView> {
    const row = await this.find(actor, id);
    const url = input.url === undefined ? undefined : (await this.app.outgoing.checkUrl(input.url)).toString();
    const updated = await row.$query(this.app.db).patchAndFetch({
      ...(url !== undefined && { url }),
      ...(input.events !== undefined && { events: JSON.stringify(input.events) }),
      ...(input.active !== undefined && { active: input.active }),
    });
    this.forget(actor.companyId);
    return view(updated);
  }

  /** The endpoint and its deliveries (pending ones are not sent any more). */
  async remove(actor: AuthUser, id: number): Promise<void> {
    const row = await this.find(actor, id);
    await this.app.db.transaction(async (trx) => {
      await WebhookDelivery.query(trx).delete().where({ endpointId: row.id });
      await WebhookEndpoint.query(trx).deleteById(row.id);
    });
    this.forget(actor.companyId);
  }

  async revealSecret(actor: AuthUser, id: number): Promise<WebhookWithSecret> {
    const row = await this.find(actor, id);
    return { ...view(row), secret: this.app.secrets.open(row.secret) };
  }

  /** A new secret; the old one signs nothing more (attempts from now on carry the new one). */
  async rotateSecret(actor: AuthUser, id: number): Promise<WebhookWithSecret> {
    const row = await this.find(actor, id);
    const secret = newSecret();
    const updated = await row.$query(this.app.db).patchAndFetch({ secret: this.app.secrets.seal(secret) });
    return { ...view(updated), secret };
  }

  async deliveries(actor: AuthUser, id: number, pageNumber: number): Promise<DeliveryPage> {
    const row = await this.find(actor, id);
    const rows = await WebhookDelivery.query(this.app.db)
      .where({ endpointId: row.id })
      .orderBy('id', 'desc')
      .limit(DELIVERIES_PAGE + 1)
      .offset((pageNumber - 1) * DELIVERIES_PAGE);
    return { deliveries: rows.slice(0, DELIVERIES_PAGE).map(deliveryView), hasMore: rows.length > DELIVERIES_PAGE };
  }

  /** The delivery of the admin's endpoint `id`, else 404. */
  async delivery(actor: AuthUser, id: number, deliveryId: number): Promise<WebhookDelivery> {
    const endpoint = await this.find(actor, id);
    const row = await WebhookDelivery.query(this.app.db).findOne({ id: deliveryId, endpointId: endpoint.id });
    if (!row) throw new NotFoundError(ERR_NO_DELIVERY, 'No such delivery of this webhook');
    return row;
  }

  /** The company's active endpoints and what each wants, cached briefly: asked on every domain event. */
  subscriptionsOf(companyId: number): Promise<Subscription[]> {
    const cached = this.subscriptions.get(companyId);
    if (cached && Date.now() - cached.at < SUBSCRIPTIONS_TTL_MS) return cached.list;
    const list = WebhookEndpoint.query(this.app.db)
      .select('id', 'events')
      .where({ companyId, active: true })
      .then((rows) => rows.map((r) => ({ endpointId: r.id, events: new Set(JSON.parse(r.events) as string[]) })));
    const entry = { at: Date.now(), list };
    this.subscriptions.set(companyId, entry);
    // A failed read is not kept: the next event reads again.
    list.catch(() => this.subscriptions.get(companyId) === entry && this.subscriptions.delete(companyId));
    return list;
  }

  /** The secret of an endpoint, opened, for signing. */
  secretOf(endpoint: WebhookEndpoint): string {
    return this.app.secrets.open(endpoint.secret);
  }

  /** Every node drops the company's endpoints it read. */
  private forget(companyId: number): void {
    this.app.signals.send(ENDPOINTS_CHANGED, companyId);
  }

  private async find(actor: AuthUser, id: number): Promise<WebhookEndpoint> {
    assertAdmin(actor);
    const row = await WebhookEndpoint.query(this.app.db).findOne({ id, companyId: actor.companyId });
    if (!row) throw new NotFoundError(ERR_NO_WEBHOOK, 'No such webhook');
    return row;
  }
}

function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

function assertAdmin(actor: AuthUser): void {
  if (!isAdmin(actor)) throw new ForbiddenError();
}
