import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AuthUser } from '../../auth/auth-user.js';
import type { Config } from '../../config/config.schema.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { ConnectionStore } from '../connection-store.js';
import {
  sessionNotInitialized,
  type ChannelDriver,
  type ConnectionStatus,
  type DriverContext,
  type DriverFactory,
  type MediaType,
  type NormalizedMessage,
  type OutgoingMedia,
  type SendOptions,
  type SentMessage,
} from '../driver.js';
import { PhoneNetwork, type PhoneEvent, type PhoneListener, type PhonePort, type SimulatorBackend } from './simulated-phone.js';
import { RemoteSimulator } from './simulator-remote.js';
import { ErrorCode } from '../../contract/error-codes.js';

export type { Outbox, OutboxMessage, OutboxOperation } from './simulated-phone.js';

type SimulatedMediaType = Extract<MediaType, 'image' | 'audio' | 'video' | 'application' | 'sticker'>;

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

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The simulated WhatsApp as a node sees it: the driver factory of simulator connections and the
 * test API (scan, inbound, outbox, ...). Its phones live in this process, or, with
 * ATENDE_SIMULATOR_URL, in `atende simulate server`, shared by every node and outliving each.
 */
export class Simulator {
  readonly factory: DriverFactory;

  constructor(
    private readonly connections: ConnectionStore,
    readonly api: SimulatorBackend,
  ) {
    this.factory = (context) => new SimulatorDriver(context, connections, (listener) => api.link(context.connectionId, listener));
  }

  /** The id of a simulator connection the caller may drive: own company, any for super users. */
  async visible(actor: AuthUser, connectionId: number): Promise<number> {
    const row = await this.connections.find(connectionId);
    const visible = row?.provider === 'simulator' && (actor.super || row.companyId === actor.companyId);
    if (!visible) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND, 'No simulated connection with this ID');
    return connectionId;
  }
}

export function createSimulator(config: Config, connections: ConnectionStore): Simulator {
  if (config.simulatorUrl) return new Simulator(connections, new RemoteSimulator(config.simulatorUrl));
  // Its outbox beside the media, so it outlives a crash of the server as a real network would.
  const network = new PhoneNetwork({ dir: path.join(path.dirname(config.mediaDir), 'simulator'), keepsInbound: false });
  return new Simulator(connections, network);
}

/**
 * The driver of a simulator connection: the device linked to its simulated phone. Whatever the
 * phone tells it becomes driver events (a customer's media saved first); its commands go to the
 * phone. Its stored credential is the number the phone was paired with.
 */
export class SimulatorDriver implements ChannelDriver, PhoneListener {
  private readonly phone: PhonePort;
  private lastStatus: ConnectionStatus | undefined;
  /** Bumped by start, stop and logout: work begun under an older run ends quietly. */
  private run = 0;
  private running = false;
  /** Customers' messages, their media saved one at a time so each is handed over in its turn. */
  private inbox: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: DriverContext,
    private readonly connections: ConnectionStore,
    link: (listener: PhoneListener) => PhonePort,
  ) {
    this.phone = link(this);
  }

  async start(): Promise<void> {
    const run = this.next(true);
    void this.deliver({ type: 'status', status: 'OPENING' });
    const row = await this.connections.find(this.ctx.connectionId);
    if (run !== this.run) return;
    await this.phone.start(row?.number || undefined);
  }

  async stop(): Promise<void> {
    this.next(false);
    await this.phone.stop();
  }

  async logout(): Promise<void> {
    this.next(false);
    await this.phone.logout();
  }

  deliver(event: PhoneEvent): Promise<NormalizedMessage | undefined> {
    if (event.type === 'message') return this.receive(event);
    if (event.type === 'status') this.status(event.status);
    void this.ctx.emit(event);
    return Promise.resolve(undefined);
  }

  replaced(): void {
    this.ctx.log.warn('another node took this simulated connection over');
  }

  sendText(to: string, body: string, options: SendOptions = {}): Promise<SentMessage> {
    return this.phone.send({ kind: 'text', to, body, quotedId: options.quotedId, id: options.id });
  }

  async sendMedia(to: string, media: OutgoingMedia, options: SendOptions = {}): Promise<SentMessage> {
    const already = await this.phone.sentBefore(options.id);
    if (already) return already;
    const file = await stat(media.path).catch(() => undefined);
    if (!file?.isFile()) throw new AppError(ErrorCode.ERR_SENDING_WAPP_MSG, 400, `No file to send at ${media.fileName}`);
    return this.phone.send({
      kind: 'media',
      to,
      body: media.caption ?? '',
      quotedId: options.quotedId,
      id: options.id,
      media: { fileName: media.fileName, mimeType: media.mimeType, size: file.size, sha256: await sha256Of(media.path), ptt: media.ptt ?? false },
    });
  }

  sendLocation(to: string, location: { latitude: number; longitude: number; name?: string }, options: SendOptions = {}): Promise<SentMessage> {
    return this.phone.send({ kind: 'location', to, body: location.name ?? '', location, id: options.id });
  }

  delete(to: string, id: string): Promise<void> {
    return this.phone.operate({ type: 'delete', to, ids: [id] });
  }

  edit(to: string, id: string, body: string): Promise<void> {
    return this.phone.operate({ type: 'edit', to, ids: [id], body });
  }

  markRead(to: string, ids: string[]): Promise<void> {
    return this.phone.operate({ type: 'read', to, ids });
  }

  checkNumber(number: string): Promise<string | null> {
    return this.phone.checkNumber(number);
  }

  /** Simulated customers have no picture; asked of a session that is not connected, it fails as a real one does. */
  async profilePicture(number: string): Promise<string | null> {
    await this.phone.checkNumber(number);
    return null;
  }

  private next(running: boolean): number {
    this.running = running;
    this.run += 1;
    return this.run;
  }

  /** A status change is logged once. */
  private status(status: ConnectionStatus): void {
    if (status !== this.lastStatus) this.ctx.log.info({ status }, 'simulated WhatsApp status');
    this.lastStatus = status;
  }

  /**
   * A customer's message, resolved with it once journaled. Its media is saved first; messages are
   * handed over in the order they came, each without waiting for the journal of the one before.
   */
  private receive(event: Extract<PhoneEvent, { type: 'message' }>): Promise<NormalizedMessage> {
    const run = this.run;
    const turn = this.inbox.then(async () => {
      const message = await this.received(event);
      // Saving media took a moment: the session may have closed meanwhile.
      if (run !== this.run || !this.running) throw sessionNotInitialized();
      return { message, journaled: this.ctx.emit({ type: 'message', message }) };
    });
    this.inbox = turn.catch(() => undefined);
    return turn.then(async ({ message, journaled }) => {
      await journaled;
      return message;
    });
  }

  /** The message as the provider reports it, its media saved where this node keeps media. */
  private async received({ message, media }: Extract<PhoneEvent, { type: 'message' }>): Promise<NormalizedMessage> {
    if (!media || !message.mediaType) return message;
    const fallback = DEFAULT_MEDIA[message.mediaType as SimulatedMediaType];
    const name = media.name ?? fallback.name;
    const data = Buffer.from(media.base64, 'base64');
    const stored = await this.ctx.media.save(this.ctx.companyId, name, Readable.from(data));
    return {
      ...message,
      media: { path: stored.name, name, mimeType: MIME_BY_EXTENSION[path.extname(name).toLowerCase()] ?? fallback.mimeType, size: stored.size },
    };
  }
}
