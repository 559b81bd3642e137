import { readFileSync } from 'node:fs';

// Source (core/config) and build (dist/core/config) both sit two or three levels under the package root.
function findPackageJson(): { version: string } {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'atende') return pkg;
    } catch {
      // try the next level
    }
  }
  return { version: '0.0.0' };
}

export const packageVersion = findPackageJson().version;
