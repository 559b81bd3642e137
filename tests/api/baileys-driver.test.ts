import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { proto, type BaileysEventMap, type WAMessage } from '@whiskeysockets/baileys';
import { pino } from 'pino';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TABLE, AuthStore } from '../../core/channels/baileys/auth-store.js';
import { BaileysDriver, DEFAULT_BAILEYS_OPTIONS, type BaileysDriverOptions } from '../../core/channels/baileys/baileys-driver.js';
import { LID_MAP_TABLE } from '../../core/channels/baileys/lid-map.js';
import { MessageStore } from '../../core/channels/baileys/message-store.js';
import { closeAction, reconnectDelay } from '../../core/channels/baileys/reconnect.js';
import type { DriverEvent } from '../../core/channels/driver.js';
import type { Database } from '../../core/db/database.js';
import { DiskMediaStorage } from '../../core/storage/media-storage.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The Baileys driver on a machine that cannot reach WhatsApp: it must keep trying, quietly, and
// stop cleanly. The rest of its life (QR, pairing, open, logout) is driven by events emitted on
// its real Baileys socket, connected to a local WebSocket server that never answers.
let server: TestServer;
let db: Database;
let companyId: number;
const mediaDir = mkdtempSync(path.join(tmpdir(), 'atende-baileys-media-'));

beforeAll(async () => {
  server = await startTestServer();
  db = server.atende.container.db;
  companyId = ((await db('companies').orderBy('id').first('id')) as { id: number }).id;
});

afterAll(async () => {
  await server?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

async function newConnection(name: string): Promise<number> {
  const now = new Date().toISOString();
  const [row] = (await db('whatsapps').insert({ companyId, name, createdAt: now, updatedAt: now }).returning('id')) as { id: number }[];
  return row!.id;
}

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A driver for a new connection, with its events and log lines collected. */
async function newDriver(name: string, options: Partial<BaileysDriverOptions>) {
  const connectionId = await newConnection(name);
  const lines: LogLine[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  const events: DriverEvent[] = [];
  // The driver itself (the provider's factory wraps it to import Baileys on first use): tests reach its socket.
  const context = { connectionId, companyId, media: new DiskMediaStorage(mediaDir), log, emit: async (e: DriverEvent) => void events.push(e) };
  const driver = new BaileysDriver(db, log, context, { ...DEFAULT_BAILEYS_OPTIONS, ...options });
  const statuses = () => events.filter((e) => e.type === 'status');
  return { connectionId, driver, events, statuses, lines };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on: connecting fails at once, like a network that is down. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const VERSION: [number, number, number] = [2, 3000, 1];
const retries = (lines: LogLine[]) => lines.filter((l) => l.msg === 'WhatsApp reconnect scheduled');
const infoOrAbove = (lines: LogLine[]) => lines.filter((l) => l.level >= 30);

describe('Baileys driver without network', () => {
  it('reaches OPENING, never CONNECTED, retries with growing delays, publishes each attempt and logs the status once', async () => {
    const port = await closedPort();
    const { driver, statuses, lines } = await newDriver('offline', {
      backoff: { baseMs: 20, maxMs: 10_000 },
      socket: { waWebSocketUrl: `ws://127.0.0.1:${port}/ws/chat`, version: VERSION },
    });
    await driver.start();
    await until(() => retries(lines).length >= 5, 'five reconnects');
    await driver.stop();

    // Every attempt republishes OPENING with its count, so the session manager sees a live retry loop.
    const published = statuses();
    expect(published.every((s) => s.status === 'OPENING' && s.qrcode === '')).toBe(true);
    expect(published.map((s) => s.retries)).toEqual(published.map((_, i) => i));
    const delays = retries(lines).map((l) => l.delayMs as number);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);
    expect(retries(lines).map((l) => l.attempt)).toEqual(delays.map((_, i) => i + 1));
    expect(infoOrAbove(lines).map((l) => [l.msg, l.status])).toEqual([['WhatsApp connection status', 'OPENING']]);

    const seen = lines.length;
    await sleep(400); // several base delays: a live retry timer would have fired by now
    expect(lines.length).toBe(seen);
  });

  it("reaches OPENING at WhatsApp's own address, and stays quiet", async () => {
    const { driver, statuses, lines } = await newDriver('offline-default', { backoff: { baseMs: 50, maxMs: 10_000 } });
    await driver.start();
    await until(() => retries(lines).length >= 2 || statuses().some((s) => s.status === 'qrcode'), 'a retry (or a QR, if online)', 20_000);
    await driver.stop();
    expect(statuses()[0]).toMatchObject({ status: 'OPENING' });
    expect(statuses().some((s) => s.status === 'CONNECTED')).toBe(false);
    expect(infoOrAbove(lines).filter((l) => l.level >= 40)).toEqual([]);
  });

  it('leaves nothing running after stop(): the process exits by itself', async () => {
    const port = await closedPort();
    const whatsappId = await newConnection('offline-exit');
    const child = {
      database: server.config.database,
      whatsappId,
      companyId,
      url: `ws://127.0.0.1:${port}/ws/chat`,
    };
    const script = `
      import { pino } from 'pino';
      import { closeDatabase, createDatabase } from './core/db/database.ts';
      import { createBaileysDriverFactory } from './core/channels/baileys/index.ts';
      const { database, whatsappId, companyId, url } = JSON.parse(process.env.BAILEYS_CHILD);
      const db = createDatabase(database);
      let retries = 0;
      const log = pino({ level: 'debug' }, { write: (line) => { if (line.includes('reconnect scheduled')) retries += 1; } });
      // A long wait: a retry timer left behind would hold the process for seconds.
      const options = { backoff: { baseMs: 5000, maxMs: 5000 }, socket: { waWebSocketUrl: url, version: [2, 3000, 1] } };
      const driver = createBaileysDriverFactory({ db, log, options })({ connectionId: whatsappId, companyId, media: {}, log, emit: async () => {} });
      await driver.start();
      while (retries < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      await driver.stop();
      await closeDatabase(db);
      console.log('stopped after ' + retries + ' retries');
    `;
    const started = Date.now();
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, BAILEYS_CHILD: JSON.stringify(child) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stoppedAt = 0;
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('stopped')) stoppedAt ||= Date.now();
    });
    proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const kill = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      proc.on('exit', (exitCode) => {
        clearTimeout(kill);
        resolve(exitCode);
      });
    });
    expect(output).toMatch(/stopped after \d+ retries/);
    expect(code).toBe(0);
    expect(Date.now() - stoppedAt, `exited ${Date.now() - started} ms after spawn`).toBeLessThan(1_500);
  });
});

describe('Baileys driver lifecycle', () => {
  let wss: WebSocketServer;
  let url: string;
  let connections = 0;

  beforeAll(async () => {
    // Accepts WhatsApp's handshake and never answers: the socket sits in "connecting".
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    wss.on('connection', () => (connections += 1));
    await new Promise((resolve) => wss.once('listening', resolve));
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/chat`;
  });

  afterAll(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  const options = () => ({
    backoff: { baseMs: 5_000, maxMs: 10_000 },
    maxQrCodes: 3,
    socket: { waWebSocketUrl: url, version: VERSION, connectTimeoutMs: 60_000, fireInitQueries: false },
  });

  function emit<T extends keyof BaileysEventMap>(driver: BaileysDriver, event: T, data: BaileysEventMap[T]): void {
    const socket = driver['socket'];
    if (!socket) throw new Error('the driver has no socket');
    socket.ev.emit(event, data);
  }

  const closed = (statusCode: number) => ({
    connection: 'close' as const,
    lastDisconnect: { error: Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } }), date: new Date() },
  });

  it('publishes each QR with its count, then gives up with TIMEOUT and stops asking', async () => {
    const { driver, statuses, lines } = await newDriver('qr-timeout', options());
    const before = connections;
    await driver.start();
    await until(() => connections === before + 1, 'the socket to connect');
    for (const qr of ['QR-1', 'QR-2', 'QR-3', 'QR-4']) emit(driver, 'connection.update', { qr });
    await until(() => statuses().some((s) => s.status === 'TIMEOUT'), 'TIMEOUT');

    expect(statuses().map((s) => [s.status, s.qrcode, s.retries])).toEqual([
      ['OPENING', '', 0],
      ['qrcode', 'QR-1', 1],
      ['qrcode', 'QR-2', 2],
      ['qrcode', 'QR-3', 3],
      ['TIMEOUT', '', 0],
    ]);
    expect(driver['socket']).toBeUndefined();
    expect(infoOrAbove(lines).map((l) => l.status)).toEqual(['OPENING', 'qrcode', 'TIMEOUT']);
    await sleep(100);
    expect(connections).toBe(before + 1);
    await driver.stop();
  });

  it('pairs, restarts at once on 515, connects, keeps its credentials, and forgets them when logged out', async () => {
    const { connectionId, driver, statuses, events } = await newDriver('pairing', options());
    const before = connections;
    await driver.start();
    await until(() => connections === before + 1, 'the socket to connect');
    emit(driver, 'connection.update', { qr: 'QR-1' });
    emit(driver, 'connection.update', { isNewLogin: true });
    emit(driver, 'connection.update', closed(515));
    await until(() => connections === before + 2, 'an immediate reconnect', 2_000); // well under the 5 s backoff

    const creds = driver['creds']!;
    creds.me = { id: '551187654321:3@s.whatsapp.net', lid: '99988877766655:3@lid', name: 'Loja' };
    emit(driver, 'creds.update', { me: creds.me });
    emit(driver, 'connection.update', { connection: 'open' });
    await until(() => statuses().some((s) => s.status === 'CONNECTED'), 'CONNECTED');
    expect(statuses().map((s) => s.status)).toEqual(['OPENING', 'qrcode', 'PAIRING', 'CONNECTED']);
    expect(statuses().at(-1)).toEqual({ type: 'status', status: 'CONNECTED', qrcode: '', retries: 0, number: '5511987654321' });
    expect((await new AuthStore(db, connectionId).loadCreds()).me).toEqual(creds.me);
    // Its own LID pair is learned on open.
    expect(events).toContainEqual({ type: 'contact', number: '5511987654321', lid: '99988877766655' });

    emit(driver, 'connection.update', closed(401));
    await until(() => statuses().at(-1)?.status === 'DISCONNECTED', 'DISCONNECTED');
    expect(Number((await db(AUTH_TABLE).where({ whatsappId: connectionId }).count({ n: '*' }).first())!.n)).toBe(0);
    await sleep(100);
    expect(connections).toBe(before + 2); // no reconnect after a logout
    await driver.stop();
  });

  it('turns socket events into message, ack, contact and call events, and keeps messages for retries', async () => {
    const { connectionId, driver, events, lines } = await newDriver('events', options());
    const before = connections;
    await driver.start();
    await until(() => connections === before + 1, 'the socket to connect');

    const text = proto.WebMessageInfo.fromObject({
      key: { remoteJid: '88877766655544@lid', fromMe: false, id: 'IN-1' },
      message: { conversation: 'Olá' },
      messageTimestamp: 1_767_225_600,
      pushName: 'Cliente',
    }) as WAMessage;
    Object.assign(text.key, { remoteJidAlt: '5521998765432@s.whatsapp.net' });
    const image = proto.WebMessageInfo.fromObject({
      key: { remoteJid: '5521998765432@s.whatsapp.net', fromMe: false, id: 'IN-2' },
      message: { imageMessage: { url: 'https://mmg.whatsapp.net/d/f/none.enc', directPath: '/v/none', mediaKey: Buffer.alloc(32, 1), mimetype: 'image/jpeg', caption: 'foto' } },
      messageTimestamp: 1_767_225_601,
    }) as WAMessage;
    const history = proto.WebMessageInfo.fromObject({ key: { remoteJid: '5521998765432@s.whatsapp.net', id: 'OLD-1' }, message: { conversation: 'antiga' } }) as WAMessage;
    emit(driver, 'messages.upsert', { type: 'notify', messages: [text, image] });
    emit(driver, 'messages.upsert', { type: 'append', messages: [history] });
    emit(driver, 'messages.update', [{ key: { remoteJid: '5521998765432@s.whatsapp.net', id: 'OUT-1', fromMe: true }, update: { status: 4 } }]);
    emit(driver, 'lid-mapping.update', { lid: '77766655544433@lid', pn: '5531987654321@s.whatsapp.net' });
    emit(driver, 'call', [{ chatId: '5521998765432@s.whatsapp.net', from: '5521998765432@s.whatsapp.net', id: 'C1', date: new Date('2026-01-01T10:00:00Z'), status: 'offer', offline: false }]);
    // Baileys stores the mapping it is told of too, in its own key transaction: the pair is
    // announced once that commits, which may come after the call.
    await until(() => events.some((e) => e.type === 'call') && events.filter((e) => e.type === 'contact').length >= 2, 'the call and contact events');

    const messages = events.filter((e) => e.type === 'message').map((e) => e.message);
    expect(messages.map((m) => [m.id, m.chatId, m.from])).toEqual([
      ['IN-1', '5521998765432', { number: '5521998765432', lid: '88877766655544', name: 'Cliente' }],
      ['IN-2', '5521998765432', { number: '5521998765432', name: '' }],
    ]);
    // The image could not be downloaded here: the message still arrives, without media.
    expect(messages[1]).toMatchObject({ mediaType: 'image', body: 'foto' });
    expect(messages[1]!.media).toBeUndefined();
    expect(lines.some((l) => l.step === 'media download')).toBe(true);
    expect(events).toContainEqual({ type: 'ack', id: 'OUT-1', ack: 3 });
    expect(events).toContainEqual({ type: 'contact', number: '5521998765432', lid: '88877766655544' });
    expect(events).toContainEqual({ type: 'contact', number: '5531987654321', lid: '77766655544433' });
    expect(events).toContainEqual({ type: 'call', from: { number: '5521998765432', name: '' }, timestamp: '2026-01-01T10:00:00.000Z' });
    expect(await db(LID_MAP_TABLE).where({ whatsappId: connectionId }).orderBy('lid').select('lid', 'pn')).toEqual([
      { lid: '77766655544433', pn: '5531987654321' },
      { lid: '88877766655544', pn: '5521998765432' },
    ]);

    // Baileys asks getMessage for what it must send again.
    const store = driver['messages'];
    expect(await store.getMessage({ id: 'IN-1' })).toEqual({ conversation: 'Olá' });
    expect(await store.getMessage({ id: 'OLD-1' })).toEqual({ conversation: 'antiga' }); // kept (a reply may quote it), though not news
    await driver.stop();
  });

  it('refuses commands while not connected, and answers no picture', async () => {
    const { driver } = await newDriver('commands', options());
    await expect(driver.sendText('5511987654321', 'oi')).rejects.toThrow(/not open/);
    await expect(driver.checkNumber('5511987654321')).rejects.toThrow(/not open/);
    expect(await driver.profilePicture('5511987654321')).toBeNull();
  });
});

describe('message store', () => {
  it('finds stored messages by id and prunes by age and by count', async () => {
    const connectionId = await newConnection('message-store');
    const store = new MessageStore(db, connectionId, { days: 7, rows: 3 });
    for (const id of ['M1', 'M2', 'M3', 'M4', 'M5']) {
      await store.save(proto.WebMessageInfo.fromObject({ key: { remoteJid: '5511987654321@s.whatsapp.net', id, fromMe: true }, message: { conversation: id } }) as WAMessage);
    }
    await store.save(proto.WebMessageInfo.fromObject({ key: { id: 'M5' }, message: { conversation: 'replay' } }) as WAMessage);
    expect((await store.find('M5'))?.key).toEqual({ remoteJid: '5511987654321@s.whatsapp.net', id: 'M5', fromMe: true });
    expect(await store.getMessage({ id: 'M5' })).toEqual({ conversation: 'M5' });

    await db('baileysMessages').where({ whatsappId: connectionId, messageId: 'M5' }).update({ createdAt: new Date(Date.now() - 8 * 86_400_000).toISOString() });
    await store.prune();
    const kept = await db('baileysMessages').where({ whatsappId: connectionId }).orderBy('id').select('messageId');
    expect(kept).toEqual([{ messageId: 'M2' }, { messageId: 'M3' }, { messageId: 'M4' }]);
  });
});

describe('reconnect policy', () => {
  it('doubles the wait up to the cap, with at most 20 % taken off', () => {
    const backoff = { baseMs: 2_000, maxMs: 300_000 };
    expect([1, 2, 3, 4].map((n) => reconnectDelay(n, backoff, () => 0))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(reconnectDelay(20, backoff, () => 0)).toBe(300_000);
    expect(reconnectDelay(1, backoff, () => 1)).toBe(1_600);
  });

  it('never reconnects after a logout and restarts at once when WhatsApp asks', () => {
    const error = (statusCode: number) => Object.assign(new Error('closed'), { output: { statusCode } });
    expect(closeAction(error(401))).toBe('logged-out');
    expect(closeAction(error(515))).toBe('restart');
    expect([408, 428, 440, 500, 503].map((code) => closeAction(error(code)))).toEqual(['retry', 'retry', 'retry', 'retry', 'retry']);
    expect(closeAction(new Error('socket hang up'))).toBe('retry');
  });
});
