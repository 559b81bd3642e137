import type { PluginApp } from 'atende/plugin';
import { CompanyApiTokens } from './api-tokens.service.js';

const built = new WeakMap<PluginApp, CompanyApiTokens>();

/** The plugin's service, built once per server. */
export function apiTokensOf(app: PluginApp): CompanyApiTokens {
  let tokens = built.get(app);
  if (!tokens) {
    tokens = new CompanyApiTokens(app);
    built.set(app, tokens);
  }
  return tokens;
}
