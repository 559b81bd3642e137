import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { bin, cleanEnv, freePort, serving } from '../helpers/cli.js';
import { ECHO_PACKAGE, installEchoPackage, usePlugins } from '../helpers/npm-plugin.js';
import { BrowserPool, signIn, shot } from './browser.js';
import { describeE2E } from './setup.js';

const ADMIN = { email: 'admin@atende.local', password: 'admin-pass-1234' };
const JOURNEY_MS = 120_000;

let work: string;
let inst: string;
let server: ResultPromise | undefined;
let url: string;
const browsers = new BrowserPool();

function atende(args: string[]) {
  return execa('node', [bin, ...args], { cwd: inst, env: cleanEnv, extendEnv: false, reject: false, timeout: 240_000 });
}

/** A package of the plugin's own, hoisted beside it by npm, that fails when loaded: the build must take the app's copy instead. */
function ownCopy(name: string): void {
  const dir = path.join(inst, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '0.0.0', main: 'index.js' }));
  writeFileSync(path.join(dir, 'index.js'), `throw new Error('the plugin got its own ${name}');\n`);
}

describeE2E('a plugin installed from npm brings its page to the admin', () => {
  beforeAll(async () => {
    // As a user installs it: npm install beside atende.config.json, its name in `plugins`, then build-web and serve.
    work = mkdtempSync(path.join(tmpdir(), 'atende-plugin-web-'));
    inst = path.join(work, 'inst');
    mkdirSync(inst);
    await installEchoPackage(work, inst);
    ownCopy('react');
    ownCopy('antd');
    const init = await atende(['init', '--yes', '--admin-email', ADMIN.email, '--admin-password', ADMIN.password]);
    expect(init.exitCode, init.stderr).toBe(0);
    usePlugins(inst, [ECHO_PACKAGE], { echo: { greeting: 'olá' } });
    // One build for the whole file.
    const built = await atende(['build-web']);
    expect(built.exitCode, built.stderr).toBe(0);
    // The built-in plugins' pages (in folder order), then the installed one's.
    expect(built.stdout).toMatch(/with the pages of (?:[\w-]+, )*schedules, (?:[\w-]+, )*echo\b/);
    server = execa('node', [bin, 'serve', '--port', String(await freePort())], {
      cwd: inst,
      env: { ...cleanEnv, ATENDE_LOG_LEVEL: 'warn' },
      extendEnv: false,
      reject: false,
    });
    ({ url } = await serving(server));
  }, 300_000);
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(() => {
    server?.kill('SIGKILL');
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    'its menu entry shows its own label in each language, with its badge, and opens its page',
    async () => {
      const page = await browsers.page({ width: 1280, height: 800 });
      const chunks: string[] = [];
      page.on('request', (request) => chunks.push(new URL(request.url()).pathname));
      await signIn(page, url, ADMIN.email, ADMIN.password);

      const entry = page.getByTestId('main-menu').getByRole('menuitem', { name: /Eco do ping/ });
      await entry.waitFor();
      expect(await entry.getByTestId('echo-badge').innerText()).toBe('7');
      // Placed before Contacts, as its entry asks.
      const labels = await page.getByTestId('main-menu').getByRole('menuitem').allInnerTexts();
      expect(labels.findIndex((l) => l.startsWith('Eco do ping'))).toBe(labels.findIndex((l) => l.startsWith('Contatos')) - 1);
      // Its strings load per language: Spanish is not fetched for a Portuguese session. Read by
      // content, since a chunk's name says little (the bundler may call a shared antd chunk `es-…`).
      const fetched = await Promise.all(chunks.filter((p) => p.endsWith('.js')).map(async (p) => (await fetch(url + p)).text()));
      expect(fetched.some((code) => code.includes('Eco do ping'))).toBe(true);
      expect(fetched.some((code) => code.includes('Eco del ping'))).toBe(false);

      await entry.getByRole('link').click();
      await page.waitForURL(`${url}/echo`);
      await page.getByTestId('echo-title').waitFor();
      expect(await page.getByTestId('echo-title').innerText()).toMatch(/^Olá, .+!$/);
      // Read from the plugin's own route: the greeting of its pluginConfig.
      await page.getByTestId('echo-answer').waitFor();
      expect(await page.getByTestId('echo-answer').innerText()).toBe('A "ping" respondo "pong olá".');
      await shot(page, 'plugin-web-echo');

      for (const [language, label, hello] of [
        ['en', 'Ping echo', 'Hello'],
        ['es', 'Eco del ping', '¡Hola'],
      ] as const) {
        await page.evaluate((code) => localStorage.setItem('language', code), language);
        await page.reload();
        await page.getByTestId('main-menu').getByRole('menuitem', { name: new RegExp(label) }).getByTestId('echo-badge').waitFor();
        expect(await page.getByTestId('echo-title').innerText()).toMatch(new RegExp(`^${hello}, `));
      }
      await shot(page, 'plugin-web-echo-es');
    },
    JOURNEY_MS,
  );
});
