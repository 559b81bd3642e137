/** Every installed plugin's web entry, in the host's plugin order: made by the build (core/web-build/vite-config.ts). */
declare module 'virtual:atende/plugin-webs' {
  import type { PluginWeb } from './pages/registry';

  const webs: PluginWeb[];
  export default webs;
}
