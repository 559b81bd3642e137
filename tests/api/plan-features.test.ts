import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigrationSource } from '../../core/db/migrator.js';
import { PLAN_FLAGS } from '../../core/contract/views.js';
import { PlanCatalogue } from '../../core/modules/plans/plan-catalogue.js';
import { definePlugin } from '../../core/plugins/define-plugin.js';
import { pluginMigrationDirs } from '../../core/plugins/plugin-loader.js';
import { METERED_DEFAULT, METERED_LIMIT } from '../fixtures/plugins/metered/index.js';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';

const METERED = fileURLToPath(new URL('../fixtures/plugins/metered', import.meta.url));
const MIGRATION = '20261126000100_core_plan_features';
const PASSWORD = 'tenant-pass';
const COUNTS = { users: 10, connections: 1, queues: 1, value: 0 };

let server: TestServer;
let superToken: string;
let tenants = 0;

beforeAll(async () => {
  server = await startTestServer({ plugins: [METERED] });
  superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
});
afterAll(async () => {
  await server?.close();
});

async function createPlan(body: Record<string, unknown>) {
  const res = await server.call('POST', '/api/plans', { token: superToken, body: { ...COUNTS, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

/** A company on `planId` and its admin signed in. */
async function tenant(planId: number) {
  tenants += 1;
  const email = `admin@features-${tenants}.test`;
  const res = await server.call('POST', '/api/companies', {
    token: superToken,
    body: { name: `Features ${tenants}`, email, planId, password: PASSWORD },
  });
  expect(res.status).toBe(201);
  return { companyId: res.body.company.id as number, token: (await server.login(email, PASSWORD)).token };
}

describe('the migration to feature rows', () => {
  it("keeps every plan's flags: down puts the columns back, up turns them into rows again", async () => {
    const { db } = server.atende.container;
    const plan = await createPlan({ name: 'Migrada', useKanban: false, useOpenAi: false });
    const before = (await server.call('GET', `/api/plans/${plan.id}`, { token: superToken })).body;
    const dirs = await pluginMigrationDirs(server.config);
    const config = { migrationSource: createMigrationSource(dirs), tableName: 'knex_migrations', name: MIGRATION };

    await db.migrate.down(config);
    const columns = await db('plans').where('id', plan.id).first();
    expect(Boolean(columns.useKanban)).toBe(false);
    expect(Boolean(columns.useOpenAi)).toBe(false);
    expect(Boolean(columns.useCampaigns)).toBe(true);
    // A plan written while the columns exist, as before the migration.
    const [{ id: oldId }] = await db('plans')
      .insert({ name: 'Antiga', ...COUNTS, useSchedules: false, createdAt: before.createdAt, updatedAt: before.updatedAt })
      .returning('id');

    await db.migrate.up(config);
    expect(Object.keys(await db('plans').columnInfo())).not.toContain('useKanban');
    const after = (await server.call('GET', `/api/plans/${plan.id}`, { token: superToken })).body;
    // Only the spec's flags have columns to go back to: a plugin's flag is off (no row) after a round trip.
    expect(after).toEqual({ ...before, features: { ...before.features, useMetered: false } });
    const old = (await server.call('GET', `/api/plans/${oldId}`, { token: superToken })).body;
    expect(old).toMatchObject({ useSchedules: false, useKanban: true, useCampaigns: true });
    expect(await db('planFeatures').where('planId', oldId).pluck('key')).toEqual(expect.arrayContaining([...PLAN_FLAGS]));
  });

  it('listPlan still answers the spec’s shape: the seven flags as booleans beside the counts', async () => {
    const plan = await createPlan({ name: 'Formato', useInternalChat: false });
    const t = await tenant(plan.id);
    const res = await server.call('GET', `/api/companies/listPlan/${t.companyId}`, { token: t.token });
    expect(res.status).toBe(200);
    const flags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, flag !== 'useInternalChat']));
    expect(res.body).toMatchObject({ id: plan.id, name: 'Formato', ...COUNTS, ...flags });
  });
});

describe('the catalogue of features and limits', () => {
  it('GET /api/plans/features lists the spec’s flags and the plugins’ flags and limits with their labels', async () => {
    const res = await server.call('GET', '/api/plans/features', { token: superToken });
    expect(res.status).toBe(200);
    expect(res.body.features.map((f: { key: string }) => f.key)).toEqual([...PLAN_FLAGS, 'useMetered']);
    expect(res.body.features).toContainEqual({
      key: 'useKanban',
      label: { 'pt-BR': 'Kanban', en: 'Kanban', es: 'Kanban' },
      plugin: null,
    });
    expect(res.body.features).toContainEqual({
      key: 'useMetered',
      label: { 'pt-BR': 'Medidor', en: 'Meter', es: 'Medidor' },
      plugin: 'metered',
    });
    // A missing language falls back to pt-BR.
    expect(res.body.limits).toEqual([
      { key: METERED_LIMIT, label: { 'pt-BR': 'Pings por mês', en: 'Pings per month', es: 'Pings por mês' }, default: METERED_DEFAULT, plugin: 'metered' },
    ]);
  });

  it('is for super users only', async () => {
    const t = await tenant((await createPlan({ name: 'Catálogo' })).id);
    const res = await server.call('GET', '/api/plans/features', { token: t.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await server.call('GET', '/api/plans/features')).status).toBe(401);
  });

  it('refuses a limit declared twice or named like a flag, and a malformed declaration', () => {
    const catalogue = new PlanCatalogue();
    catalogue.declare('one', { key: 'useOne' }, { perMonth: { label: { 'pt-BR': 'Por mês' }, default: 1 } });
    expect(() => catalogue.declare('two', undefined, { perMonth: { label: { 'pt-BR': 'x' }, default: 2 } })).toThrow(
      'plugin two: the plan limit "perMonth" is already a plan field, flag or limit',
    );
    expect(() => catalogue.declare('three', undefined, { useKanban: { label: { 'pt-BR': 'x' }, default: 2 } })).toThrow(/plugin three/);
    expect(() => catalogue.declare('four', { key: 'users' })).toThrow(/plugin four: the plan flag "users"/);
    // A shared flag keeps its first label.
    catalogue.declare('five', { key: 'useOne', label: { 'pt-BR': 'Outro' } });
    expect(catalogue.view().features.find((f) => f.key === 'useOne')!.plugin).toBe('one');
    expect(() => definePlugin({ name: 'bad', flag: 'Use Bad', limits: { perDay: { label: { 'pt-BR': 'x' }, default: -1 } } })).toThrow(
      'Plugin bad: flag must be a camelCase name (useEcho); limit perDay needs a default that is a whole number, 0 or more',
    );
  });
});

describe("a plugin's flag and limit on a plan", () => {
  it('are answered on every plan, set on create and update, and unknown keys are dropped', async () => {
    const created = await createPlan({
      name: 'Com Medidor',
      features: { useMetered: false, useNothing: true },
      limits: { [METERED_LIMIT]: 10, nothingPerDay: 4 },
    });
    expect(created.features).toMatchObject({ useMetered: false, useKanban: true });
    expect(created.limits).toEqual({ [METERED_LIMIT]: 10 });
    const { db } = server.atende.container;
    expect(await db('planFeatures').where('planId', created.id).whereIn('key', ['useNothing', 'nothingPerDay'])).toEqual([]);

    const updated = await server.call('PUT', `/api/plans/${created.id}`, {
      token: superToken,
      body: { features: { useMetered: true, useKanban: false }, limits: { [METERED_LIMIT]: null } },
    });
    expect(updated.status).toBe(200);
    // A spec flag set through `features` is the same flag as the top-level boolean.
    expect(updated.body).toMatchObject({ useKanban: false, features: { useMetered: true, useKanban: false }, limits: { [METERED_LIMIT]: METERED_DEFAULT } });
    const list = (await server.call('GET', '/api/plans/list')).body;
    expect(list.find((p: { id: number }) => p.id === created.id)).toEqual(updated.body);
  });

  it('a plan created without them has every flag on and the declared default', async () => {
    const plan = await createPlan({ name: 'Padrões' });
    expect(plan.features.useMetered).toBe(true);
    expect(plan.limits).toEqual({ [METERED_LIMIT]: METERED_DEFAULT });
  });

  it('limits are whole numbers, 0 or more', async () => {
    const res = await server.call('POST', '/api/plans', {
      token: superToken,
      body: { name: 'Inválida', ...COUNTS, limits: { [METERED_LIMIT]: -1 } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it("gates the plugin's routes by its own flag (403 ERR_PLAN_FEATURE_DISABLED when off)", async () => {
    const off = await tenant((await createPlan({ name: 'Sem Medidor', features: { useMetered: false } })).id);
    const res = await server.call('GET', '/api/metered/quota', { token: off.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    const on = await tenant((await createPlan({ name: 'Medidor Ligado' })).id);
    expect((await server.call('GET', '/api/metered/quota', { token: on.token })).status).toBe(200);
  });

  it('plans.limit answers the plan’s value, else the default; one past it is 403 ERR_PLAN_LIMIT naming the limit', async () => {
    const plan = await createPlan({ name: 'Dois Pings', limits: { [METERED_LIMIT]: 2 } });
    const t = await tenant(plan.id);
    expect((await server.call('GET', '/api/metered/quota', { token: t.token })).body).toEqual({ limit: 2 });
    expect((await server.call('POST', '/api/metered/pings', { token: t.token, body: { used: 1 } })).status).toBe(201);
    const over = await server.call('POST', '/api/metered/pings', { token: t.token, body: { used: 2 } });
    expect(over.status).toBe(403);
    expect(over.body).toEqual({
      error: 'ERR_PLAN_LIMIT',
      message: `The company's plan allows at most 2 ${METERED_LIMIT}`,
      details: { limit: METERED_LIMIT, max: 2 },
    });

    await server.call('PUT', `/api/plans/${plan.id}`, { token: superToken, body: { limits: { [METERED_LIMIT]: null } } });
    expect((await server.call('GET', '/api/metered/quota', { token: t.token })).body).toEqual({ limit: METERED_DEFAULT });
    await expect(server.atende.container.services.plans.limit(t.companyId, 'undeclared')).rejects.toThrow(/undeclared/);
  });
});

describe('the flag cache', () => {
  it('answers from memory until the plan changes (plan.updated), then reads again', async () => {
    const { db, services } = server.atende.container;
    const plan = await createPlan({ name: 'Em Cache' });
    const t = await tenant(plan.id);
    expect(await services.plans.isEnabled(t.companyId, 'useMetered')).toBe(true);
    // A write behind the service's back is not seen: the answer comes from the cache.
    await db('planFeatures').where({ planId: plan.id, key: 'useMetered' }).update({ enabled: false });
    expect(await services.plans.isEnabled(t.companyId, 'useMetered')).toBe(true);
    expect((await server.call('GET', '/api/metered/quota', { token: t.token })).status).toBe(200);

    const res = await server.call('PUT', `/api/plans/${plan.id}`, { token: superToken, body: { value: 1 } });
    expect(res.status).toBe(200);
    expect(await services.plans.isEnabled(t.companyId, 'useMetered')).toBe(false);
    expect((await server.call('GET', '/api/metered/quota', { token: t.token })).status).toBe(403);
  });

  it("is dropped when the company's plan changes (company.updated)", async () => {
    const { db, services } = server.atende.container;
    const on = await createPlan({ name: 'Cache Ligado' });
    const off = await createPlan({ name: 'Cache Desligado', features: { useMetered: false }, limits: { [METERED_LIMIT]: 7 } });
    const t = await tenant(on.id);
    expect(await services.plans.isEnabled(t.companyId, 'useMetered')).toBe(true);
    expect(await services.plans.limit(t.companyId, METERED_LIMIT)).toBe(METERED_DEFAULT);
    // Behind the service's back: still cached.
    await db('companies').where('id', t.companyId).update({ planId: off.id });
    expect(await services.plans.isEnabled(t.companyId, 'useMetered')).toBe(true);
    await db('companies').where('id', t.companyId).update({ planId: on.id });

    const res = await server.call('PUT', `/api/companies/${t.companyId}`, { token: superToken, body: { planId: off.id } });
    expect(res.status).toBe(200);
    expect(await services.plans.isEnabled(t.companyId, 'useMetered')).toBe(false);
    expect(await services.plans.limit(t.companyId, METERED_LIMIT)).toBe(7);
    expect((await server.call('GET', '/api/metered/quota', { token: t.token })).status).toBe(403);
  });
});
