import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  canonicalNumber,
  outgoingMediaKind,
  WhatsappNotConnectedError,
  WhatsappRateLimitedError,
  nextDay,
  zonedDayStart,
  TurnBatch,
  type DirectMessageStatus,
  type PluginApp,
} from 'atende/plugin';
import type { CampaignsGate } from '../campaigns-gate.js';
import { Campaign } from '../campaigns/campaign.model.js';
import { optedOut } from '../opt-outs/opted-out.js';
import type { CampaignSettings, CampaignSettingsService } from '../settings/campaign-settings.service.js';
import { CampaignFrames } from './campaign-frames.js';
import { companyTimeZone, dayIn } from './company-day.js';
import { startCampaign } from './campaign-start.js';
import { campaignFiles, type CampaignFile } from './campaign-files.js';
import { fileMessageId, plannedWait } from './message-plan.js';
import type { CampaignPauseReason } from './dispatch.contract.js';
import { Shipping } from './shipping.model.js';

/** The repeating job that starts due campaigns and keeps each connection's loop going. */
export const TICK_JOB = 'campaigns.dispatch.tick';
/** The send of a confirmed contact's message: `{ companyId, shippingId }`. */
export const CONFIRMED_JOB = 'campaigns.dispatch.confirmed';

/** Rows a loop reads at once. */
const BATCH = 50;
/** How long a campaign waits after WhatsApp refused a send for sending too much, when it did not say. */
const RATE_LIMIT_PAUSE_MS = 15 * 60_000;
/** A confirmation request left unanswered this long no longer holds its campaign open. */
export const CONFIRMATION_WINDOW_MS = 24 * 3_600_000;
/** A confirmed contact's message leaves a random 0..10 s after the reply. */
const CONFIRMED_DELAY_MS = 10_000;
/** A confirmed contact not sent after this long had its job lost (a crash before it was written): written again. */
const CONFIRMED_LOST_MS = 60_000;
/** A confirmed send that found the connection down tries again after this. */
const CONFIRMED_RETRY_MS = 30_000;

type PauseReason = CampaignPauseReason;
/** Campaign messages a connection sent on the company's current day, and when that day ends (ms). */
interface DayCount {
  count: number;
  until: number;
}
type Outcome = 'done' | 'stop' | 'paused';

/** Numbers whose awaited replies one statement looks up. */
const REPLY_CHECK_CHUNK = 500;

/** The key of one awaited-reply check: company, connection and canonical number. */
function replyKey(companyId: number, whatsappId: number, number: string): string {
  return `${companyId}|${whatsappId}|${number}`;
}

/** The states a contact must be in to be sent by a connection's loop (confirmed contacts go by their own job). */
const RUNNABLE = ['pending', 'queued'] as const;

/**
 * The campaigns' dispatch. One loop per connection in this process reads the next rows of the
 * connection's oldest running campaign in batches and sends them one at a time, paced by the
 * campaign settings; nothing is held per contact: the rows are the queue, and the repeating tick
 * job starts a loop again after a restart, a pause or a new campaign.
 *
 * Exactly once: a row's WhatsApp ids are chosen and stored (state queued) before anything is sent,
 * and a queued row found after a crash is sent again with the same ids, which WhatsApp (and the
 * simulator) take as the same message. Cancel takes the connection's lock, which every send holds,
 * so no message of the campaign leaves once it has answered.
 */
export class Dispatcher {
  readonly frames: CampaignFrames;
  private readonly loops = new Map<number, Promise<void>>();
  /** The tail of each connection's sends (and of the cancels that wait for them). */
  private readonly locks = new Map<number, Promise<unknown>>();
  private readonly stopping = new AbortController();
  /** The awaited-reply checks of one turn (a stored batch's messages come side by side) answered by one statement per company. */
  private readonly replyChecks = new TurnBatch<string, true>((keys) => this.awaitingOf(keys));

  constructor(
    private readonly app: PluginApp,
    private readonly gate: CampaignsGate,
    private readonly settings: CampaignSettingsService,
    /** Multiplies every planned wait (1 in production; a test or a demo shortens them). */
    private readonly waitScale: number,
  ) {
    this.frames = new CampaignFrames(app);
  }

  // ---- the tick --------------------------------------------------------------------------------

  /** Starts the campaigns whose time came, keeps the running ones going, and finishes those done. */
  async tick(now = new Date()): Promise<void> {
    const due = await Campaign.query(this.app.db)
      .where('status', 'PROGRAMADA')
      .where('scheduledAt', '<=', now.toISOString())
      .orderBy('scheduledAt')
      .orderBy('id');
    for (const campaign of due) {
      if (!(await this.allowed(campaign.companyId))) continue;
      if (await startCampaign(this.app, campaign, await this.settings.read(campaign.companyId))) this.frames.changed(campaign.id);
    }
    const running = await Campaign.query(this.app.db).where('status', 'EM_ANDAMENTO').select('id', 'companyId', 'whatsappId');
    for (const campaign of running) {
      await this.rescheduleLostConfirmed(campaign.id, now);
      await this.settle(campaign.id, now);
      // A campaign whose connection was deleted waits, saying so, until it is given another.
      if (campaign.whatsappId) this.kick(campaign.whatsappId);
      else await this.pause(campaign.id, 'disconnected');
    }
  }

  /** Starts the connection's loop unless one runs in this process. */
  kick(whatsappId: number): void {
    if (this.loops.has(whatsappId) || this.stopping.signal.aborted) return;
    const loop = this.loop(whatsappId)
      .catch((err: unknown) => this.app.log.error({ err, whatsappId }, 'campaign loop stopped'))
      .finally(() => this.loops.delete(whatsappId));
    this.loops.set(whatsappId, loop);
  }

  /** Shutdown: loops end after their current send; their sleeps are cut short. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.frames.stop();
    await Promise.all(this.loops.values());
  }

  // ---- the loop --------------------------------------------------------------------------------

  private async loop(whatsappId: number): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const campaign = await this.current(whatsappId);
      if (!campaign || !(await this.allowed(campaign.companyId))) return;
      const settings = await this.settings.read(campaign.companyId);
      // Counted once per batch, then kept up here: a count per message would grow with the day's sends.
      const today = await this.sentToday(campaign);
      const pause = await this.pauseNeeded(campaign, settings, today);
      if (pause) return this.pause(campaign.id, pause);
      if (campaign.pauseReason) await this.pause(campaign.id, null);

      const rows = await this.runnable(campaign.id).limit(BATCH);
      const skipped = await optedOut(this.app.db, campaign.companyId, rows.map((r) => r.number));
      const files = await campaignFiles(this.app, campaign);
      let done = await this.sentCount(campaign.id);
      for (const row of rows) {
        if (this.stopping.signal.aborted) return;
        if (skipped.has(row.number)) {
          await this.skip(row);
          continue;
        }
        const outcome = await this.ship(campaign, row, settings, files, done);
        if (outcome === 'paused') return;
        if (outcome === 'stop') break;
        done += 1;
        today.count += 1;
        // The cap, the connection and WhatsApp's limit are looked at again before the next one.
        const next = await this.pauseNeeded(campaign, settings, today);
        if (next) return this.pause(campaign.id, next);
      }
      await this.settle(campaign.id);
    }
  }

  /** The connection's oldest running campaign that still has contacts to send. */
  private async current(whatsappId: number): Promise<Campaign | undefined> {
    return Campaign.query(this.app.db)
      .where({ whatsappId, status: 'EM_ANDAMENTO' })
      .whereExists(Shipping.query(this.app.db).whereColumn('campaignShippings.campaignId', 'campaigns.id').whereIn('state', RUNNABLE).whereNull('confirmedAt'))
      .orderBy('scheduledAt')
      .orderBy('id')
      .first();
  }

  private runnable(campaignId: number) {
    return Shipping.query(this.app.db).where({ campaignId }).whereIn('state', RUNNABLE).whereNull('confirmedAt').orderBy('id');
  }

  /** Messages of the campaign already gone (its pacing counts them). */
  private async sentCount(campaignId: number): Promise<number> {
    return Shipping.query(this.app.db).where({ campaignId }).whereNotIn('state', ['pending', 'queued', 'skipped']).resultSize();
  }

  /** Why the campaign cannot send now, if it cannot (`today`: the connection's count for the company's day). */
  private async pauseNeeded(campaign: Campaign, settings: CampaignSettings, today: DayCount): Promise<PauseReason | undefined> {
    const { resumeAt } = (await this.app.db('campaigns').where({ id: campaign.id }).first('resumeAt')) as { resumeAt: string | Date | null };
    if (resumeAt && new Date(resumeAt).getTime() > Date.now()) return 'rate_limited';
    if (!campaign.whatsappId || (await this.app.services.whatsapp.status(campaign.whatsappId)) !== 'CONNECTED') return 'disconnected';
    // A new day (the company's midnight passed) counts afresh.
    if (Date.now() >= today.until) Object.assign(today, await this.sentToday(campaign));
    if (today.count >= settings.dailyCap) return 'daily_cap';
    return undefined;
  }

  /** Campaign messages the connection sent since the start of the company's day, and when that day ends. */
  private async sentToday(campaign: Campaign): Promise<DayCount> {
    const timeZone = await companyTimeZone(this.app, campaign.companyId);
    const day = dayIn(timeZone, new Date());
    const since = zonedDayStart(day, timeZone);
    const ofConnection = Campaign.query(this.app.db).where('whatsappId', campaign.whatsappId!).select('id');
    const [sent, asked] = await Promise.all([
      Shipping.query(this.app.db).whereIn('campaignId', ofConnection.clone()).where('sentAt', '>=', since).resultSize(),
      Shipping.query(this.app.db).whereIn('campaignId', ofConnection.clone()).where('confirmationRequestedAt', '>=', since).resultSize(),
    ]);
    return { count: sent + asked, until: new Date(zonedDayStart(nextDay(day), timeZone)).getTime() };
  }

  // ---- one contact -----------------------------------------------------------------------------

  /**
   * One contact's turn: its ids and wait are stored first (queued), then, after the wait, its
   * confirmation request (confirmation on) or its files and message leave under the lock.
   */
  private async ship(campaign: Campaign, row: Shipping, settings: CampaignSettings, files: CampaignFile[], done: number): Promise<Outcome> {
    const asks = Boolean(campaign.confirmation && row.confirmationMessage);
    const planned = await this.plan(row, asks, plannedWait(done, settings));
    await sleep(Math.round((planned.waitMs ?? 0) * this.waitScale), undefined, { signal: this.stopping.signal }).catch(() => undefined);
    if (this.stopping.signal.aborted) return 'stop';
    return this.locked(campaign.whatsappId!, async () => {
      if (!(await this.stillRunning(campaign.id))) return 'stop';
      try {
        if (asks) {
          await this.app.services.whatsapp.sendDirect({ ...this.to(campaign, row), messageId: planned.confirmationWaMessageId!, body: row.confirmationMessage! });
          await Shipping.query(this.app.db).findById(row.id).patch({ state: 'awaiting', confirmationRequestedAt: new Date().toISOString() });
        } else {
          await this.deliver(campaign, planned, files);
        }
        this.frames.changed(campaign.id);
        return 'done';
      } catch (err) {
        return this.failedSend(campaign, row, err);
      }
    });
  }

  /** The row's ids for its next send and its wait, stored before anything leaves; a queued row keeps those it has. */
  private async plan(row: Shipping, asks: boolean, waitMs: number): Promise<Shipping> {
    const idField = asks ? 'confirmationWaMessageId' : 'waMessageId';
    if (row.state === 'queued' && row[idField]) return row;
    const patch = { state: 'queued' as const, [idField]: this.app.services.whatsapp.newMessageId(), waitMs };
    await Shipping.query(this.app.db).findById(row.id).patch(patch);
    return Object.assign(row, patch);
  }

  /** The list's files (each with an id derived from the message's), then the media with its caption or the text. */
  private async deliver(campaign: Campaign, row: Shipping, files: CampaignFile[]): Promise<void> {
    const send = this.app.services.whatsapp;
    const to = this.to(campaign, row);
    const id = row.waMessageId!;
    for (const [index, file] of files.entries()) {
      await send.sendDirect({ ...to, messageId: fileMessageId(id, index), body: file.caption, media: { path: file.path, name: file.name, mime: file.mime } });
    }
    if (campaign.mediaPath) {
      const name = campaign.mediaName ?? campaign.mediaPath;
      await send.sendDirect({ ...to, messageId: id, body: row.message, media: { path: campaign.mediaPath, name, mime: outgoingMediaKind(name).mime } });
    } else {
      await send.sendDirect({ ...to, messageId: id, body: row.message });
    }
    const db = this.app.db;
    // An ack may have come first: the state only moves forward.
    await Shipping.query(db)
      .findById(row.id)
      .patch({ sentAt: new Date().toISOString(), state: db.raw("case when state in ('queued', 'pending') then 'sent' else state end") as unknown as 'sent' });
  }

  private to(campaign: Campaign, row: Shipping) {
    return { companyId: campaign.companyId, whatsappId: campaign.whatsappId!, number: row.number };
  }

  /** Connection down: the row stays queued with its ids. WhatsApp's limit: the campaign waits. Anything else: this contact failed. */
  private async failedSend(campaign: Campaign, row: Shipping, err: unknown): Promise<Outcome> {
    if (err instanceof WhatsappNotConnectedError) {
      await this.pause(campaign.id, 'disconnected');
      return 'paused';
    }
    if (err instanceof WhatsappRateLimitedError) {
      await this.limited(campaign.whatsappId!, true);
      return 'paused';
    }
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 255);
    this.app.log.warn({ err, campaignId: campaign.id, shippingId: row.id }, 'campaign message not sent');
    await Shipping.query(this.app.db).findById(row.id).patch({ state: 'failed', failureReason: reason });
    this.frames.changed(campaign.id);
    return 'done';
  }

  private async skip(row: Shipping): Promise<void> {
    await Shipping.query(this.app.db).findById(row.id).patch({ state: 'skipped', failureReason: 'opted_out' });
    this.frames.changed(row.campaignId);
  }

  // ---- confirmation ----------------------------------------------------------------------------

  /**
   * Whether a customer's message may confirm a contact: a contact of the number awaiting a
   * confirmation on the connection (run for every inbound message, before the durable job that
   * handles it is written). The checks asked for in one turn of the event loop share one statement.
   */
  async awaitsReply(companyId: number, whatsappId: number, number: string): Promise<boolean> {
    return (await this.replyChecks.get(replyKey(companyId, whatsappId, canonicalNumber(number)))) === true;
  }

  /** Of the checks' keys, those with a contact awaiting a confirmation of a running campaign of the connection. */
  private async awaitingOf(keys: string[]): Promise<Map<string, true>> {
    const found = new Map<string, true>();
    const byCompany = new Map<number, string[]>();
    for (const key of keys) {
      const [companyId, , number] = key.split('|') as [string, string, string];
      byCompany.set(Number(companyId), [...(byCompany.get(Number(companyId)) ?? []), number]);
    }
    for (const [companyId, numbers] of byCompany) {
      const unique = [...new Set(numbers)];
      for (let i = 0; i < unique.length; i += REPLY_CHECK_CHUNK) {
        const rows: { whatsappId: number; number: string }[] = await this.awaiting(companyId, unique.slice(i, i + REPLY_CHECK_CHUNK)).distinct(
          'campaigns.whatsappId',
          'campaignShippings.number',
        );
        for (const row of rows) found.set(replyKey(companyId, row.whatsappId, row.number), true);
      }
    }
    return found;
  }

  /**
   * A customer wrote on a connection: the contact awaiting a confirmation of a running campaign
   * there is confirmed, and its message is sent 0..10 s later by a job (its id chosen now). An
   * opt-out word is not a confirmation. Run by a durable job, so a crash before it ends runs it
   * again: a row already confirmed is left as it is, and one confirmed whose job was never written
   * is found by the tick.
   */
  async replied(companyId: number, whatsappId: number, number: string, body: string): Promise<void> {
    const awaiting: { id: number; campaignId: number }[] = await this.awaiting(companyId, [canonicalNumber(number)])
      .where('campaigns.whatsappId', whatsappId)
      .select('campaignShippings.id', 'campaignShippings.campaignId');
    if (awaiting.length === 0) return;
    const words = (await this.settings.read(companyId)).optOutWords;
    if (words.includes(body.trim().toUpperCase())) return;
    for (const row of awaiting) {
      const waitMs = randomInt(0, CONFIRMED_DELAY_MS + 1);
      const patch = { state: 'queued' as const, confirmedAt: new Date().toISOString(), waMessageId: this.app.services.whatsapp.newMessageId(), waitMs };
      const taken = await Shipping.query(this.app.db).where({ id: row.id, state: 'awaiting' }).patch(patch);
      if (taken === 0) continue;
      await this.app.jobs.schedule(new Date(Date.now() + Math.round(waitMs * this.waitScale)), CONFIRMED_JOB, { companyId, shippingId: row.id });
      this.frames.changed(row.campaignId);
    }
  }

  /** The numbers' contacts awaiting a confirmation of a running campaign, joined to their campaign (its connection: campaigns.whatsappId). */
  private awaiting(companyId: number, numbers: string[]) {
    return this.app
      .db('campaignShippings')
      .join('campaigns', 'campaigns.id', 'campaignShippings.campaignId')
      .where({ 'campaignShippings.companyId': companyId, 'campaignShippings.state': 'awaiting', 'campaigns.status': 'EM_ANDAMENTO' })
      .whereNull('campaignShippings.confirmedAt')
      .whereIn('campaignShippings.number', numbers);
  }

  /**
   * The number went on the opt-out list: its contacts still waiting (for a confirmation, or
   * confirmed and not yet sent) are skipped, and their campaigns may end. Safe to run again.
   */
  async optedOut(companyId: number, number: string): Promise<void> {
    const rows = await Shipping.query(this.app.db)
      .where({ companyId, number })
      .where((q) => q.where('state', 'awaiting').orWhere((w) => w.where('state', 'queued').whereNotNull('confirmedAt')))
      .select('id', 'campaignId');
    for (const row of rows) {
      // Under the lock of the campaign's connection: a confirmed send already under way ends first.
      const campaign = await Campaign.query(this.app.db).findById(row.campaignId).select('id', 'whatsappId');
      const skip = async () => Shipping.query(this.app.db).where({ id: row.id }).whereIn('state', ['awaiting', 'queued']).patch({ state: 'skipped', failureReason: 'opted_out' });
      const changed = campaign?.whatsappId ? await this.locked(campaign.whatsappId, skip) : await skip();
      if (changed === 0) continue;
      this.frames.changed(row.campaignId);
      await this.settle(row.campaignId);
    }
  }

  /** The job: a confirmed contact's files and message, once, while its campaign runs. */
  async sendConfirmed(shippingId: number): Promise<void> {
    const row = await Shipping.query(this.app.db).findById(shippingId);
    if (!row || row.state !== 'queued' || !row.confirmedAt) return;
    const campaign = await Campaign.query(this.app.db).findById(row.campaignId);
    if (!campaign?.whatsappId || campaign.status !== 'EM_ANDAMENTO') return;
    const files = await campaignFiles(this.app, campaign);
    const outcome = await this.locked(campaign.whatsappId, async () => {
      const current = await Shipping.query(this.app.db).findById(shippingId);
      if (current?.state !== 'queued' || !(await this.stillRunning(campaign.id))) return 'stop';
      try {
        await this.deliver(campaign, current, files);
        this.frames.changed(campaign.id);
        return 'done';
      } catch (err) {
        return this.failedSend(campaign, current, err);
      }
    });
    if (outcome === 'paused') await this.app.jobs.schedule(new Date(Date.now() + CONFIRMED_RETRY_MS), CONFIRMED_JOB, { companyId: row.companyId, shippingId });
    else await this.settle(campaign.id);
  }

  private async rescheduleLostConfirmed(campaignId: number, now: Date): Promise<void> {
    const lost = await Shipping.query(this.app.db)
      .where({ campaignId, state: 'queued' })
      .whereNotNull('confirmedAt')
      .where('updatedAt', '<', new Date(now.getTime() - CONFIRMED_LOST_MS).toISOString())
      .select('id', 'companyId');
    for (const row of lost) {
      await Shipping.query(this.app.db).findById(row.id).patch({ updatedAt: now.toISOString() });
      await this.app.jobs.now(CONFIRMED_JOB, { companyId: row.companyId, shippingId: row.id });
    }
  }

  // ---- acks, connection events, cancel and restart ---------------------------------------------

  /** A campaign message's ack: delivered, then read; never backwards. */
  async acked(companyId: number, messageId: string, status: DirectMessageStatus): Promise<void> {
    if (status === 'sent') return;
    const row = await Shipping.query(this.app.db).findOne({ companyId, waMessageId: messageId }).select('id', 'campaignId', 'state');
    if (!row) return;
    const now = new Date().toISOString();
    const db = this.app.db;
    const deliveredAt = db.raw('coalesce(??, ?)', ['deliveredAt', now]) as unknown as string;
    const changed =
      status === 'delivered'
        ? await Shipping.query(db).where({ id: row.id }).whereIn('state', ['queued', 'sent']).patch({ state: 'delivered', deliveredAt })
        : await Shipping.query(db).where({ id: row.id }).whereIn('state', ['queued', 'sent', 'delivered']).patch({ state: 'read', deliveredAt });
    if (changed > 0) this.frames.changed(row.campaignId);
  }

  /** The connection went down: its running campaigns show why they wait. */
  async disconnected(whatsappId: number): Promise<void> {
    await this.pauseAll(whatsappId, 'disconnected', null);
  }

  /** The connection is back: the pause it caused is lifted and its loop starts. */
  async connected(whatsappId: number): Promise<void> {
    await this.pauseAll(whatsappId, null, 'disconnected');
    this.kick(whatsappId);
  }

  /** WhatsApp limits the connection (until a time, or 15 min), or lifts its limit. */
  async limited(whatsappId: number, active: boolean, until?: string): Promise<void> {
    const resumeAt = active ? (until ?? new Date(Date.now() + RATE_LIMIT_PAUSE_MS).toISOString()) : null;
    const ids = await this.runningOf(whatsappId);
    await this.app.db('campaigns').whereIn('id', ids).update({ resumeAt });
    if (active) await this.pauseAll(whatsappId, 'rate_limited', null);
    else {
      await this.pauseAll(whatsappId, null, 'rate_limited');
      this.kick(whatsappId);
    }
  }

  /** Cancels under the connection's lock: once this answers, no message of the campaign leaves. */
  async cancel(campaign: Campaign): Promise<number> {
    const patch = async (): Promise<number> =>
      Campaign.query(this.app.db).where({ id: campaign.id }).whereIn('status', ['EM_ANDAMENTO', 'PROGRAMADA']).patch({ status: 'CANCELADA', pauseReason: null });
    const changed = campaign.whatsappId ? await this.locked(campaign.whatsappId, patch) : await patch();
    if (changed > 0) this.frames.changed(campaign.id);
    return changed;
  }

  /** A cancelled campaign runs again with the contacts not sent yet (a campaign cancelled before its start gets its rows now). */
  async restart(campaign: Campaign): Promise<boolean> {
    const started = await Shipping.query(this.app.db).where({ campaignId: campaign.id }).select('id').first();
    let changed: boolean;
    if (started) {
      changed = (await Campaign.query(this.app.db).where({ id: campaign.id, status: 'CANCELADA' }).patch({ status: 'EM_ANDAMENTO', pauseReason: null, completedAt: null })) > 0;
    } else {
      changed = await startCampaign(this.app, campaign, await this.settings.read(campaign.companyId), 'CANCELADA');
    }
    if (!changed) return false;
    this.frames.changed(campaign.id);
    if (campaign.whatsappId) this.kick(campaign.whatsappId);
    return true;
  }

  // ---- helpers ---------------------------------------------------------------------------------

  /** FINALIZADA once no contact is left to send and no confirmation is awaited within its window. */
  async settle(campaignId: number, now = new Date()): Promise<void> {
    const windowStart = new Date(now.getTime() - CONFIRMATION_WINDOW_MS).toISOString();
    const open = await Shipping.query(this.app.db)
      .where({ campaignId })
      .where((q) => q.whereIn('state', RUNNABLE).orWhere((w) => w.where('state', 'awaiting').where('confirmationRequestedAt', '>', windowStart)))
      .select('id')
      .first();
    if (open) return;
    const finished = await Campaign.query(this.app.db)
      .where({ id: campaignId, status: 'EM_ANDAMENTO' })
      .patch({ status: 'FINALIZADA', completedAt: now.toISOString(), pauseReason: null });
    if (finished > 0) this.frames.changed(campaignId);
  }

  private async stillRunning(campaignId: number): Promise<boolean> {
    const campaign = await Campaign.query(this.app.db).findById(campaignId).select('status');
    return campaign?.status === 'EM_ANDAMENTO';
  }

  private async allowed(companyId: number): Promise<boolean> {
    return (await this.app.services.plans.isEnabled(companyId, 'useCampaigns')) && (await this.gate.enabled(companyId));
  }

  private async pause(campaignId: number, reason: PauseReason | null): Promise<void> {
    const changed = await Campaign.query(this.app.db)
      .where({ id: campaignId, status: 'EM_ANDAMENTO' })
      .where((q) => (reason === null ? q.whereNotNull('pauseReason') : q.whereNull('pauseReason').orWhereNot('pauseReason', reason)))
      .patch({ pauseReason: reason });
    if (changed > 0) this.frames.changed(campaignId);
  }

  /** Sets (or clears, when `reason` is null) the pause of the connection's running campaigns; `only` narrows to those paused for it. */
  private async pauseAll(whatsappId: number, reason: PauseReason | null, only: PauseReason | null): Promise<void> {
    for (const id of await this.runningOf(whatsappId)) {
      if (only !== null) {
        const changed = await Campaign.query(this.app.db).where({ id, pauseReason: only }).patch({ pauseReason: reason });
        if (changed > 0) this.frames.changed(id);
      } else {
        await this.pause(id, reason);
      }
    }
  }

  private async runningOf(whatsappId: number): Promise<number[]> {
    const rows = await Campaign.query(this.app.db).where({ whatsappId, status: 'EM_ANDAMENTO' }).select('id');
    return rows.map((r) => r.id);
  }

  /** Runs `task` after every earlier task of the connection (sends and cancels). */
  private locked<T>(whatsappId: number, task: () => Promise<T>): Promise<T> {
    const run = (this.locks.get(whatsappId) ?? Promise.resolve()).then(task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(whatsappId, tail);
    void tail.then(() => {
      if (this.locks.get(whatsappId) === tail) this.locks.delete(whatsappId);
    });
    return run;
  }
}
