import path from 'node:path';
import { defineConfig } from 'vite';
import { builtinPluginWebs, webViteConfig } from './core/web-build/vite-config.js';

const api = process.env.ATENDE_DEV_API ?? 'http://localhost:8080';

// `npm run build` and `npm run dev`: the app with the built-in plugins' pages. `atende build-web`
// builds the same app with every installed plugin's pages into the installation's data/web.
export default defineConfig(async () => ({
  ...(await webViteConfig({ pluginWebs: builtinPluginWebs(), outDir: path.resolve('dist/web') })),
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/ws': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
}));
