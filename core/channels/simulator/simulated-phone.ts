import { randomBytes, randomInt } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, ConflictError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { sessionNotInitialized, type DriverEvent, type NormalizedMessage, type SentMessage } from '../driver.js';
import { simulatedNumber } from './numbers.js';
import type { InboundBody } from './simulator.schema.js';

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

/** A message a device is asked to send. */
export type OutgoingMessage = Pick<OutboxMessage, 'kind' | 'to' | 'body'> &
  Partial<Pick<OutboxMessage, 'media' | 'location'>> & { quotedId?: string; id?: string };

export type PhoneOperation = Omit<OutboxOperation, 'at'>;

/**
 * What a phone hands its device: the driver's events, except that a customer's message carries its
 * media as bytes (base64), which the device saves where its node keeps media.
 */
export type PhoneEvent =
  | Extract<DriverEvent, { type: 'status' | 'ack' | 'limit' }>
  | { type: 'message'; message: NormalizedMessage; media?: { base64: string; name?: string } };

/** The device linked to a phone: a node's driver, in this process or at the other end of a socket. */
export interface PhoneListener {
  /**
   * Hands an event over. For a message, resolves with it as the node journaled it, or undefined
   * when the device went away first (the phone then keeps it for the next device).
   */
  deliver(event: PhoneEvent): Promise<NormalizedMessage | undefined>;
  /** Another device took the phone over: this one hears nothing more. */
  replaced(): void;
}

/** What a driver asks of its phone, here or over a socket (simulator-remote.ts). */
export interface PhonePort {
  /** Links the device: CONNECTED as `number` (the credential its node stored), or a QR code to scan. */
  start(number: string | undefined): Promise<void>;
  /** The device goes away; the phone stays linked and keeps customers' messages (when its network does). */
  stop(): Promise<void>;
  /** Ends the link: the number, and whatever was waiting for the device, are forgotten. */
  logout(): Promise<void>;
  /** The send the network already took under this id (a retry after a crash); checks the device is connected. */
  sentBefore(id: string | undefined): Promise<SentMessage | undefined>;
  send(message: OutgoingMessage): Promise<SentMessage>;
  operate(operation: PhoneOperation): Promise<void>;
  checkNumber(number: string): Promise<string | null>;
}

/** The test API of simulated connections, by connection id: what a phone and its customers do. */
export interface SimulatorApi {
  /** The phone scans the QR code; answers the number it connected as. */
  scan(connectionId: number, number?: string): Promise<string>;
  /**
   * Customers write. `delivered`: every message was journaled by the device's node; otherwise the
   * network keeps them until a device takes them (the messages then carry no saved media yet).
   */
  inbound(connectionId: number, inputs: InboundBody[]): Promise<{ messages: NormalizedMessage[]; delivered: boolean }>;
  outbox(connectionId: number): Promise<Outbox>;
  /** The phone unlinks the device. */
  disconnect(connectionId: number): Promise<void>;
  limit(connectionId: number, active: boolean, until?: string): Promise<void>;
}

/** Where phones live: in the node's process, or in `atende simulate server` that nodes reach over a socket. */
export interface SimulatorBackend extends SimulatorApi {
  /** The phone of a connection as one device (a driver) sees it. */
  link(connectionId: number, listener: PhoneListener): PhonePort;
}

/** Looks like a WhatsApp message id (upper-case hex), marked as the simulator's. */
function messageId(): string {
  return `SIM${randomBytes(8).toString('hex').toUpperCase()}`;
}

/** A São Paulo mobile number in canonical form. */
function randomMobile(): string {
  return `55119${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** A customer's message as the provider reports it; its media goes along as bytes. */
function phoneMessage(input: InboundBody, number: string): Extract<PhoneEvent, { type: 'message' }> {
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
  if (!input.mediaType || input.mediaBase64 === undefined) return { type: 'message', message };
  message.mediaType = input.mediaType;
  return { type: 'message', message, media: { base64: input.mediaBase64, ...(input.mediaName && { name: input.mediaName }) } };
}

type Phase = 'idle' | 'qrcode' | 'pairing' | 'connected';

/** A customer's message the phone holds until a device's node has journaled it. */
interface Pending {
  event: Extract<PhoneEvent, { type: 'message' }>;
  /** The device it was last handed to, while that device is linked. */
  deliveredTo?: PhoneListener;
}

/**
 * One simulated phone and the WhatsApp link of its connection: OPENING → qrcode → (scan) PAIRING →
 * CONNECTED, and DISCONNECTED when the phone unlinks the device or it logs out. Its only credential
 * is the number it was paired with, which the node stores on the connection: a paired connection
 * comes back CONNECTED after a restart without a new scan, as Baileys does with its stored keys.
 *
 * One device at a time hears it; the last one started takes it over. Customers' messages wait in
 * order until the device's node has journaled them, so a device that goes away loses none: the
 * next one gets them again (its node stores each once, by provider id).
 */
export class SimulatedPhone {
  private listener: PhoneListener | undefined;
  private phase: Phase = 'idle';
  /** The number the phone is linked as; undefined until a scan (or a stored credential) and after an unlink. */
  private number: string | undefined;
  private qrCount = 0;
  /** Bumped whenever the device's run ends: work begun under an older run ends quietly. */
  private run = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Insertion-ordered: customers' messages in the order they wrote. */
  private readonly pending = new Set<Pending>();

  constructor(
    private readonly connectionId: number,
    private readonly sent: OutboxRecord,
    /** Customers may write while no device is linked (the messages wait): a phone outliving its nodes. */
    private readonly keepsInbound: boolean,
  ) {}

  portFor(listener: PhoneListener): PhonePort {
    return {
      start: async (number) => this.attach(listener, number),
      stop: async () => this.detach(listener),
      logout: async () => this.logout(listener),
      sentBefore: async (id) => {
        this.assertConnected(listener);
        return this.alreadySent(id);
      },
      send: async (message) => this.record(listener, message),
      operate: async (operation) => this.operate(listener, operation),
      checkNumber: async (number) => {
        this.assertConnected(listener);
        return simulatedNumber(number);
      },
    };
  }

  get outbox(): Outbox {
    return { messages: this.sent.messages, operations: this.sent.operations };
  }

  /** The phone scanned the QR code: PAIRING, then CONNECTED as `number` (a random mobile when absent). */
  async scan(number?: string): Promise<string> {
    this.assertDevice();
    if (this.phase !== 'qrcode') throw new ConflictError(ErrorCode.ERR_SIMULATOR_NO_QRCODE, 'The connection is not showing a QR code');
    const run = this.run;
    this.phase = 'pairing';
    this.emit({ type: 'status', status: 'PAIRING' });
    await sleep(PAIRING_MS);
    if (run !== this.run || this.phase !== 'pairing') {
      throw new ConflictError(ErrorCode.ERR_SIMULATOR_NO_QRCODE, 'The session closed while pairing');
    }
    const paired = number ?? randomMobile();
    this.connect(paired);
    return paired;
  }

  /** The phone unlinked the device: the session ends and its credential is gone (a new QR on the next start). */
  disconnect(): void {
    this.assertDevice();
    this.reset();
    this.unlink();
    this.emit({ type: 'status', status: 'DISCONNECTED', qrcode: '', retries: 0, number: '' });
  }

  /** The limit WhatsApp puts on reaching people (Baileys 7's reach-out time lock), set or lifted. */
  limit(active: boolean, until?: string): void {
    this.assertConnected(this.listener);
    this.emit({ type: 'limit', active, reason: 'simulated', ...(until && { until }) });
  }

  /**
   * Customers write, one message or many: every number is checked before anything is taken, the
   * messages are handed over in the given order (so each chat keeps its order) and the answer waits
   * until the device's node has journaled every one: then, as for a real provider, they count as
   * received. A repeated id is delivered again as it is: a provider replay.
   */
  async inbound(inputs: InboundBody[]): Promise<{ messages: NormalizedMessage[]; delivered: boolean }> {
    const waiting = this.listener === undefined && this.keepsInbound && this.number !== undefined;
    if (!waiting) this.assertConnected(this.listener);
    const numbers = inputs.map((input) => {
      const number = simulatedNumber(input.from);
      if (!number) throw new AppError(ErrorCode.ERR_WAPP_INVALID_CONTACT, 400, 'Not a valid WhatsApp number');
      return number;
    });
    const entries = inputs.map((input, k): Pending => ({ event: phoneMessage(input, numbers[k]!) }));
    for (const entry of entries) this.pending.add(entry);
    const received = await Promise.all(entries.map((entry) => this.deliver(entry)));
    return {
      messages: received.map((message, k) => message ?? entries[k]!.event.message),
      delivered: received.every((message) => message !== undefined),
    };
  }

  private attach(listener: PhoneListener, number: string | undefined): void {
    const previous = this.listener;
    this.reset();
    this.listener = listener;
    if (previous && previous !== listener) previous.replaced();
    if (number) this.connect(number);
    else this.showQr();
  }

  private detach(listener: PhoneListener): void {
    if (this.listener !== listener) return;
    this.reset();
    this.listener = undefined;
    for (const entry of this.pending) entry.deliveredTo = undefined;
  }

  private logout(listener: PhoneListener): void {
    if (this.listener === listener) this.listener = undefined;
    this.reset();
    this.unlink();
    void listener.deliver({ type: 'status', status: 'DISCONNECTED', qrcode: '', retries: 0, number: '' }).catch(() => undefined);
  }

  /** Hands a message to the device when one is connected; undefined when it stays waiting. */
  private deliver(entry: Pending): Promise<NormalizedMessage | undefined> {
    const listener = this.listener;
    if (!listener || this.phase !== 'connected') return Promise.resolve(undefined);
    entry.deliveredTo = listener;
    return listener.deliver(entry.event).then(
      (message) => {
        if (message) this.pending.delete(entry);
        else if (entry.deliveredTo === listener) entry.deliveredTo = undefined;
        return message;
      },
      (err: unknown) => {
        // A phone living in its node's process has no later device to hand it to.
        if (!this.keepsInbound) this.pending.delete(entry);
        else if (entry.deliveredTo === listener) entry.deliveredTo = undefined;
        throw err;
      },
    );
  }

  /** A device connected: what waited for it goes first, in order. */
  private flush(): void {
    for (const entry of this.pending) {
      if (entry.deliveredTo !== this.listener) this.deliver(entry).catch(() => undefined);
    }
  }

  private showQr(): void {
    // A new QR code is a new link: what waited for the old one is not this link's.
    this.unlink();
    this.phase = 'qrcode';
    this.qrCount += 1;
    const qrcode = `atende-simulator:${this.connectionId}:${randomBytes(12).toString('base64url')}`;
    this.emit({ type: 'status', status: 'qrcode', qrcode, retries: this.qrCount });
  }

  private connect(number: string): void {
    this.phase = 'connected';
    this.qrCount = 0;
    this.number = number;
    this.emit({ type: 'status', status: 'CONNECTED', qrcode: '', retries: 0, number });
    this.flush();
  }

  private unlink(): void {
    this.number = undefined;
    this.pending.clear();
  }

  /** Ends whatever the current run was doing (pending acks, a pairing). */
  private reset(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.phase = 'idle';
    this.run += 1;
  }

  private emit(event: PhoneEvent): void {
    this.listener?.deliver(event).catch(() => undefined);
  }

  private assertDevice(): void {
    if (!this.listener) throw sessionNotInitialized();
  }

  private assertConnected(listener: PhoneListener | undefined): void {
    if (!listener || listener !== this.listener || this.phase !== 'connected') throw sessionNotInitialized();
  }

  /** A send with an id the network already took is a retry of it (say, after a crash): answered, not sent again. */
  private alreadySent(id: string | undefined): SentMessage | undefined {
    if (id === undefined || !this.sent.ids.has(id)) return undefined;
    const sent = this.sent.messages.find((m) => m.id === id);
    return { id, timestamp: sent?.sentAt ?? new Date().toISOString() };
  }

  private record(listener: PhoneListener, fields: OutgoingMessage): SentMessage {
    this.assertConnected(listener);
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
        this.emit({ type: 'ack', id: message.id, ack: step.ack });
      }, step.afterMs);
      timer.unref();
      this.timers.add(timer);
    }
    return { id: message.id, timestamp: message.sentAt };
  }

  private operate(listener: PhoneListener, op: PhoneOperation): void {
    this.assertConnected(listener);
    const sent = op.type === 'read' ? undefined : this.sent.messages.find((m) => m.id === op.ids[0]);
    if (sent && op.type === 'delete') sent.deleted = true;
    if (sent && op.type === 'edit') sent.editedBody = op.body ?? '';
    this.sent.operations.push({ ...op, at: new Date().toISOString() });
    if (this.sent.operations.length > OUTBOX_LIMIT) this.sent.operations.shift();
  }
}

/**
 * The simulated WhatsApp "network": a phone per simulator connection and what each sent. A node
 * without ATENDE_SIMULATOR_URL holds one in its process; `atende simulate server` holds one for
 * every node, so the phones outlive any of them.
 */
export class PhoneNetwork implements SimulatorBackend {
  private readonly phones = new Map<number, SimulatedPhone>();

  /**
   * With `dir`, each connection's sent messages are appended to a file there and read back by the
   * next process: the simulated network outlives a crash, as WhatsApp does, and a send retried with
   * an id it already took is answered without a second message. `keepsInbound`: customers may
   * write while no device is linked, the messages waiting for the next one.
   */
  constructor(private readonly options: { dir?: string; keepsInbound: boolean }) {}

  link(connectionId: number, listener: PhoneListener): PhonePort {
    return this.phone(connectionId).portFor(listener);
  }

  scan(connectionId: number, number?: string): Promise<string> {
    return this.phone(connectionId).scan(number);
  }

  inbound(connectionId: number, inputs: InboundBody[]): Promise<{ messages: NormalizedMessage[]; delivered: boolean }> {
    return this.phone(connectionId).inbound(inputs);
  }

  async outbox(connectionId: number): Promise<Outbox> {
    return this.phone(connectionId).outbox;
  }

  async disconnect(connectionId: number): Promise<void> {
    this.phone(connectionId).disconnect();
  }

  async limit(connectionId: number, active: boolean, until?: string): Promise<void> {
    this.phone(connectionId).limit(active, until);
  }

  private phone(connectionId: number): SimulatedPhone {
    let phone = this.phones.get(connectionId);
    if (!phone) {
      phone = new SimulatedPhone(connectionId, this.readOutbox(connectionId), this.options.keepsInbound);
      this.phones.set(connectionId, phone);
    }
    return phone;
  }

  private readOutbox(connectionId: number): OutboxRecord {
    const outbox: OutboxRecord = { messages: [], operations: [], ids: new Set() };
    if (!this.options.dir) return outbox;
    mkdirSync(this.options.dir, { recursive: true });
    outbox.file = path.join(this.options.dir, `outbox-${connectionId}.jsonl`);
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
    return outbox;
  }
}
