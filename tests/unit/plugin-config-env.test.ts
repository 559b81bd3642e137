import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolvePluginConfig } from '../../core/plugins/plugin-config.js';
import { pluginProblems, type PluginDefinition } from '../../core/plugins/define-plugin.js';

const definition = {
  name: 'billing',
  config: z.object({ provider: z.enum(['manual', 'asaas']).optional(), asaasKey: z.string().default('') }),
  configEnv: { provider: 'ATENDE_BILLING_PROVIDER', asaasKey: 'ATENDE_ASAAS_KEY' },
} as unknown as PluginDefinition;

describe('a plugin’s configEnv names', () => {
  it('read a key from its ATENDE_ alias over the file; ATENDE_PLUGIN_<NAME>_<KEY> wins over the alias', () => {
    const pluginConfig = { billing: { provider: 'manual', asaasKey: 'from-file' } };
    expect(resolvePluginConfig(definition, { pluginConfig, pluginEnv: { ATENDE_BILLING_PROVIDER: 'asaas', ATENDE_ASAAS_KEY: 'alias' } })).toEqual({ provider: 'asaas', asaasKey: 'alias' });
    expect(resolvePluginConfig(definition, { pluginConfig, pluginEnv: { ATENDE_ASAAS_KEY: 'alias', ATENDE_PLUGIN_BILLING_ASAAS_KEY: 'long' } })).toEqual({ provider: 'manual', asaasKey: 'long' });
  });

  it('name the alias in the error of a bad value', () => {
    expect(() => resolvePluginConfig(definition, { pluginConfig: {}, pluginEnv: { ATENDE_BILLING_PROVIDER: 'stripe' } })).toThrow(
      /pluginConfig\.billing\.provider or ATENDE_PLUGIN_BILLING_PROVIDER or ATENDE_BILLING_PROVIDER\)/,
    );
  });

  it('must be ATENDE_ names', () => {
    expect(pluginProblems({ name: 'x', configEnv: { key: 'HOME' } })).toEqual(['configEnv must map config keys to ATENDE_ variable names']);
  });
});
