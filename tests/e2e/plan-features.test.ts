import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { METERED_LIMIT } from '../fixtures/plugins/metered/index.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';
import { BrowserPool, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';

const METERED = fileURLToPath(new URL('../fixtures/plugins/metered', import.meta.url));
const JOURNEY_MS = 120_000;

let server: TestServer;
const browsers = new BrowserPool();

describeE2E('plans tab with a plugin’s flag and limit', () => {
  beforeAll(async () => {
    server = await startTestServer({ plugins: [METERED] });
  });
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'the super user sees the plugin’s flag and limit with their labels and saves them on a plan',
    async () => {
      const page = await browsers.page({ width: 1280, height: 900 });
      await signIn(page, server.url, SUPER_EMAIL, SUPER_PASSWORD, '/settings');
      await page.getByRole('tab', { name: 'Planos', exact: true }).click();
      const form = page.getByTestId('plan-form');
      await form.getByRole('switch', { name: 'Medidor' }).waitFor();
      expect(await form.getByLabel('Pings por mês').inputValue()).toBe('3');

      await form.getByLabel('Nome').fill('Plano Medido');
      await form.getByRole('switch', { name: 'Medidor' }).click();
      await form.getByLabel('Pings por mês').fill('12');
      await form.getByRole('button', { name: 'Salvar' }).click();
      const row = page.getByTestId('plans-table').locator('tr', { hasText: 'Plano Medido' });
      await row.waitFor();
      expect(await row.textContent()).not.toContain('Medidor');

      // The browser's own token: a second login would end its session.
      const token = (await page.evaluate("localStorage.getItem('token')")) as string;
      const plan = (await server.call('GET', '/api/plans/all', { token })).body.find((p: { name: string }) => p.name === 'Plano Medido');
      expect(plan.features).toMatchObject({ useMetered: false, useKanban: true });
      expect(plan.limits).toEqual({ [METERED_LIMIT]: 12 });

      await row.click();
      expect(await form.getByLabel('Pings por mês').inputValue()).toBe('12');
      expect(await form.getByRole('switch', { name: 'Medidor' }).getAttribute('aria-checked')).toBe('false');
      await shot(page, 'settings-plans-plugin-features');
    },
    JOURNEY_MS,
  );
});
