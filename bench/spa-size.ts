import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** DESIGN §10: JS the browser loads before a route's own chunk (entry + preloads), gzipped. */
export function spaSize(): Record<string, number> {
  const root = 'dist/web';
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(root, file))).length, 0);
  return { 'first-load JS files': scripts.length, 'first-load JS KB gzip': Math.round(gzipped / 102.4) / 10 };
}
