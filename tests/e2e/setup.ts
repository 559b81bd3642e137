import { existsSync } from 'node:fs';
import { describe } from 'vitest';
import { CHROMIUM } from './browser.js';

/**
 * Browser tests need Debian's chromium and the built web app (npm test builds it first).
 * scripts/test.mjs runs this folder only when chromium exists, so a run without it is reported
 * as skipped there, never silently passed here.
 */
export const describeE2E = existsSync(CHROMIUM) && existsSync(`${process.env.ATENDE_WEB_ROOT ?? 'dist/web'}/index.html`) ? describe : describe.skip;
