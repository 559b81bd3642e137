import {
  downloadMediaMessage,
  isJidBroadcast,
  isJidNewsletter,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  makeWASocket,
  type AnyMessageContent,
  type AuthenticationCreds,
  type BaileysEventMap,
  type ConnectionState,
  type SocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { displayFileName } from '../../storage/media-storage.js';
import { AppError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type {
  ChannelDriver,
  ConnectionStatus,
  DriverContext,
  DriverEvent,
  OutgoingMedia,
  SendOptions,
  SentMessage,
} from '../driver.js';
import { AuthStore } from './auth-store.js';
import { LidMap } from './lid-map.js';
import { MessageStore, type MessageStoreLimits } from './message-store.js';
import {
  lidPairOfContact,
  lidPairOfMapping,
  lidPairsOfKey,
  normalizeCall,
  normalizeContact,
  normalizeMessage,
  normalizeUpdate,
  rawOf,
  type NormalizeContext,
} from './normalize.js';
import { canonicalNumber, digitsOf, isGroupId, jidUser, numberForms } from './phone.js';
import { closeAction, closeCode, reconnectDelay, type Backoff } from './reconnect.js';
import { currentWaVersion } from './wa-version.js';

export interface BaileysDriverOptions {
  backoff: Backoff;
  /** QR codes shown without a scan before the connection gives up with TIMEOUT. */
  maxQrCodes: number;
  /** How long sent and received messages stay available for retries, quotes and deletions. */
  messageStore: MessageStoreLimits;
  /** Baileys socket settings to override (a proxy agent, the browser name; tests point the URL elsewhere). */
  socket?: Partial<SocketConfig>;
}

export const DEFAULT_BAILEYS_OPTIONS: BaileysDriverOptions = {
  backoff: { baseMs: 2_000, maxMs: 5 * 60_000 },
  maxQrCodes: 5,
  messageStore: { days: 7, rows: 5_000 },
};

const MEDIA_DOWNLOAD_TIMEOUT_MS = 120_000;

/** Baileys logs a lot at info; it gets warn, or less if the application logs less. */
function libraryLogger(log: Logger, connectionId: number): Logger {
  const level = log.levelVal > log.levels.values.warn! ? log.level : 'warn';
  return log.child({ part: 'baileys', whatsappId: connectionId }, { level });
}

/**
 * One WhatsApp number over Baileys (WhatsApp Web multi-device). The socket's events are handled
 * one batch at a time, in order, and never throw: a failing step is logged and the next goes on.
 * A socket that is replaced or closed on purpose is retired: its late events are ignored.
 */
export class BaileysDriver implements ChannelDriver {
  private readonly auth: AuthStore;
  private readonly lidMap: LidMap;
  private readonly messages: MessageStore;
  private readonly libraryLog: Logger;
  /** The JID WhatsApp uses for a canonical number (Brazilian accounts may keep the 8-digit form). */
  private readonly knownJids = new Map<string, string>();

  private socket: WASocket | undefined;
  /** Loaded once per start and kept across reconnects: Baileys updates it in place. */
  private creds: AuthenticationCreds | undefined;
  /** Bumped whenever the current socket is retired. */
  private generation = 0;
  private running = false;
  private status: ConnectionStatus | undefined;
  private qrCodes = 0;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private work: Promise<void> = Promise.resolve();

  constructor(
    db: Database,
    log: Logger,
    private readonly context: DriverContext,
    private readonly options: BaileysDriverOptions,
  ) {
    const id = context.connectionId;
    this.lidMap = new LidMap(db, id, ({ lid, pn }) => void this.context.emit({ type: 'contact', number: canonicalNumber(pn), lid }));
    this.auth = new AuthStore(db, id, this.lidMap);
    this.messages = new MessageStore(db, id, options.messageStore);
    this.libraryLog = libraryLogger(log, id);
  }

  async start(): Promise<void> {
    await this.stop();
    this.running = true;
    this.status = undefined; // every start publishes OPENING
    this.qrCodes = 0;
    this.failures = 0;
    await this.lidMap.load();
    await this.messages.prune();
    this.creds = await this.auth.loadCreds();
    this.setStatus('OPENING');
    await this.connect();
  }

  async stop(): Promise<void> {
    await this.halt()?.end(undefined);
    await this.work;
  }

  async logout(): Promise<void> {
    const loggedIn = this.status === 'CONNECTED';
    const socket = this.halt();
    // Forgotten first, so a late credentials update cannot write them back.
    this.creds = undefined;
    if (socket) {
      // Tells WhatsApp to unlink this device; without an open socket there is no one to tell.
      if (loggedIn) await socket.logout().catch((err: unknown) => this.context.log.warn({ err }, 'WhatsApp logout failed'));
      await socket.end(undefined);
    }
    await this.work;
    await this.auth.clear();
    this.setStatus('DISCONNECTED', { reason: 'logout' });
  }

  async sendText(to: string, body: string, options: SendOptions = {}): Promise<SentMessage> {
    return this.send(to, { text: body }, options);
  }

  async sendMedia(to: string, media: OutgoingMedia, options: SendOptions = {}): Promise<SentMessage> {
    const file = { url: media.path };
    const [kind] = media.mimeType.split('/');
    let content: AnyMessageContent;
    if (kind === 'image') content = { image: file, caption: media.caption, mimetype: media.mimeType };
    else if (kind === 'video') content = { video: file, caption: media.caption, mimetype: media.mimeType };
    else if (kind === 'audio') content = { audio: file, ptt: Boolean(media.ptt), mimetype: media.mimeType };
    else content = { document: file, fileName: media.fileName, caption: media.caption, mimetype: media.mimeType };
    return this.send(to, content, options);
  }

  async sendLocation(to: string, location: { latitude: number; longitude: number; name?: string }, options: SendOptions = {}): Promise<SentMessage> {
    return this.send(
      to,
      { location: { degreesLatitude: location.latitude, degreesLongitude: location.longitude, name: location.name } },
      options,
    );
  }

  async delete(to: string, id: string): Promise<void> {
    const jid = await this.jidFor(to);
    await this.openSocket().sendMessage(jid, { delete: await this.keyOf(jid, id, true) });
  }

  async edit(to: string, id: string, body: string): Promise<void> {
    const jid = await this.jidFor(to);
    await this.openSocket().sendMessage(jid, { text: body, edit: await this.keyOf(jid, id, true) });
  }

  async markRead(to: string, ids: string[]): Promise<void> {
    const jid = await this.jidFor(to);
    const keys = await Promise.all(ids.map((id) => this.keyOf(jid, id, false)));
    await this.openSocket().readMessages(keys);
  }

  async checkNumber(number: string): Promise<string | null> {
    const jid = await this.resolveNumber(number);
    return jid ? canonicalNumber(jidUser(jid) ?? '') : null;
  }

  async profilePicture(number: string): Promise<string | null> {
    try {
      return (await this.openSocket().profilePictureUrl(await this.jidFor(number), 'image')) ?? null;
    } catch {
      return null; // no picture, hidden by privacy, or not connected
    }
  }

  private async connect(): Promise<void> {
    this.retryTimer = undefined;
    const generation = this.generation;
    const creds = this.creds;
    if (!this.running || !creds) return;
    try {
      const version = this.options.socket?.version ?? (await currentWaVersion());
      if (generation !== this.generation) return; // stopped while the version was looked up
      const socket = makeWASocket({
        // Status updates, broadcast lists and channels never reach the inbox: not even decrypted.
        shouldIgnoreJid: (jid) => Boolean(isJidBroadcast(jid) || isJidNewsletter(jid)),
        ...this.options.socket,
        version,
        auth: { creds, keys: makeCacheableSignalKeyStore(this.auth.keys, this.libraryLog) },
        logger: this.libraryLog,
        markOnlineOnConnect: false, // the phone keeps its notifications
        syncFullHistory: false,
        getMessage: (key) => this.messages.getMessage(key),
      });
      this.socket = socket;
      socket.ev.process((events) => this.enqueue(() => this.handle(socket, generation, creds, events)));
    } catch (err) {
      this.context.log.warn({ err }, 'WhatsApp socket could not be created');
      this.scheduleReconnect(err);
    }
  }

  /** Handles one batch of socket events, each kind on its own so one failure does not stop the rest. */
  private async handle(
    socket: WASocket,
    generation: number,
    creds: AuthenticationCreds,
    events: Partial<BaileysEventMap>,
  ): Promise<void> {
    // Saved even from a retired socket, unless the credentials were forgotten since.
    if (events['creds.update'] && this.creds === creds) await this.step('saving credentials', () => this.auth.saveCreds(creds));
    if (generation !== this.generation) return;
    const steps: [string, unknown, () => Promise<void>][] = [
      ['lid-mapping.update', events['lid-mapping.update'], () => this.lidMap.remember([lidPairOfMapping(events['lid-mapping.update']!)])],
      ['contacts.upsert', events['contacts.upsert'], () => this.onContacts(events['contacts.upsert']!)],
      ['contacts.update', events['contacts.update'], () => this.onContacts(events['contacts.update']!)],
      ['messages.upsert', events['messages.upsert'], () => this.onUpsert(socket, events['messages.upsert']!)],
      ['messages.update', events['messages.update'], () => this.onUpdates(events['messages.update']!)],
      ['call', events.call, () => this.onCalls(events.call!)],
      ['connection.update', events['connection.update'], () => this.onConnection(events['connection.update']!)],
    ];
    for (const [name, data, run] of steps) {
      if (data !== undefined && generation === this.generation) await this.step(name, run);
    }
  }

  private async onConnection(update: Partial<ConnectionState>): Promise<void> {
    if (update.qr) {
      this.qrCodes += 1;
      if (this.qrCodes > this.options.maxQrCodes) {
        // Nobody is scanning: stop asking WhatsApp for codes until the connection is started again.
        await this.halt()?.end(undefined);
        this.setStatus('TIMEOUT', { qrCodes: this.qrCodes - 1 });
        return;
      }
      this.setStatus('qrcode', { qrcode: update.qr });
    }
    if (update.isNewLogin) this.setStatus('PAIRING');
    if (update.connection === 'open') {
      this.failures = 0;
      this.qrCodes = 0;
      // From the credentials: the socket's `user` is a copy taken when the socket was built.
      const me = this.creds?.me;
      if (me?.id && me.lid) await this.lidMap.remember([{ lid: jidUser(me.lid) ?? '', pn: jidUser(me.id) }]);
      this.setStatus('CONNECTED', { number: this.ownNumber() ?? '' });
    }
    if (update.reachoutTimeLock) this.onReachoutLock(update.reachoutTimeLock);
    if (update.connection === 'close') await this.onClose(update.lastDisconnect?.error);
  }

  /** Baileys 7: WhatsApp stops (or lets again) this account reach people; senders pause on it. */
  private onReachoutLock(lock: NonNullable<Partial<ConnectionState>['reachoutTimeLock']>): void {
    const ends = lock.timeEnforcementEnds ? new Date(lock.timeEnforcementEnds) : undefined;
    const until = ends && !Number.isNaN(ends.getTime()) ? ends.toISOString() : undefined;
    const reason = lock.enforcementType ? String(lock.enforcementType) : 'reachout_time_lock';
    this.context.log.warn({ active: lock.isActive, until, reason }, 'WhatsApp reach-out time lock');
    void this.context.emit({ type: 'limit', active: Boolean(lock.isActive), reason, ...(until && { until }) });
  }

  private async onClose(error: unknown): Promise<void> {
    const action = closeAction(error);
    this.socket = undefined;
    if (action === 'logged-out') {
      // Unlinked on the phone (or the credentials were refused): only a new QR can bring it back.
      this.halt();
      this.creds = undefined;
      await this.auth.clear();
      this.setStatus('DISCONNECTED', { reason: 'logged out', code: closeCode(error) });
      return;
    }
    this.generation += 1;
    if (action === 'restart') {
      this.context.log.debug('WhatsApp asked for a restart');
      await this.connect();
      return;
    }
    this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: unknown): void {
    if (!this.running) return;
    this.failures += 1;
    const delayMs = reconnectDelay(this.failures, this.options.backoff);
    const reason = error instanceof Error ? error.message : undefined;
    this.setStatus('OPENING', { code: closeCode(error), reason });
    this.context.log.debug({ attempt: this.failures, delayMs, code: closeCode(error), reason }, 'WhatsApp reconnect scheduled');
    this.retryTimer = setTimeout(() => this.enqueue(() => this.connect()), delayMs);
  }

  private async onUpsert(socket: WASocket, { messages, type }: BaileysEventMap['messages.upsert']): Promise<void> {
    for (const msg of messages) {
      await this.step('message', async () => {
        await this.lidMap.remember(lidPairsOfKey(msg.key));
        this.rememberJid(msg.key.remoteJid);
        this.rememberJid(msg.key.remoteJidAlt);
        await this.messages.save(msg);
        // 'append' is history and this socket's own sends; of those only own messages are news.
        if (type !== 'notify' && !msg.key.fromMe) return;
        const normalized = normalizeMessage(msg, this.normalizeContext());
        if (!normalized) return;
        const { event, download } = normalized;
        if (event.type === 'message' && download) {
          await this.step('media download', async () => {
            const stream = await downloadMediaMessage(
              msg,
              'stream',
              { options: { signal: AbortSignal.timeout(MEDIA_DOWNLOAD_TIMEOUT_MS) } },
              { logger: this.libraryLog, reuploadRequest: (m: WAMessage) => socket.updateMediaMessage(m) },
            );
            const stored = await this.context.media.save(this.context.companyId, download.fileName, stream);
            event.message.media = { path: stored.name, name: displayFileName(download.fileName), mimeType: download.mimeType, size: stored.size };
          });
        }
        // Journaled before this batch counts as handled.
        await this.context.emit(event);
      });
    }
  }

  /**
   * Acks only: edits and revokes come as protocol messages through messages.upsert, and Baileys
   * repeats them here as updates; they are taken once, there.
   */
  private async onUpdates(updates: BaileysEventMap['messages.update']): Promise<void> {
    for (const update of updates) {
      const event = normalizeUpdate(update);
      if (event) await this.context.emit(event);
    }
  }

  private async onCalls(calls: BaileysEventMap['call']): Promise<void> {
    for (const call of calls) {
      const event = normalizeCall(call, this.normalizeContext());
      if (event) await this.context.emit(event);
    }
  }

  private async onContacts(contacts: BaileysEventMap['contacts.update']): Promise<void> {
    const pairs = contacts.map(lidPairOfContact).filter((pair) => pair !== undefined);
    await this.lidMap.remember(pairs);
    for (const contact of contacts) {
      const event = normalizeContact(contact, this.normalizeContext());
      if (event) await this.context.emit(event);
    }
  }

  /**
   * Publishes a status on each change, each new QR and each reconnect attempt (so the session
   * manager sees a retrying driver is alive, with its attempt count); logged once per change.
   */
  private setStatus(status: ConnectionStatus, details: { qrcode?: string; number?: string; [key: string]: unknown } = {}): void {
    const { qrcode = '', number, ...why } = details;
    const changed = status !== this.status;
    if (!changed && status !== 'qrcode' && status !== 'OPENING') return;
    this.status = status;
    const retries = status === 'qrcode' ? this.qrCodes : status === 'OPENING' ? this.failures : 0;
    const event: DriverEvent = { type: 'status', status, qrcode, retries };
    if (number !== undefined) event.number = number;
    if (changed) this.context.log.info({ status, ...why }, 'WhatsApp connection status');
    else this.context.log.debug({ status, retries }, status === 'qrcode' ? 'new WhatsApp QR code' : 'WhatsApp reconnecting');
    void this.context.emit(event);
  }

  /**
   * Stops reconnecting and retires the current socket, answered for the caller to close. Never
   * waits for queued work: handlers call it from inside the queue.
   */
  private halt(): WASocket | undefined {
    this.running = false;
    this.generation += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    return socket;
  }

  /** Chains work so events are handled in the order they came; nothing escapes the chain. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    this.work = this.work.then(task).catch((err: unknown) => this.context.log.error({ err }, 'WhatsApp event handling failed'));
    return this.work;
  }

  private async step(name: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      this.context.log.warn({ err, step: name }, 'WhatsApp event step failed');
    }
  }

  private normalizeContext(): NormalizeContext {
    return { pnForLid: (lid) => this.lidMap.pnFor(lid), ownNumber: this.ownNumber() };
  }

  private ownNumber(): string | undefined {
    const user = jidUser(this.creds?.me?.id);
    return user ? canonicalNumber(user) : undefined;
  }

  private rememberJid(jid: string | null | undefined): void {
    const user = jid?.endsWith('@s.whatsapp.net') ? jidUser(jid) : undefined;
    if (user) this.knownJids.set(canonicalNumber(user), jidNormalizedUser(jid!));
  }

  private openSocket(): WASocket {
    if (!this.socket || this.status !== 'CONNECTED') throw new Error('WhatsApp connection is not open');
    return this.socket;
  }

  /** The JID WhatsApp knows a number by, asking WhatsApp once when it was never seen; null without an account. */
  private async resolveNumber(number: string): Promise<string | null> {
    const forms = numberForms(number);
    const known = this.knownJids.get(forms[0]!);
    if (known) return known;
    const results = (await this.openSocket().onWhatsApp(...forms.map((n) => `${n}@s.whatsapp.net`))) ?? [];
    const found = results.find((r) => r.exists)?.jid;
    if (!found) return null;
    this.rememberJid(found);
    return jidNormalizedUser(found);
  }

  /** Where a chat id given back by the inbox goes: a group, a LID-only person, or a number. */
  private async jidFor(to: string): Promise<string> {
    if (to.includes('@')) return to;
    if (isGroupId(to)) return `${to}@g.us`;
    const digits = digitsOf(to);
    if (this.lidMap.hasLid(digits)) return `${digits}@lid`;
    const jid = await this.resolveNumber(digits);
    if (!jid) throw new Error(`${digits} has no WhatsApp account`);
    return jid;
  }

  /** The full key of a stored message (groups need its participant), or one built from its id. */
  private async keyOf(jid: string, id: string, fromMe: boolean): Promise<WAMessageKey> {
    return (await this.messages.find(id))?.key ?? { remoteJid: jid, id, fromMe };
  }

  /** `options.id` becomes the WhatsApp message id, so a retried send keeps the id of the first try. */
  private async send(to: string, content: AnyMessageContent, options: SendOptions): Promise<SentMessage> {
    const jid = await this.jidFor(to);
    const quoted = options.quotedId ? await this.messages.find(options.quotedId) : undefined;
    const sent = await this.openSocket()
      .sendMessage(jid, content, {
        ...(quoted && { quoted }),
        ...(options.id && { messageId: options.id }),
      })
      .catch((err: unknown) => {
        throw isRateLimited(err) ? new AppError(ErrorCode.ERR_WAPP_RATE_LIMITED, 429, 'WhatsApp refused the message: rate-overlimit') : err;
      });
    if (!sent?.key.id) throw new Error('WhatsApp did not accept the message');
    await this.messages.save(sent);
    return { id: sent.key.id, timestamp: new Date().toISOString(), raw: rawOf(sent) };
  }
}

/** WhatsApp's answer to too many sends: a 429 error node ('rate-overlimit'). */
function isRateLimited(err: unknown): boolean {
  const boom = err as { data?: unknown; output?: { statusCode?: number }; message?: string } | null;
  return boom?.data === 429 || boom?.output?.statusCode === 429 || /rate-overlimit/.test(boom?.message ?? '');
}
