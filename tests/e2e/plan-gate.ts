import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { loginThroughUi } from './browser.js';
import { withPlan } from '../helpers/plans.js';
import type { TestServer } from '../helpers/server.js';

/**
 * The journey of a page behind a plan flag, for a company whose plan has it off: its admin sees no
 * menu entry, and the page's address shows the denial, then leaves it. One journey every gated page shares.
 */
export async function expectPlanHidesPage(server: TestServer, page: Page, flag: string, entry: { menu: string; path: string }): Promise<void> {
  const admin = await withPlan(server, { features: { [flag]: false } });
  await loginThroughUi(page, server.url, admin.email, admin.password);
  await page.getByRole('menuitem', { name: 'Contatos' }).waitFor();
  expect(await page.getByRole('menuitem', { name: entry.menu }).count()).toBe(0);
  await page.goto(`${server.url}${entry.path}`);
  await page.getByTestId('denied').waitFor();
  await page.waitForURL((url) => !url.pathname.startsWith(entry.path));
}
