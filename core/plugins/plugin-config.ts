import { ConfigError } from '../config/load-config.js';
import type { PluginDefinition } from './define-plugin.js';

/** Where a plugin's settings come from: `pluginConfig` of atende.config.json and the ATENDE_PLUGIN_* variables. */
export interface PluginConfigSources {
  pluginConfig: Record<string, Record<string, unknown>>;
  pluginEnv: Record<string, string>;
}

/** `my-plugin` → `MY_PLUGIN`, `apiKey` → `API_KEY`: the upper snake case of a variable name. */
function upperSnake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toUpperCase();
}

export function pluginEnvName(plugin: string, key: string): string {
  return `ATENDE_PLUGIN_${upperSnake(plugin)}_${upperSnake(key)}`;
}

/** Variables carry text: a value that parses as JSON (numbers, booleans, objects) is taken as such. */
function envValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * A plugin's parsed config: its file section, each key overridden by its variable, validated by
 * its schema. A bad value stops start-up with one line naming the plugin, the key and its sources.
 */
export function resolvePluginConfig(definition: PluginDefinition, sources: PluginConfigSources): Record<string, unknown> {
  const { name, config: schema } = definition;
  const fromFile = sources.pluginConfig[name] ?? {};
  if (!schema) return fromFile;
  const value: Record<string, unknown> = { ...fromFile };
  for (const key of Object.keys(schema.shape)) {
    const alias = definition.configEnv?.[key];
    const raw = sources.pluginEnv[pluginEnvName(name, key)] ?? (alias ? sources.pluginEnv[alias] : undefined);
    if (raw !== undefined) value[key] = envValue(raw);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0]!;
  const key = issue.path.map(String).join('.');
  const top = String(issue.path[0] ?? '');
  const alias = definition.configEnv?.[top];
  const where = top ? ` (atende.config.json pluginConfig.${name}.${top} or ${pluginEnvName(name, top)}${alias ? ` or ${alias}` : ''})` : '';
  throw new ConfigError(`plugin ${name}: config ${key || 'value'}: ${issue.message}${where}`);
}
