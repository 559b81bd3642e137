import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PluginApp } from '../../core/plugin-sdk.js';
import { CampaignSettingsService } from '../../plugins/campaigns/settings/campaign-settings.service.js';
import { createMember, createTenant, type InboxTenant, type Member } from '../helpers/inbox.js';
import { withPlan } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket, quietFor, type TestSocket } from '../helpers/socket.js';

let server: TestServer;
let t: InboxTenant;
let other: InboxTenant;
let agent: Member;
let agentSocket: TestSocket;
let otherSocket: TestSocket;

const DEFAULTS = [
  { key: 'messageInterval', value: 20 },
  { key: 'longerIntervalAfter', value: 20 },
  { key: 'greaterInterval', value: 60 },
  { key: 'variables', value: [] },
  { key: 'optOutWords', value: [] },
  { key: 'dailyCap', value: 1000 },
];

function save(token: string, settings: unknown, on = server) {
  return on.call('POST', '/api/campaign-settings', { token, body: { settings } });
}

/** The plugin's typed read, as the dispatch will call it, on the server's database (it needs only db and log). */
function settingsRead(on: TestServer, companyId: number) {
  const { db, log } = on.atende.container;
  return new CampaignSettingsService({ db, log } as unknown as PluginApp).read(companyId);
}

beforeAll(async () => {
  server = await startTestServer();
  t = await createTenant(server, 'Config Campanha');
  other = await createTenant(server, 'Outra Config');
  agent = await createMember(server, t, 'agente');
  agentSocket = await openSocket(server.url, agent.token);
  otherSocket = await openSocket(server.url, other.admin.token);
});
afterAll(async () => {
  await agentSocket?.close();
  await otherSocket?.close();
  await server?.close();
});

describe('campaign settings', () => {
  it('a company that saved nothing reads the defaults', async () => {
    const res = await server.call('GET', '/api/campaign-settings', { token: agent.token });
    expect(res).toMatchObject({ status: 200, body: DEFAULTS });
  });

  it('an admin saves some keys, the others stay; every user of the company sees it live, no other company', async () => {
    const variables = [
      { key: 'loja', value: 'Loja Centro' },
      { key: 'cupom', value: 'BEMVINDO10' },
    ];
    const res = await save(t.admin.token, { messageInterval: 5, greaterInterval: 120, variables, optOutWords: [' remover ', 'sair', 'REMOVER', 'parem'], dailyCap: 250 });
    const expected = [
      { key: 'messageInterval', value: 5 },
      { key: 'longerIntervalAfter', value: 20 },
      { key: 'greaterInterval', value: 120 },
      { key: 'variables', value: variables },
      // Upper case, once, and without the defaults that are always on.
      { key: 'optOutWords', value: ['REMOVER', 'PAREM'] },
      { key: 'dailyCap', value: 250 },
    ];
    expect(res).toMatchObject({ status: 200, body: expected });
    const frame = await agentSocket.next((f) => f.channel === `company-${t.companyId}-campaignSettings`);
    expect(frame.data).toEqual({ action: 'update', settings: expected });
    expect((await server.call('GET', '/api/campaign-settings', { token: agent.token })).body).toEqual(expected);
    expect((await server.call('GET', '/api/campaign-settings', { token: other.admin.token })).body).toEqual(DEFAULTS);
    await quietFor();
    expect(otherSocket.frames.filter((f) => String(f.channel).includes('campaignSettings'))).toEqual([]);
  });

  it("takes the spec's array of key and value too", async () => {
    const res = await save(t.admin.token, [{ key: 'longerIntervalAfter', value: 40 }]);
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ key: 'longerIntervalAfter', value: 40 });
  });

  it('the typed read gives the dispatch every opt-out word, the defaults first', async () => {
    expect(await settingsRead(server, t.companyId)).toEqual({
      messageInterval: 5,
      longerIntervalAfter: 40,
      greaterInterval: 120,
      variables: [
        { key: 'loja', value: 'Loja Centro' },
        { key: 'cupom', value: 'BEMVINDO10' },
      ],
      optOutWords: ['SAIR', 'PARAR', 'STOP', 'CANCELAR', 'REMOVER', 'PAREM'],
      companyOptOutWords: ['REMOVER', 'PAREM'],
      dailyCap: 250,
    });
    expect((await settingsRead(server, other.companyId)).optOutWords).toEqual(['SAIR', 'PARAR', 'STOP', 'CANCELAR']);
  });

  it('validates each value with a clear message and stores nothing of a refused save', async () => {
    const before = (await server.call('GET', '/api/campaign-settings', { token: agent.token })).body;
    const cases: [unknown, string][] = [
      [{ messageInterval: 7 }, 'settings.messageInterval: Must be one of 0, 5, 10, 15, 20'],
      [{ longerIntervalAfter: 25 }, 'settings.longerIntervalAfter: Must be one of 0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120'],
      [{ greaterInterval: '60' }, 'settings.greaterInterval: Must be a number'],
      [{ messageInterval: 0, dailyCap: 0 }, 'settings.dailyCap: At least 1'],
      [{ dailyCap: 100_001 }, 'settings.dailyCap: At most 100000'],
      [{ dailyCap: 1.5 }, 'settings.dailyCap: Must be a whole number'],
      [{ variables: [{ key: 'nome', value: 'x' }] }, 'settings.variables.0.key: nome, numero and email are built in'],
      [{ variables: [{ key: 'com espaço', value: 'x' }] }, 'settings.variables.0.key: Letters, digits and _ only'],
      [{ variables: [{ key: 'a', value: 'x' }, { key: 'A', value: 'y' }] }, 'settings.variables: A variable appears twice'],
      [{ variables: [{ value: 'x' }] }, 'settings.variables.0.key: Required'],
      [{ optOutWords: ['duas palavras'] }, 'settings.optOutWords.0: One word, no spaces'],
      [{ unknown: 1 }, 'settings: Unknown setting: unknown'],
    ];
    for (const [settings, message] of cases) {
      const res = await save(t.admin.token, settings);
      expect(res.body, message).toMatchObject({ error: 'ERR_VALIDATION', message });
    }
    expect((await server.call('GET', '/api/campaign-settings', { token: agent.token })).body).toEqual(before);
  });

  it('only an admin saves (403 for a user)', async () => {
    const res = await save(agent.token, { messageInterval: 0 });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await server.call('GET', '/api/campaign-settings', { token: agent.token })).body).toContainEqual({ key: 'messageInterval', value: 5 });
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED when the plan has no campaigns, ERR_CAMPAIGNS_DISABLED when the company's setting is off", async () => {
    const bare = await withPlan(server, { features: { useCampaigns: false } });
    expect((await server.call('GET', '/api/campaign-settings', { token: bare.token })).body).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect((await save(bare.token, { messageInterval: 0 })).status).toBe(403);

    const off = await createTenant(server, 'Config Desligada');
    await server.atende.container.services.companies.update(off.companyId, { campaignsEnabled: false });
    expect(await server.call('GET', '/api/campaign-settings', { token: off.admin.token })).toMatchObject({ status: 403, body: { error: 'ERR_CAMPAIGNS_DISABLED' } });
    expect((await save(off.admin.token, { messageInterval: 0 })).status).toBe(403);
    expect((await settingsRead(server, off.companyId)).messageInterval).toBe(20);
  });
});
