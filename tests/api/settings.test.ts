import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Events, type DomainEvent } from '../../core/events/event-bus.js';
import { Setting } from '../../core/modules/settings/setting.model.js';
import { SETTING_KEYS, SETTINGS } from '../../core/modules/settings/settings.schema.js';
import { openSocket, type TestSocket } from '../helpers/socket.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

let server: TestServer;
let superToken: string;
/** Two tenants, each with its admin; tenant A also has a plain user. */
let a: { companyId: number; admin: string; user: string };
let b: { companyId: number; admin: string };

const defaults = SETTING_KEYS.map((key) => ({ key, value: SETTINGS[key].default }));

/* eslint-disable @typescript-eslint/no-explicit-any -- frame data is read as the test expects it */
/** The data of the first frame on `channel` (heard already or coming) whose data passes `match`. */
async function heard(socket: TestSocket, channel: string, match: (data: any) => boolean): Promise<any> {
  return (await socket.next((frame) => frame.channel === channel && match(frame.data))).data;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

async function createTenant(name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}@tenant.test`;
  const planId = (await server.call('GET', '/api/plans/list')).body[0].id;
  const res = await server.call('POST', '/api/companies', {
    token: superToken,
    body: { name, email, planId, password: 'tenant-pass' },
  });
  expect(res.status).toBe(201);
  return { companyId: res.body.company.id as number, admin: (await server.login(email, 'tenant-pass')).token };
}

async function settingsOf(token: string): Promise<{ key: string; value: string }[]> {
  const res = await server.call('GET', '/api/settings', { token });
  expect(res.status).toBe(200);
  return res.body;
}

async function valueOf(token: string, key: string): Promise<string | undefined> {
  return (await settingsOf(token)).find((s) => s.key === key)?.value;
}

beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
  const tenantA = await createTenant('Empresa A');
  await server.atende.container.services.users.create(tenantA.companyId, {
    name: 'Atendente A',
    email: 'atendente-a@tenant.test',
    password: 'atendente-pass',
    profile: 'user',
  });
  a = { ...tenantA, user: (await server.login('atendente-a@tenant.test', 'atendente-pass')).token };
  b = await createTenant('Empresa B');
});
afterAll(async () => {
  await server?.close();
});

describe('default settings', () => {
  it('every new company gets one row per setting key with its default', async () => {
    const rows = await Setting.query(server.atende.container.db).where('companyId', b.companyId);
    expect(rows.map((r) => ({ key: r.key, value: r.value })).sort((x, y) => x.key.localeCompare(y.key))).toEqual(
      [...defaults].sort((x, y) => x.key.localeCompare(y.key)),
    );
  });

  it('the defaults are the spec’s', () => {
    expect(Object.fromEntries(defaults.map((s) => [s.key, s.value]))).toEqual({
      userRating: 'disabled',
      scheduleType: 'disabled',
      call: 'enabled',
      CheckMsgIsGroup: 'enabled',
      sendGreetingAccepted: 'disabled',
      sendMsgTransfTicket: 'disabled',
      sendGreetingMessageOneQueues: 'disabled',
      chatBotType: 'text',
      userCreation: 'enabled',
      campaignsEnabled: 'true',
      sideMenu: 'open',
      timezone: 'America/Sao_Paulo',
    });
  });

  it('the platform company has its defaults too', async () => {
    expect(await settingsOf(superToken)).toEqual(defaults);
  });

  it('a key missing from the table reads as its default', async () => {
    await Setting.query(server.atende.container.db).delete().where({ companyId: b.companyId, key: 'sideMenu' });
    expect(await valueOf(b.admin, 'sideMenu')).toBe('open');
    const put = await server.call('PUT', '/api/settings/sideMenu', { token: b.admin, body: { value: 'closed' } });
    expect(put.status).toBe(200);
    expect(await valueOf(b.admin, 'sideMenu')).toBe('closed');
  });
});

describe('reading settings', () => {
  it('any user of the company reads its settings as a key/value list', async () => {
    expect(await settingsOf(a.user)).toEqual(defaults);
  });

  it('reading settings needs a token', async () => {
    expect((await server.call('GET', '/api/settings')).status).toBe(401);
  });
});

describe('changing a setting', () => {
  it('an admin changes a setting of the own company only', async () => {
    const res = await server.call('PUT', '/api/settings/userRating', { token: a.admin, body: { value: 'enabled' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'userRating', value: 'enabled' });
    expect(await valueOf(a.user, 'userRating')).toBe('enabled');
    expect(await valueOf(b.admin, 'userRating')).toBe('disabled');
  });

  it('the change is published to the company’s sockets only, and emitted as setting.updated', async () => {
    const events: DomainEvent[] = [];
    const off = server.atende.container.bus.on(Events.settingUpdated, (e) => void events.push(e));
    const mine = await openSocket(server.url, a.user);
    const other = await openSocket(server.url, b.admin);
    try {
      await server.call('PUT', '/api/settings/scheduleType', { token: a.admin, body: { value: 'queue' } });
      const data = await heard(mine, `company-${a.companyId}-settings`, (d) => d.setting.key === 'scheduleType');
      expect(data).toEqual({ action: 'update', setting: { key: 'scheduleType', value: 'queue' } });
      expect(other.frames.filter((f) => String(f.channel).endsWith('-settings'))).toEqual([]);
      expect(events).toEqual([
        { name: Events.settingUpdated, companyId: a.companyId, payload: { key: 'scheduleType', value: 'queue' } },
      ]);
    } finally {
      off();
      await mine.close();
      await other.close();
    }
  });

  it('a user who is not an admin gets 403 ERR_NO_PERMISSION and nothing changes', async () => {
    const res = await server.call('PUT', '/api/settings/call', { token: a.user, body: { value: 'disabled' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect(await valueOf(a.admin, 'call')).toBe('enabled');
  });

  it('an unknown key answers 404 ERR_NO_SETTING_FOUND', async () => {
    const res = await server.call('PUT', '/api/settings/nope', { token: a.admin, body: { value: 'enabled' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_SETTING_FOUND');
    expect((await settingsOf(a.admin)).some((s) => s.key === 'nope')).toBe(false);
  });

  it('a value the key does not allow is 400 ERR_VALIDATION and the setting keeps its value', async () => {
    const cases: [string, unknown][] = [
      ['userCreation', 'maybe'],
      ['scheduleType', 'enabled'],
      ['chatBotType', 'button'],
      ['sideMenu', true],
      ['timezone', 'Mars/Olympus_Mons'],
      ['call', 42],
    ];
    for (const [key, value] of cases) {
      const before = await valueOf(a.admin, key);
      const res = await server.call('PUT', `/api/settings/${key}`, { token: a.admin, body: { value } });
      expect(res.status, key).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.message).toMatch(/^value:/);
      expect(await valueOf(a.admin, key)).toBe(before);
    }
    const missing = await server.call('PUT', '/api/settings/call', { token: a.admin, body: {} });
    expect(missing.status).toBe(400);
  });

  it('the timezone accepts an IANA zone, stored in its canonical spelling', async () => {
    const res = await server.call('PUT', '/api/settings/timezone', { token: a.admin, body: { value: 'europe/lisbon' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'timezone', value: 'Europe/Lisbon' });
    expect(await valueOf(a.user, 'timezone')).toBe('Europe/Lisbon');
  });

  it('campaignsEnabled takes a switch’s boolean and shows on the company', async () => {
    const res = await server.call('PUT', '/api/settings/campaignsEnabled', { token: a.admin, body: { value: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'campaignsEnabled', value: 'false' });
    const company = await server.call('GET', `/api/companies/${a.companyId}`, { token: superToken });
    expect(company.body.campaignsEnabled).toBe(false);
  });

  it('changing a setting needs a token', async () => {
    expect((await server.call('PUT', '/api/settings/call', { body: { value: 'disabled' } })).status).toBe(401);
  });
});
