import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.ATENDE_DEV_API ?? 'http://localhost:8080';

export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/ws': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
});
