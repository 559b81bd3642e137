import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, cleanEnv, freePort, serving } from '../helpers/cli.js';

let work: string;
const running: ResultPromise[] = [];

function atende(args: string[], env: Record<string, string> = {}) {
  return execa('node', [bin, ...args], { cwd: path.join(work, 'inst'), env: { ...cleanEnv, ...env }, extendEnv: false, reject: false, timeout: 180_000 });
}

function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
}

/** The installation's config, with the secrets `init` would have written (migrate does not generate them). */
function useConfig(config: Record<string, unknown>): void {
  const secrets = { jwtSecret: 'a-test-secret-of-32-characters!!', jwtRefreshSecret: 'another-test-secret-of-32-chars!' };
  writeFileSync(path.join(work, 'inst/atende.config.json'), JSON.stringify({ ...secrets, ...config }));
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-cli-plugins-'));
  mkdirSync(path.join(work, 'inst'));
  // A plugin outside the repository, with a copy of atende of its own in its node_modules (as a dev
  // dependency would put there): the host must give it the running core's SDK all the same.
  writeFiles(path.join(work, 'echo'), {
    'index.js': `import { definePlugin, z, NotFoundError } from 'atende/plugin';
export default definePlugin({
  name: 'echo',
  config: z.object({ greeting: z.string().default('pong') }),
  publicRoutes(router, app) {
    router.get('/echo', (ctx) => { ctx.body = { greeting: app.config.greeting }; });
    router.get('/echo/missing', () => { throw new NotFoundError('ERR_ECHO_NOT_FOUND', 'No echo here'); });
  },
});
`,
    'node_modules/atende/package.json': JSON.stringify({ name: 'atende', type: 'module', exports: { './plugin': './plugin.js' } }),
    'node_modules/atende/plugin.js': `export function definePlugin() { throw new Error('the plugin got its own copy of atende/plugin'); }\n`,
  });
  writeFiles(path.join(work, 'gone'), {
    'index.js': `import { definePlugin } from 'atende/plugin';\nexport default definePlugin({ name: 'gone', migrations: 'migrations' });\n`,
    'migrations/20200102000000_gone_items.js': `export async function up(knex) { await knex.schema.createTable('gone_items', (t) => { t.increments('id'); }); }
export async function down(knex) { await knex.schema.dropTable('gone_items'); }
`,
  });
});

afterAll(() => {
  for (const sub of running) sub.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('atende with plugins', () => {
  it('serve and migrate stop with one line naming the plugin and the key of a bad config value', async () => {
    useConfig({ plugins: ['../echo'] });
    const line =
      'atende: plugin echo: config greeting: Invalid input: expected string, received number (atende.config.json pluginConfig.echo.greeting or ATENDE_PLUGIN_ECHO_GREETING)\n';
    for (const args of [['serve', '--port', String(await freePort())], ['migrate']]) {
      const result = await atende(args, { ATENDE_PLUGIN_ECHO_GREETING: '42' });
      expect(result.exitCode).toBe(1);
      expect(`${result.stderr}\n`).toBe(line);
    }
  });

  it('a removed plugin leaves migrate, migrate --status and serve working, saying whose migrations stay', async () => {
    useConfig({ plugins: ['../gone'] });
    expect((await atende(['migrate'])).stdout).toContain('migrated 20200102000000_gone_items');

    useConfig({ plugins: ['../echo'], pluginConfig: { echo: { greeting: 'hi' } } });
    const said = 'plugin gone is no longer installed: its applied migrations (20200102000000_gone_items) are kept and its tables left in place';
    const status = await atende(['migrate', '--status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(said);
    expect(status.stdout).toContain('done     20200102000000_gone_items');
    const migrate = await atende(['migrate']);
    expect(migrate.exitCode).toBe(0);
    expect(migrate.stdout).toContain(said);

    const sub = execa('node', [bin, 'serve', '--port', String(await freePort())], {
      cwd: path.join(work, 'inst'),
      env: { ...cleanEnv, ATENDE_PLUGIN_ECHO_GREETING: 'olá' },
      extendEnv: false,
      reject: false,
    });
    running.push(sub);
    const { url, output } = await serving(sub);
    expect(output).toContain(said);
    // The external plugin: its config from the file overridden by its variable, and its error
    // class the core's own (it answers with its code, not as an unexpected 500).
    expect(await (await fetch(`${url}/api/echo`)).json()).toEqual({ greeting: 'olá' });
    const missing = await fetch(`${url}/api/echo/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'ERR_ECHO_NOT_FOUND', message: 'No echo here' });
    sub.kill('SIGTERM');
    expect((await sub).exitCode).toBe(0);
  }, 120_000); // three commands and a server start: over 20 s on a loaded 2-core machine
});
