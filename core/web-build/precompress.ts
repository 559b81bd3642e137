import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** What is worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;
/** Below this, the headers outweigh what compression saves. */
const MIN_BYTES = 1024;

/** Every compressible file of the build written beside itself as `.br` and `.gz`, at the highest levels (done once, served many times). */
export async function precompressFolder(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name)).map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      if (data.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
        gzipped(data, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}

/** The Vite plugin: precompresses the build once it is written, so the server streams the smaller copy. */
export function precompress(outDir: string): Plugin {
  return { name: 'atende-precompress', apply: 'build', closeBundle: () => precompressFolder(outDir) };
}
