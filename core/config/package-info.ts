import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Source (core/config) and build (dist/core/config) both sit two or three levels under the package root.
function findPackage(): { version: string; root: string } {
  for (const up of ['../../', '../../../']) {
    const root = new URL(up, import.meta.url);
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'atende') return { version: pkg.version, root: fileURLToPath(root) };
    } catch {
      // try the next level
    }
  }
  return { version: '0.0.0', root: fileURLToPath(new URL('../../', import.meta.url)) };
}

const found = findPackage();
export const packageVersion = found.version;
/** The package's folder: its web/ and plugins/ sources, its node_modules. */
export const packageRoot = path.resolve(found.root);
