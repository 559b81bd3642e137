import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.ATENDE_DEV_API ?? 'http://localhost:8080';

export default defineConfig({
  root: 'web',
  plugins: [react()],
  resolve: {
    // The module plugin pages import (web/src/sdk.ts), by a name that does not depend on where the plugin lives.
    alias: { 'atende/web': fileURLToPath(new URL('./web/src/sdk.ts', import.meta.url)) },
  },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // The SDK only re-exports: a plugin's menu entry importing a gate from it must not load every
      // shared component into the first page load.
      treeshake: { moduleSideEffects: (id: string) => !id.endsWith('/web/src/sdk.ts') },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/ws': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
});
