import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page, type Request } from 'playwright-core';
import { startBenchInstance } from './bench-instance.js';
import type { Figures } from './figures.js';

/** DESIGN §10: the SPA's first load, as transferred. */
const BUDGET_KB = 400;
const CHROMIUM = process.env.ATENDE_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Bytes on the wire (headers and encoded bodies) of every response the page gets while `step` runs. */
async function transferred(page: Page, step: () => Promise<void>): Promise<{ kb: number; requests: number }> {
  const sizes: Promise<number>[] = [];
  const onFinished = (request: Request) => {
    sizes.push(request.sizes().then((size) => size.responseBodySize + size.responseHeadersSize, () => 0));
  };
  page.on('requestfinished', onFinished);
  await step();
  await page.waitForLoadState('networkidle');
  page.off('requestfinished', onFinished);
  const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  return { kb: Math.round(bytes / 102.4) / 10, requests: sizes.length };
}

/**
 * DESIGN §10 / issue 19: what a browser downloads on a first visit (empty cache), measured in chromium
 * against the built server: the login page, then signing in to the page it lands on.
 */
export async function spaSize(): Promise<Figures> {
  const instance = await startBenchInstance('spa');
  const profile = mkdtempSync(path.join(tmpdir(), 'atende-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const login = await transferred(page, async () => {
      await page.goto(`${instance.url}/login`);
      await page.getByRole('button', { name: 'Entrar' }).waitFor();
    });
    const signedIn = await transferred(page, async () => {
      await page.getByLabel('E-mail').fill(instance.tenant.email);
      await page.getByLabel('Senha').fill(instance.tenant.password);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL((url) => url.pathname !== '/login');
    });
    const all = Math.round((login.kb + signedIn.kb) * 10) / 10;
    return {
      'login page (first load), KB transferred': `${login.kb} KB in ${login.requests} requests   budget < ${BUDGET_KB} KB: ${login.kb < BUDGET_KB ? 'met' : 'MISSED'} · whaticket not measured (its build ships uncompressed)`,
      'then signing in to the first page, KB transferred': `${signedIn.kb} KB in ${signedIn.requests} requests (the route's own chunks and data)`,
      'first visit in all, KB transferred': `${all} KB`,
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await instance.stop();
  }
}
