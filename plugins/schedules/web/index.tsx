import type { PluginWeb } from '../../../web/src/pages/registry';

export const pages: PluginWeb['pages'] = [];
