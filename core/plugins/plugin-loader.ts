import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Config } from '../config/config.schema.js';
import { packageRoot } from '../config/package-info.js';
import { ConfigError } from '../config/load-config.js';
import { pluginProblems, type PluginDefinition } from './define-plugin.js';
import { packageEntryFrom } from './package-entry.js';
import { resolvePluginConfig, type PluginConfigSources } from './plugin-config.js';
import { resolvePluginSdkToCore } from './sdk-resolution.js';

/** The product's own plugins: `plugins/` in the source tree, `dist/plugins/` when built. */
export const builtinPluginsDir = fileURLToPath(new URL('../../plugins', import.meta.url));

/** Vite builds the built-in plugins' web folders from the sources (tsc leaves them out of dist/plugins). */
const builtinPluginSourcesDir = path.join(packageRoot, 'plugins');

/** Built output first: under tsx a folder holds index.ts, once built index.js (beside index.d.ts). */
const ENTRY_FILES = ['index.js', 'index.ts'];

export interface LoadedPlugin {
  definition: PluginDefinition;
  /** Where it came from, for messages: its folder or its package name. */
  source: string;
  /** Absolute migrations folder, when the plugin has one. */
  migrationsDir?: string;
  /** Its config, parsed by its schema (app.config). */
  config: Record<string, unknown>;
  /** Absolute web folder (pages, menu entries), when the plugin has one: what `atende build-web` builds. */
  webDir?: string;
}

interface PluginEntry {
  source: string;
  url: string;
  /** The folder its `web` is relative to: the entry file's own, but a built-in's sources when it runs from dist/. */
  webBase: string;
}

function isFolder(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

function folderEntry(folder: string, webBase = folder): PluginEntry {
  const entry = ENTRY_FILES.map((f) => path.join(folder, f)).find((f) => existsSync(f));
  if (!entry) throw new ConfigError(`plugin folder ${folder} has no ${ENTRY_FILES.join(' or ')}`);
  return { source: folder, url: pathToFileURL(entry).href, webBase };
}

/**
 * A config entry: a folder (absolute or relative to the config folder), else an npm package name,
 * installed for the config folder (the installation's node_modules) or else beside the core.
 */
function configEntry(item: string, dir: string): PluginEntry {
  const folder = path.resolve(dir, item);
  if (isFolder(folder)) return folderEntry(folder);
  if (path.isAbsolute(item) || item.startsWith('.')) throw new ConfigError(`plugins: no such folder ${folder}`);
  try {
    const url = packageEntryFrom(item, dir) ?? import.meta.resolve(item);
    return { source: item, url, webBase: path.dirname(fileURLToPath(url)) };
  } catch {
    throw new ConfigError(`plugins: "${item}" is neither a folder nor an installed npm package`);
  }
}

async function importPlugin({ source, url, webBase }: PluginEntry, sources: PluginConfigSources): Promise<LoadedPlugin> {
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (err) {
    throw new Error(`plugin ${source} failed to load: ${(err as Error).message}`, { cause: err });
  }
  const problems = pluginProblems(module.default);
  if (problems.length > 0) throw new ConfigError(`plugin ${source}: ${problems.join('; ')}`);
  const definition = module.default as PluginDefinition;
  const loaded: LoadedPlugin = { definition, source, config: resolvePluginConfig(definition, sources) };
  if (definition.migrations !== undefined) {
    const migrationsDir = path.resolve(path.dirname(fileURLToPath(url)), definition.migrations);
    if (!isFolder(migrationsDir)) throw new ConfigError(`plugin ${definition.name}: no migrations folder ${migrationsDir}`);
    loaded.migrationsDir = migrationsDir;
  }
  // Checked by the web build only: the server never reads it.
  if (definition.web !== undefined) loaded.webDir = path.resolve(webBase, definition.web);
  return loaded;
}

type PluginsConfig = Pick<Config, 'dir' | 'plugins' | 'pluginConfig' | 'pluginEnv'>;

/**
 * Every installed plugin, in the order the host runs them: the built-in folders sorted by name,
 * then the config's `plugins` in their order, each with its config validated. Two plugins of one
 * name stop start-up.
 */
export async function loadPlugins(config: PluginsConfig): Promise<LoadedPlugin[]> {
  resolvePluginSdkToCore();
  const builtins = isFolder(builtinPluginsDir)
    ? readdirSync(builtinPluginsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const entries = [
    ...builtins.map((name) => folderEntry(path.join(builtinPluginsDir, name), path.join(builtinPluginSourcesDir, name))),
    ...config.plugins.map((item) => configEntry(item, config.dir)),
  ];
  const plugins: LoadedPlugin[] = [];
  for (const entry of entries) {
    const plugin = await importPlugin(entry, config);
    const twin = plugins.find((p) => p.definition.name === plugin.definition.name);
    if (twin) {
      throw new ConfigError(`Two plugins are named "${plugin.definition.name}": ${twin.source} and ${plugin.source}`);
    }
    plugins.push(plugin);
  }
  return plugins;
}

/** The plugins' migrations folders in run order (after the core's): what `atende migrate` hands the Migrator. */
export async function pluginMigrationDirs(config: PluginsConfig): Promise<string[]> {
  return (await loadPlugins(config)).flatMap((p) => (p.migrationsDir ? [p.migrationsDir] : []));
}
