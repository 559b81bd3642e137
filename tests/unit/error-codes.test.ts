import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../core/contract/error-codes.js';
import { errorTexts } from '../../web/src/i18n/error-texts.js';
import { LANGUAGES } from '../../web/src/i18n/languages.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The server's sources: the core and the plugins' server side (their web pages are the app's). */
async function serverSources(): Promise<{ file: string; text: string }[]> {
  const files: string[] = [];
  for (const dir of ['core', 'plugins']) {
    const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      const file = path.relative(root, path.join(entry.parentPath, entry.name));
      if (entry.isFile() && file.endsWith('.ts') && !/^plugins\/[^/]+\/web\//.test(file)) files.push(file);
    }
  }
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(path.join(root, file), 'utf8') })));
}

describe('error code catalogue', () => {
  it('every code has a text in pt-BR, en and es', () => {
    for (const { code: language } of LANGUAGES) {
      for (const code of errorCodes) expect(errorTexts[language][code]?.trim(), `${language} ${code}`).toBeTruthy();
      expect(Object.keys(errorTexts[language]).sort(), language).toEqual([...errorCodes].sort());
    }
  });

  it('the server throws only codes of the catalogue, through its constants', async () => {
    const catalogue = new Set<string>(errorCodes);
    const used = new Set<string>();
    for (const { file, text } of await serverSources()) {
      if (file === path.join('core', 'contract', 'error-codes.ts')) continue;
      expect(text.match(/['"`]ERR_[A-Z_]*/g) ?? [], `${file} spells a code instead of using ErrorCode`).toEqual([]);
      for (const [, code] of text.matchAll(/ErrorCode\.(ERR_[A-Z_]+)/g)) used.add(code!);
    }
    expect([...used].filter((code) => !catalogue.has(code))).toEqual([]);
    expect(used.size).toBeGreaterThan(50);
  });
});
