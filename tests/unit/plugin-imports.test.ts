import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Every module specifier a source file names: static imports and re-exports, side-effect imports, dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g]) {
    for (const match of text.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

/**
 * Why a plugin's import is not allowed, or undefined when it is: the SDKs (`atende/plugin`,
 * `atende/web`), external packages, and relative files that stay inside the plugin's own folder.
 */
function importProblem(specifier: string, file: string, pluginRoot: string): string | undefined {
  if (specifier === 'atende/plugin' || specifier === 'atende/web') return undefined;
  if (specifier === 'atende' || specifier.startsWith('atende/')) return 'only atende/plugin and atende/web are public';
  if (path.isAbsolute(specifier)) return 'an absolute path';
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(file), specifier);
  return target === pluginRoot || target.startsWith(pluginRoot + path.sep) ? undefined : 'outside the plugin, into the core or another plugin';
}

/** The plugins to check: each in-tree plugin folder, and the npm-package fixture (a plugin written as an outsider would). */
async function pluginRoots(): Promise<string[]> {
  const inTree = await readdir(path.join(root, 'plugins'), { withFileTypes: true });
  return [...inTree.filter((d) => d.isDirectory()).map((d) => path.join(root, 'plugins', d.name)), path.join(root, 'tests/fixtures/npm-plugin')];
}

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(m?[jt]sx?)$/.test(e.name) && !e.parentPath.split(path.sep).includes('node_modules'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('plugin imports', () => {
  it('a plugin imports only the SDKs, external packages and its own files', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const pluginRoot of await pluginRoots()) {
      for (const file of await sourceFiles(pluginRoot)) {
        checked += 1;
        for (const specifier of specifiers(await readFile(file, 'utf8'))) {
          const problem = importProblem(specifier, file, pluginRoot);
          if (problem) problems.push(`${path.relative(root, file)}: '${specifier}' (${problem})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('the check refuses the core, another plugin and atende internals, and allows the rest', () => {
    const pluginRoot = path.join(root, 'plugins/schedules');
    const file = path.join(pluginRoot, 'schedules.service.ts');
    expect(importProblem('../../core/errors.js', file, pluginRoot)).toBeDefined();
    expect(importProblem('../campaigns/index.js', file, pluginRoot)).toBeDefined();
    expect(importProblem('atende/dist/core/errors.js', file, pluginRoot)).toBeDefined();
    expect(importProblem('atende', file, pluginRoot)).toBeDefined();
    for (const allowed of ['atende/plugin', 'atende/web', 'knex', 'node:path', './schedule.model.js', './web/index.js']) {
      expect(importProblem(allowed, file, pluginRoot), allowed).toBeUndefined();
    }
  });
});
