import { initAuthCreds, proto, type SignalDataSet } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TABLE, AuthStore } from '../../core/channels/baileys/auth-store.js';
import { LID_MAP_TABLE, LidMap, type LidPair } from '../../core/channels/baileys/lid-map.js';
import type { Database } from '../../core/db/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The Baileys auth state and LID map on the test database (SQLite, or PostgreSQL with ATENDE_TEST_DB=pg).
let server: TestServer;
let db: Database;

async function newConnection(name: string): Promise<number> {
  const company = (await db('companies').orderBy('id').first('id')) as { id: number };
  const now = new Date().toISOString();
  const [row] = (await db('whatsapps').insert({ companyId: company.id, name, createdAt: now, updatedAt: now }).returning('id')) as { id: number }[];
  return row!.id;
}

beforeAll(async () => {
  server = await startTestServer();
  db = server.atende.container.db;
});

afterAll(async () => {
  await server?.close();
});

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const keyPair = (seed: string) => ({ public: bytes(`${seed}-public`), private: bytes(`${seed}-private`) });

// One value of every key type Baileys 7 writes.
const everyKeyType: SignalDataSet = {
  'pre-key': { '1': keyPair('pre1'), '2': keyPair('pre2') },
  session: { '5511987654321.0': bytes('session-record') },
  'sender-key': { '120363025246125888@g.us::5511987654321::0': bytes('sender-key-record') },
  'sender-key-memory': { '120363025246125888@g.us': { '5511987654321:0@s.whatsapp.net': true } },
  'app-state-sync-key': {
    AAAAAQ: proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from('app-state-key'), timestamp: 1_700_000_000 }),
  },
  'app-state-sync-version': {
    regular_high: { version: 7, hash: Buffer.alloc(128, 1), indexValueMap: { 'bWFj': { valueMac: Buffer.from('value-mac') } } },
  },
  'lid-mapping': { '5511987654321': '99988877766655', '99988877766655_reverse': '5511987654321' },
  'device-list': { '5511987654321': ['0', '12'] },
  tctoken: { '99988877766655@lid': { token: Buffer.from('tc-token'), timestamp: '1700000000' } },
  'identity-key': { '5511987654321.0': bytes('identity') },
};

/** Uint8Arrays come back as Buffers: compare bytes, not classes. */
function asBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return value.map(asBuffers);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asBuffers(v)]));
  return value;
}

describe('Baileys auth state in the database', () => {
  it('keeps credentials across a restart (a new store over the same database)', async () => {
    const id = await newConnection('auth-creds');
    const before = new AuthStore(db, id);
    const creds = await before.loadCreds();
    expect(creds.registered).toBe(false); // fresh credentials: a new QR
    creds.me = { id: '5511987654321:7@s.whatsapp.net', lid: '99988877766655:7@lid', name: 'Loja' };
    creds.registered = true;
    await before.saveCreds(creds);
    creds.nextPreKeyId = 31;
    await before.saveCreds(creds); // every creds.update overwrites the one row

    const after = await new AuthStore(db, id).loadCreds();
    expect(asBuffers(after)).toEqual(asBuffers(creds));
    expect(after.me).toEqual(creds.me);
    expect(after.nextPreKeyId).toBe(31);
    expect(Buffer.isBuffer(after.noiseKey.private)).toBe(true);
    expect(after.noiseKey.private).toEqual(Buffer.from(creds.noiseKey.private));
    expect(after.signedPreKey.signature).toEqual(Buffer.from(creds.signedPreKey.signature));
    expect(Number((await db(AUTH_TABLE).where({ whatsappId: id }).count({ n: '*' }).first())!.n)).toBe(1);
  });

  it('keeps one row per key for every v7 key type, readable after a restart', async () => {
    const id = await newConnection('auth-keys');
    await new AuthStore(db, id).keys.set(everyKeyType);
    const rows = Number((await db(AUTH_TABLE).where({ whatsappId: id }).count({ n: '*' }).first())!.n);
    expect(rows).toBe(Object.values(everyKeyType).reduce((n, values) => n + Object.keys(values!).length, 0));

    const store = new AuthStore(db, id);
    for (const [type, values] of Object.entries(everyKeyType)) {
      const ids = [...Object.keys(values!), 'missing'];
      const read = await store.keys.get(type as keyof SignalDataSet, ids);
      expect(Object.keys(read).sort(), type).toEqual(Object.keys(values!).sort());
      if (type !== 'app-state-sync-key') expect(asBuffers(read), type).toEqual(asBuffers(values));
    }
  });

  it('revives app-state-sync-key values as their protobuf type', async () => {
    const id = await newConnection('auth-app-state');
    await new AuthStore(db, id).keys.set({ 'app-state-sync-key': everyKeyType['app-state-sync-key'] });
    const { AAAAAQ: key } = await new AuthStore(db, id).keys.get('app-state-sync-key', ['AAAAAQ']);
    expect(key).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(key!.keyData!)).toEqual(Buffer.from('app-state-key'));
    expect(Number(key!.timestamp)).toBe(1_700_000_000);
  });

  it('deletes keys set to null and upserts the rest in the same write', async () => {
    const id = await newConnection('auth-delete');
    const store = new AuthStore(db, id);
    await store.keys.set({ 'pre-key': { '1': keyPair('a'), '2': keyPair('b') } });
    await store.keys.set({ 'pre-key': { '1': null, '2': keyPair('b2'), '3': keyPair('c') } });
    const read = await new AuthStore(db, id).keys.get('pre-key', ['1', '2', '3']);
    expect(Object.keys(read).sort()).toEqual(['2', '3']);
    expect(read['2']!.private).toEqual(Buffer.from('b2-private'));
  });

  it('writes a set in one transaction: a failing value leaves nothing behind', async () => {
    const id = await newConnection('auth-atomic');
    const store = new AuthStore(db, id);
    const broken = { 'pre-key': { '9': keyPair('ok') }, session: { bad: { big: 1n } } } as unknown as SignalDataSet;
    await expect(store.keys.set(broken)).rejects.toThrow(/BigInt/);
    expect(await store.keys.get('pre-key', ['9'])).toEqual({});
  });

  it('keeps each connection to its own keys, and clear() forgets all of one connection', async () => {
    const a = await newConnection('auth-clear-a');
    const b = await newConnection('auth-clear-b');
    const storeA = new AuthStore(db, a);
    await storeA.saveCreds(initAuthCreds());
    await storeA.keys.set(everyKeyType);
    await new AuthStore(db, b).keys.set({ session: { s: bytes('b-session') } });
    expect(await new AuthStore(db, b).keys.get('pre-key', ['1'])).toEqual({});

    await storeA.clear();
    expect(Number((await db(AUTH_TABLE).where({ whatsappId: a }).count({ n: '*' }).first())!.n)).toBe(0);
    expect((await new AuthStore(db, a).loadCreds()).registered).toBe(false);
    expect(Object.keys(await new AuthStore(db, b).keys.get('session', ['s']))).toEqual(['s']);
  });

  it('goes with its connection when the connection is deleted', async () => {
    const id = await newConnection('auth-cascade');
    await new AuthStore(db, id).keys.set(everyKeyType);
    await new LidMap(db, id).remember([{ lid: '1', pn: '5511987654321' }]);
    await db('whatsapps').where({ id }).delete();
    expect(Number((await db(AUTH_TABLE).where({ whatsappId: id }).count({ n: '*' }).first())!.n)).toBe(0);
    expect(Number((await db(LID_MAP_TABLE).where({ whatsappId: id }).count({ n: '*' }).first())!.n)).toBe(0);
  });
});

describe('LID ↔ phone map', () => {
  it("learns pairs from Baileys' lid-mapping keys, and a new map reads them back", async () => {
    const id = await newConnection('lid-keys');
    const paired: LidPair[] = [];
    const map = new LidMap(db, id, (pair) => paired.push(pair));
    await map.load();
    await new AuthStore(db, id, map).keys.set({ 'lid-mapping': everyKeyType['lid-mapping'] });
    expect(map.pnFor('99988877766655')).toBe('5511987654321');
    expect(paired).toEqual([{ lid: '99988877766655', pn: '5511987654321' }]);

    const reloaded = new LidMap(db, id);
    await reloaded.load();
    expect(reloaded.pnFor('99988877766655')).toBe('5511987654321');
    expect(reloaded.lidFor('5511987654321')).toBe('99988877766655');
  });

  it('keeps a LID seen alone, pairs it later, and moves a number that changed LID', async () => {
    const id = await newConnection('lid-round-trip');
    const paired: LidPair[] = [];
    const map = new LidMap(db, id, (pair) => paired.push(pair));
    await map.load();
    await map.remember([{ lid: '111' }]);
    expect(map.hasLid('111')).toBe(true);
    expect(map.pnFor('111')).toBeUndefined();

    await map.remember([{ lid: '111', pn: '5511987654321' }, { lid: '111' }]);
    await map.remember([{ lid: '111', pn: '5511987654321' }]); // nothing new: no write, no event
    await map.remember([{ lid: '222', pn: '5511987654321' }]); // the number now has another LID
    expect(paired).toEqual([
      { lid: '111', pn: '5511987654321' },
      { lid: '222', pn: '5511987654321' },
    ]);

    const reloaded = new LidMap(db, id);
    await reloaded.load();
    expect(reloaded.lidFor('5511987654321')).toBe('222');
    expect(reloaded.pnFor('222')).toBe('5511987654321');
    expect(reloaded.hasLid('111')).toBe(false);
    const rows = await db(LID_MAP_TABLE).where({ whatsappId: id }).orderBy('lid').select('lid', 'pn');
    expect(rows).toEqual([{ lid: '222', pn: '5511987654321' }]);
  });

  it('stores the same pair written by two writers at once', async () => {
    const id = await newConnection('lid-concurrent');
    const first = new LidMap(db, id);
    const second = new LidMap(db, id);
    await Promise.all([first.load(), second.load()]);
    await Promise.all([first.remember([{ lid: '333', pn: '5521998765432' }]), second.remember([{ lid: '333', pn: '5521998765432' }])]);
    expect(await db(LID_MAP_TABLE).where({ whatsappId: id }).select('lid', 'pn')).toEqual([{ lid: '333', pn: '5521998765432' }]);
  });
});
