import { existsSync } from 'node:fs';
import type { Config } from '../config/config.schema.js';
import { ConfigError } from '../config/load-config.js';
import { loadPlugins } from '../plugins/plugin-loader.js';
import { pluginWebEntry, webViteConfig } from './vite-config.js';

type WebBuildConfig = Pick<Config, 'dir' | 'plugins' | 'pluginConfig' | 'pluginEnv' | 'webDir'>;

/** Every installed plugin's web entry, found the way the server finds plugins (built-ins, then the config's list). */
export async function installedPluginWebs(config: WebBuildConfig): Promise<{ name: string; entry: string }[]> {
  const plugins = await loadPlugins(config);
  return plugins.flatMap(({ definition, webDir }) => {
    if (!webDir) return [];
    const entry = pluginWebEntry(webDir);
    if (!existsSync(entry)) throw new ConfigError(`plugin ${definition.name}: web is "${definition.web}" but ${entry} does not exist`);
    return [{ name: definition.name, entry }];
  });
}

/** Builds the admin with every installed plugin's pages into config.webDir, which the server then serves. */
export async function buildWeb(config: WebBuildConfig): Promise<{ plugins: string[] }> {
  const webs = await installedPluginWebs(config);
  const { build } = await import('vite');
  const viteConfig = await webViteConfig({ pluginWebs: webs.map((w) => w.entry), outDir: config.webDir });
  await build({ ...viteConfig, configFile: false, logLevel: 'warn' });
  return { plugins: webs.map((w) => w.name) };
}
