import { createHash, randomBytes, randomInt } from 'node:crypto';
import { appendFileSync, createReadStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthUser } from '../../auth/auth-user.js';
import { AppError, ConflictError, NotFoundError } from '../../errors.js';
import type { ConnectionStore } from '../connection-store.js';
import type {
  ChannelDriver,
  ConnectionStatus,
  DriverContext,
  DriverEvent,
  DriverFactory,
  MediaType,
  NormalizedMessage,
  OutgoingMedia,
  SendOptions,
  SentMessage,
} from '../driver.js';
import { simulatedNumber } from './numbers.js';
import { ErrorCode } from '../../contract/error-codes.js';

/** Acks of a sent message: sent to the server, delivered, read — over about a second. */
const ACK_STEPS = [
  { ack: 1, afterMs: 100 },
  { ack: 2, afterMs: 500 },
  { ack: 3, afterMs: 1000 },
] as const;
/** How long the simulated phone shows PAIRING after a scan. */
const PAIRING_MS = 300;
/** Sent messages kept per connection (the oldest go first). */
const OUTBOX_LIMIT = 500;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export type SimulatedMediaType = Extract<MediaType, 'image' | 'audio' | 'video' | 'application' | 'sticker'>;

export interface InboundInput {
  id?: string;
  from: string;
  name: string;
  body: string;
  quotedId?: string;
  media?: { type: SimulatedMediaType; data: Buffer; name?: string };
}

export interface OutboxMessage {
  id: string;
  to: string;
  kind: 'text' | 'media' | 'location';
  body: string;
  quotedId: string | null;
  /** What was sent of a file; sha256 (hex) of its bytes as they were read at the send. */
  media: { fileName: string; mimeType: string; size: number; sha256: string; ptt: boolean } | null;
  location: { latitude: number; longitude: number; name?: string } | null;
  /** 0 until the first ack, then 1 → 2 → 3. */
  ack: number;
  deleted: boolean;
  editedBody: string | null;
  sentAt: string;
}

export interface OutboxOperation {
  type: 'delete' | 'edit' | 'read';
  to: string;
  ids: string[];
  body?: string;
  at: string;
}

/** What a simulated connection sent, and what it was asked to delete, edit or mark read. */
export interface Outbox {
  messages: OutboxMessage[];
  operations: OutboxOperation[];
}

/** An outbox and what the network remembers beyond its window: every id it took, and where they are written. */
interface OutboxRecord extends Outbox {
  ids: Set<string>;
  file?: string;
}

const DEFAULT_MEDIA: Record<SimulatedMediaType, { name: string; mimeType: string }> = {
  image: { name: 'image.jpg', mimeType: 'image/jpeg' },
  audio: { name: 'audio.ogg', mimeType: 'audio/ogg' },
  video: { name: 'video.mp4', mimeType: 'video/mp4' },
  application: { name: 'document.pdf', mimeType: 'application/pdf' },
  sticker: { name: 'sticker.webp', mimeType: 'image/webp' },
};

const MIME_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
};

function notInitialized(): AppError {
  return new AppError(ErrorCode.ERR_WAPP_NOT_INITIALIZED, 400, 'Session not initialized');
}

/** Looks like a WhatsApp message id (upper-case hex), marked as the simulator's. */
function messageId(): string {
  return `SIM${randomBytes(8).toString('hex').toUpperCase()}`;
}

/** A São Paulo mobile number in canonical form. */
function randomMobile(): string {
  return `55119${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/**
 * The simulated WhatsApp "network" of this process: the device behind each simulator connection
 * (created by the session manager through `factory`) and what each connection sent. The test API
 * and `atende simulate` reach devices through it, as a phone and a customer would.
 */
export class Simulator {
  private readonly devices = new Map<number, SimulatorDriver>();
  /** Kept across restarts of a session (the driver is replaced, the sent messages stay). */
  private readonly outboxes = new Map<number, OutboxRecord>();

  /**
   * With `dir`, each connection's sent messages are appended to a file there and read back by the
   * next process: the simulated network outlives a crash of the server, as WhatsApp does, and a
   * send retried with an id it already took is answered without a second message.
   */
  constructor(
    private readonly connections: ConnectionStore,
    private readonly dir?: string,
  ) {}

  readonly factory: DriverFactory = (context) => {
    const device = new SimulatorDriver(context, this.connections, this.outboxOf(context.connectionId), () => {
      if (this.devices.get(context.connectionId) === device) this.devices.delete(context.connectionId);
    });
    this.devices.set(context.connectionId, device);
    return device;
  };

  /** The running device of a simulator connection the caller may drive: own company, any for super users. */
  async device(actor: AuthUser, connectionId: number): Promise<SimulatorDriver> {
    await this.assertVisible(actor, connectionId);
    const device = this.deviceOf(connectionId);
    if (!device) throw notInitialized();
    return device;
  }

  /** The running device of a connection, for the process itself (the demo's customers). */
  deviceOf(connectionId: number): SimulatorDriver | undefined {
    return this.devices.get(connectionId);
  }

  async outbox(actor: AuthUser, connectionId: number): Promise<Outbox> {
    await this.assertVisible(actor, connectionId);
    const { messages, operations } = this.outboxOf(connectionId);
    return { messages, operations };
  }

  private outboxOf(connectionId: number): OutboxRecord {
    let outbox = this.outboxes.get(connectionId);
    if (!outbox) {
      outbox = { messages: [], operations: [], ids: new Set() };
      if (this.dir) {
        mkdirSync(this.dir, { recursive: true });
        outbox.file = path.join(this.dir, `outbox-${connectionId}.jsonl`);
        const lines = existsSync(outbox.file) ? readFileSync(outbox.file, 'utf8').split('\n').filter(Boolean) : [];
        // A line cut by a crash is a send never answered: skipped.
        const sent = lines.flatMap((line) => {
          try {
            return [JSON.parse(line) as OutboxMessage];
          } catch {
            return [];
          }
        });
        for (const message of sent) outbox.ids.add(message.id);
        outbox.messages = sent.slice(-OUTBOX_LIMIT);
      }
      this.outboxes.set(connectionId, outbox);
    }
    return outbox;
  }

  private async assertVisible(actor: AuthUser, connectionId: number): Promise<void> {
    const row = await this.connections.find(connectionId);
    const visible = row?.provider === 'simulator' && (actor.super || row.companyId === actor.companyId);
    if (!visible) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND, 'No simulated connection with this ID');
  }
}

type Phase = 'idle' | 'qrcode' | 'pairing' | 'connected';

/**
 * One simulated WhatsApp session: OPENING → qrcode → (scan) PAIRING → CONNECTED, and
 * DISCONNECTED when the phone unlinks it or it logs out. Its only credential is the number it
 * was paired with, which the session manager stores on the connection: a paired connection comes
 * back CONNECTED after a restart without a new scan, as Baileys does with its stored keys.
 */
export class SimulatorDriver implements ChannelDriver {
  private phase: Phase = 'idle';
  private qrCount = 0;
  private lastStatus: ConnectionStatus | undefined;
  /** Bumped by start, stop and logout: work begun under an older run ends quietly. */
  private run = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly ctx: DriverContext,
    private readonly connections: ConnectionStore,
    private readonly sent: OutboxRecord,
    private readonly release: () => void,
  ) {}

  async start(): Promise<void> {
    const run = this.reset();
    this.status({ status: 'OPENING' });
    const row = await this.connections.find(this.ctx.connectionId);
    if (run !== this.run) return;
    if (row?.number) this.connect(row.number);
    else this.showQr();
  }

  async stop(): Promise<void> {
    this.reset();
    this.release();
  }

  async logout(): Promise<void> {
    this.reset();
    this.release();
    this.status({ status: 'DISCONNECTED', qrcode: '', retries: 0, number: '' });
  }

  /** The phone scanned the QR code: PAIRING, then CONNECTED as `number` (a random mobile when absent). */
  async scan(number?: string): Promise<string> {
    if (this.phase !== 'qrcode') throw new ConflictError(ErrorCode.ERR_SIMULATOR_NO_QRCODE, 'The connection is not showing a QR code');
    const run = this.run;
    this.phase = 'pairing';
    this.status({ status: 'PAIRING' });
    await sleep(PAIRING_MS);
    if (run !== this.run || this.phase !== 'pairing') {
      throw new ConflictError(ErrorCode.ERR_SIMULATOR_NO_QRCODE, 'The session closed while pairing');
    }
    const paired = number ?? randomMobile();
    this.connect(paired);
    return paired;
  }

  /** The phone unlinked this device: the session ends and its credential is gone (a new QR on the next start). */
  disconnect(): void {
    this.reset();
    this.status({ status: 'DISCONNECTED', qrcode: '', retries: 0, number: '' });
  }

  /** A customer writes. A repeated id is delivered again as it is: a provider replay. */
  async inbound(input: InboundInput): Promise<NormalizedMessage> {
    const [message] = await this.inboundMany([input]);
    return message!;
  }

  /**
   * Customers write, many messages at once: every number is checked before anything is saved, the
   * messages are handed over in the given order (so each chat keeps its order) and the answer waits
   * until every one is journaled: then, as for a real provider, they count as received.
   */
  async inboundMany(inputs: InboundInput[]): Promise<NormalizedMessage[]> {
    this.assertConnected();
    const numbers = inputs.map((input) => {
      const number = simulatedNumber(input.from);
      if (!number) throw new AppError(ErrorCode.ERR_WAPP_INVALID_CONTACT, 400, 'Not a valid WhatsApp number');
      return number;
    });
    const messages: NormalizedMessage[] = [];
    for (const [k, input] of inputs.entries()) messages.push(await this.received(input, numbers[k]!));
    // Saving media took a moment: the session may have closed meanwhile.
    this.assertConnected();
    // Emitted one after another without waiting between them: each is queued in this order at once.
    await Promise.all(messages.map((message) => this.ctx.emit({ type: 'message', message })));
    return messages;
  }

  /** The message as the provider reports it, its media saved first. */
  private async received(input: InboundInput, number: string): Promise<NormalizedMessage> {
    const message: NormalizedMessage = {
      id: input.id ?? messageId(),
      chatId: number,
      isGroup: false,
      fromMe: false,
      from: { number, name: input.name },
      body: input.body,
      timestamp: new Date().toISOString(),
      ...(input.quotedId && { quotedId: input.quotedId }),
    };
    if (input.media) {
      const fallback = DEFAULT_MEDIA[input.media.type];
      const name = input.media.name ?? fallback.name;
      const stored = await this.ctx.media.save(this.ctx.companyId, name, Readable.from(input.media.data));
      message.mediaType = input.media.type;
      message.media = {
        path: stored.name,
        name,
        mimeType: MIME_BY_EXTENSION[path.extname(name).toLowerCase()] ?? fallback.mimeType,
        size: stored.size,
      };
    }
    return message;
  }

  sendText(to: string, body: string, options: SendOptions = {}): Promise<SentMessage> {
    return Promise.resolve(this.record({ kind: 'text', to, body, quotedId: options.quotedId, id: options.id }));
  }

  async sendMedia(to: string, media: OutgoingMedia, options: SendOptions = {}): Promise<SentMessage> {
    this.assertConnected();
    const already = this.alreadySent(options.id);
    if (already) return already;
    const file = await stat(media.path).catch(() => undefined);
    if (!file?.isFile()) throw new AppError(ErrorCode.ERR_SENDING_WAPP_MSG, 400, `No file to send at ${media.fileName}`);
    return this.record({
      kind: 'media',
      to,
      body: media.caption ?? '',
      quotedId: options.quotedId,
      id: options.id,
      media: { fileName: media.fileName, mimeType: media.mimeType, size: file.size, sha256: await sha256Of(media.path), ptt: media.ptt ?? false },
    });
  }

  sendLocation(to: string, location: { latitude: number; longitude: number; name?: string }, options: SendOptions = {}): Promise<SentMessage> {
    return Promise.resolve(this.record({ kind: 'location', to, body: location.name ?? '', location, id: options.id }));
  }

  async delete(to: string, id: string): Promise<void> {
    this.assertConnected();
    const sent = this.sent.messages.find((m) => m.id === id);
    if (sent) sent.deleted = true;
    this.operation({ type: 'delete', to, ids: [id] });
  }

  async edit(to: string, id: string, body: string): Promise<void> {
    this.assertConnected();
    const sent = this.sent.messages.find((m) => m.id === id);
    if (sent) sent.editedBody = body;
    this.operation({ type: 'edit', to, ids: [id], body });
  }

  async markRead(to: string, ids: string[]): Promise<void> {
    this.assertConnected();
    this.operation({ type: 'read', to, ids });
  }

  async checkNumber(number: string): Promise<string | null> {
    this.assertConnected();
    return simulatedNumber(number);
  }

  async profilePicture(): Promise<string | null> {
    this.assertConnected();
    return null;
  }

  /** Every status goes to the session manager; a change is logged once. */
  private status(event: Omit<Extract<DriverEvent, { type: 'status' }>, 'type'>): void {
    if (event.status !== this.lastStatus) this.ctx.log.info({ status: event.status }, 'simulated WhatsApp status');
    this.lastStatus = event.status;
    void this.ctx.emit({ type: 'status', ...event });
  }

  private showQr(): void {
    this.phase = 'qrcode';
    this.qrCount += 1;
    const qrcode = `atende-simulator:${this.ctx.connectionId}:${randomBytes(12).toString('base64url')}`;
    this.status({ status: 'qrcode', qrcode, retries: this.qrCount });
  }

  private connect(number: string): void {
    this.phase = 'connected';
    this.qrCount = 0;
    this.status({ status: 'CONNECTED', qrcode: '', retries: 0, number });
  }

  /** Ends whatever the current run was doing (pending acks, a pairing) and answers the new run. */
  private reset(): number {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.phase = 'idle';
    this.run += 1;
    return this.run;
  }

  private assertConnected(): void {
    if (this.phase !== 'connected') throw notInitialized();
  }

  /** A send with an id the network already took is a retry of it (say, after a crash): answered, not sent again. */
  private alreadySent(id: string | undefined): SentMessage | undefined {
    if (id === undefined || !this.sent.ids.has(id)) return undefined;
    const sent = this.sent.messages.find((m) => m.id === id);
    return { id, timestamp: sent?.sentAt ?? new Date().toISOString() };
  }

  /** The limit WhatsApp puts on reaching people (Baileys 7's reach-out time lock), set or lifted. */
  limit(active: boolean, until?: string): void {
    this.assertConnected();
    void this.ctx.emit({ type: 'limit', active, reason: 'simulated', ...(until && { until }) });
  }

  private record(
    fields: Pick<OutboxMessage, 'kind' | 'to' | 'body'> & Partial<Pick<OutboxMessage, 'media' | 'location'>> & { quotedId?: string; id?: string },
  ): SentMessage {
    this.assertConnected();
    const already = this.alreadySent(fields.id);
    if (already) return already;
    const message: OutboxMessage = {
      id: fields.id ?? messageId(),
      to: fields.to,
      kind: fields.kind,
      body: fields.body,
      quotedId: fields.quotedId ?? null,
      media: fields.media ?? null,
      location: fields.location ?? null,
      ack: 0,
      deleted: false,
      editedBody: null,
      sentAt: new Date().toISOString(),
    };
    this.sent.messages.push(message);
    this.sent.ids.add(message.id);
    if (this.sent.file) appendFileSync(this.sent.file, `${JSON.stringify(message)}\n`);
    if (this.sent.messages.length > OUTBOX_LIMIT) this.sent.messages.shift();
    for (const step of ACK_STEPS) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        message.ack = step.ack;
        void this.ctx.emit({ type: 'ack', id: message.id, ack: step.ack });
      }, step.afterMs);
      timer.unref();
      this.timers.add(timer);
    }
    return { id: message.id, timestamp: message.sentAt };
  }

  private operation(op: Omit<OutboxOperation, 'at'>): void {
    this.sent.operations.push({ ...op, at: new Date().toISOString() });
    if (this.sent.operations.length > OUTBOX_LIMIT) this.sent.operations.shift();
  }
}
