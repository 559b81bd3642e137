import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { cleanEnv, root } from './cli.js';

/** tests/fixtures/npm-plugin: a plugin published as an npm package, as an outside author writes one. */
export const ECHO_PACKAGE = 'atende-plugin-echo';

/**
 * Packs the fixture into `work` and installs the tarball into the installation folder `inst` as a
 * user would: `npm install atende-plugin-echo` beside atende.config.json.
 */
export async function installEchoPackage(work: string, inst: string): Promise<void> {
  const npm = (args: string[], cwd: string) => execa('npm', args, { cwd, env: { ...cleanEnv, npm_config_update_notifier: 'false' } });
  const packed = await npm(['pack', '--json', '--pack-destination', work, path.join(root, 'tests/fixtures/npm-plugin')], work);
  const tarball = path.join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  writeFileSync(path.join(inst, 'package.json'), JSON.stringify({ name: 'an-installation', private: true }));
  // No network: the peer dependency on atende is the running core, not something to fetch.
  await npm(['install', '--no-save', '--offline', '--legacy-peer-deps', '--no-audit', '--no-fund', tarball], inst);
}

/** The installation's config as init wrote it, with `plugins` and `pluginConfig` set (or removed). */
export function usePlugins(inst: string, plugins: string[], pluginConfig?: Record<string, unknown>): void {
  const file = path.join(inst, 'atende.config.json');
  const { plugins: _plugins, pluginConfig: _pluginConfig, ...config } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...config, plugins, ...(pluginConfig && { pluginConfig }) }, null, 2));
}
