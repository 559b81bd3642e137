#!/usr/bin/env node
// Launcher: the CLI is compiled to dist/ by `npm run build` (npm start builds it when missing).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/core/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('atende: not built yet; run `npm run build` in the atende folder first');
  process.exit(1);
}
await import(entry.href);
