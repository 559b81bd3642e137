import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type ExportTarget = string | null | { [condition: string]: ExportTarget } | ExportTarget[];

/** The conditions an ESM import by Node matches, in the order a package's exports are read. */
const CONDITIONS = ['import', 'node', 'default'];

function conditionalTarget(target: ExportTarget | undefined): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) return target.map(conditionalTarget).find((t) => t !== undefined);
  if (!target) return undefined;
  if ('.' in target) return conditionalTarget(target['.']);
  const condition = Object.keys(target).find((key) => CONDITIONS.includes(key));
  return condition === undefined ? undefined : conditionalTarget(target[condition]);
}

/**
 * The URL of an npm package's ESM entry, as installed for the folder `fromDir` (its node_modules
 * and those of its parents), or undefined when it is not installed there. Node 20 cannot resolve
 * an import for another folder than the caller's, so the package's own `exports` (or `main`) is read.
 */
export function packageEntryFrom(name: string, fromDir: string): string | undefined {
  const lookup = createRequire(path.join(fromDir, 'package.json')).resolve.paths(name) ?? [];
  const packageDir = lookup.map((dir) => path.join(dir, name)).find((dir) => existsSync(path.join(dir, 'package.json')));
  if (!packageDir) return undefined;
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { exports?: ExportTarget; main?: string };
  const entry = (manifest.exports !== undefined ? conditionalTarget(manifest.exports) : manifest.main) ?? 'index.js';
  return pathToFileURL(path.join(packageDir, entry)).href;
}
