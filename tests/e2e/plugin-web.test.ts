import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { buildWeb } from '../../core/web-build/build-web.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';
import { BrowserPool, loginThroughUi, shot } from './browser.js';
import { describeE2E } from './setup.js';

const GREETER = fileURLToPath(new URL('../fixtures/plugins/greeter', import.meta.url));
const JOURNEY_MS = 120_000;

let work: string;
let server: TestServer;
const browsers = new BrowserPool();

/** A package of its own in node_modules that fails when loaded: the build must take the app's copy instead. */
function ownCopy(folder: string, name: string): void {
  const dir = path.join(folder, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '0.0.0', main: 'index.js' }));
  writeFileSync(path.join(dir, 'index.js'), `throw new Error('the plugin got its own ${name}');\n`);
}

describeE2E('a plugin from outside the repository brings its page to the admin', () => {
  beforeAll(async () => {
    // Installed the way an npm package is: a folder of its own, with its own node_modules.
    work = mkdtempSync(path.join(tmpdir(), 'atende-plugin-web-'));
    const greeter = path.join(work, 'greeter');
    cpSync(GREETER, greeter, { recursive: true });
    ownCopy(greeter, 'react');
    ownCopy(greeter, 'antd');
    const webDir = path.join(work, 'web');
    // What `atende build-web` runs; one build for the whole file.
    const built = await buildWeb({ dir: work, plugins: [greeter], pluginConfig: {}, pluginEnv: {}, webDir });
    expect(built.plugins).toEqual(['schedules', 'greeter']);
    server = await startTestServer({ plugins: [greeter], webDir });
  }, 240_000);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    'its menu entry shows its own label in each language, with its badge, and opens its page',
    async () => {
      const page = await browsers.page({ width: 1280, height: 800 });
      const chunks: string[] = [];
      page.on('request', (request) => chunks.push(new URL(request.url()).pathname));
      await loginThroughUi(page, server.url, SUPER_EMAIL, SUPER_PASSWORD);

      const entry = page.getByTestId('main-menu').getByRole('menuitem', { name: /Saudações/ });
      await entry.waitFor();
      expect(await entry.getByTestId('greeter-badge').innerText()).toBe('7');
      // Placed before Contacts, as its entry asks.
      const labels = await page.getByTestId('main-menu').getByRole('menuitem').allInnerTexts();
      expect(labels.findIndex((l) => l.startsWith('Saudações'))).toBe(labels.findIndex((l) => l.startsWith('Contatos')) - 1);
      // Its strings load per language: Spanish is not fetched for a Portuguese session.
      expect(chunks.some((p) => /\/assets\/pt-BR-[\w-]+\.js$/.test(p))).toBe(true);
      expect(chunks.some((p) => /\/assets\/es-[\w-]+\.js$/.test(p))).toBe(false);

      await entry.getByRole('link').click();
      await page.waitForURL(`${server.url}/greeter`);
      await page.getByTestId('greeter-title').waitFor();
      expect(await page.getByTestId('greeter-title').innerText()).toMatch(/^Olá, .+!$/);
      await shot(page, 'plugin-web-greeter');

      for (const [language, label, hello] of [
        ['en', 'Greetings', 'Hello'],
        ['es', 'Saludos', '¡Hola'],
      ] as const) {
        await page.evaluate((code) => localStorage.setItem('language', code), language);
        await page.reload();
        await page.getByTestId('main-menu').getByRole('menuitem', { name: new RegExp(label) }).getByTestId('greeter-badge').waitFor();
        expect(await page.getByTestId('greeter-title').innerText()).toMatch(new RegExp(`^${hello}, `));
      }
      await shot(page, 'plugin-web-greeter-es');
    },
    JOURNEY_MS,
  );
});
