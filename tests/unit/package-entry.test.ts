import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageEntryFrom } from '../../core/plugins/package-entry.js';

let inst: string;

function installed(name: string, manifest: Record<string, unknown>): string {
  const dir = path.join(inst, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, ...manifest }));
  return dir;
}

beforeAll(() => {
  inst = mkdtempSync(path.join(tmpdir(), 'atende-package-entry-'));
});
afterAll(() => rmSync(inst, { recursive: true, force: true }));

describe('an npm plugin found for the installation folder', () => {
  it("takes the ESM entry of the package's exports: the import condition before require", () => {
    const dir = installed('plugin-conditions', { exports: { '.': { types: './index.d.ts', require: './index.cjs', import: './esm/index.js' } } });
    expect(packageEntryFrom('plugin-conditions', inst)).toBe(pathToFileURL(path.join(dir, 'esm/index.js')).href);
  });

  it('takes main when there are no exports, and a scoped name', () => {
    const dir = installed('@acme/plugin-main', { main: 'lib/main.js' });
    expect(packageEntryFrom('@acme/plugin-main', inst)).toBe(pathToFileURL(path.join(dir, 'lib/main.js')).href);
  });

  it("looks in the parents' node_modules of a config folder below, and answers undefined when it is not installed", () => {
    const dir = installed('plugin-plain', { exports: './index.js' });
    const below = path.join(inst, 'sites/one');
    mkdirSync(below, { recursive: true });
    expect(packageEntryFrom('plugin-plain', below)).toBe(pathToFileURL(path.join(dir, 'index.js')).href);
    expect(packageEntryFrom('plugin-absent', below)).toBeUndefined();
  });
});
