#!/usr/bin/env -S node --max-semi-space-size=64
// Launcher: the CLI is compiled to dist/ by `npm run build` (npm start builds it when missing).
// Run as a program (npm start, the installed `atende`, the image), it gives V8 a young generation of
// up to 64 MB a half instead of 16: a busy server's objects that live a few milliseconds (requests,
// rows, frames) then die young instead of being copied into the old generation, and inbound at
// saturation spent 10% of its time collecting garbage instead of 18% (docs/decisions.md).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/core/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('atende: not built yet; run `npm run build` in the atende folder first');
  process.exit(1);
}
await import(entry.href);
