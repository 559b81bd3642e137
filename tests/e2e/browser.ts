import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = process.env.ATENDE_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * A fresh chromium profile (its own storage and cookies): one per simulated person. `args` adds
 * chromium flags (e.g. a fake microphone); `timezoneId` puts the browser's clock in another zone;
 * `colorScheme` is the system's theme (light unless said); `reducedMotion` whether the system asks
 * for less motion (yes unless said: dialogs and menus then appear without animating, so a click
 * never lands on one still moving).
 */
export async function openBrowser(
  options: {
    width?: number;
    height?: number;
    args?: string[];
    timezoneId?: string;
    colorScheme?: 'light' | 'dark';
    reducedMotion?: 'reduce' | 'no-preference';
  } = {},
): Promise<Browser> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'reduce',
    args: [...ARGS, ...(options.args ?? [])],
    timezoneId: options.timezoneId,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // What the page threw and left uncaught (an exception, a rejected promise): a bug of the app.
  const errors: string[] = [];
  page.on('pageerror', (err) => {
    errors.push(err.message);
    console.error('[browser error]', err.message);
  });
  return {
    context,
    page,
    /** Closes the browser; fails when its page threw something it left uncaught. */
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`the page threw and left it uncaught: ${errors.join(' · ')}`);
    },
  };
}

/** Saves a screenshot under test-results/screenshots/<name>.png for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Logs in through the login page and waits for the shell. */
export async function loginThroughUi(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/e-?mail|correo/i).fill(email);
  await page.getByLabel(/senha|password|contraseña/i).fill(password);
  await page.getByRole('button', { name: /entrar|log in/i }).click();
  await page.getByTestId('greeting').waitFor();
}

/**
 * Signs in without the login page, for tests of what comes after it: the API's login in the
 * browser's own cookie jar (it keeps the refresh cookie), then `path` opens with that session, as
 * the app opens after a login. The login page's own tests use loginThroughUi: the page costs the
 * browser seconds of CPU that every other test would spend again.
 */
export async function signIn(page: Page, baseUrl: string, email: string, password: string, path = '/'): Promise<void> {
  const res = await page.context().request.post(`${baseUrl}/api/auth/login`, { data: { email, password } });
  if (!res.ok()) throw new Error(`login of ${email}: ${res.status()} ${await res.text()}`);
  await page.goto(`${baseUrl}${path}`);
  await page.getByTestId('greeting').waitFor();
}

type OpenOptions = Parameters<typeof openBrowser>[0];

/** The browsers a test file opens (one per simulated person), closed together after each test. */
export class BrowserPool {
  private readonly opened: Browser[] = [];

  async open(options?: OpenOptions): Promise<Browser> {
    const browser = await openBrowser(options);
    this.opened.push(browser);
    return browser;
  }

  /** A fresh browser's page, whose steps wait up to 15 s. */
  async page(options?: OpenOptions): Promise<Page> {
    const { page } = await this.open(options);
    page.setDefaultTimeout(15_000);
    return page;
  }

  /** Closes every one, then fails the test if one of them failed (its page threw something it left uncaught). */
  async closeAll(): Promise<void> {
    const closed = await Promise.allSettled(this.opened.splice(0).map((browser) => browser.close()));
    const failed = closed.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** Waits for the finite animations (a modal opening, a toast) to end: screenshots show the result. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/**
 * Answers the confirmation titled `title` with its `button` and waits for it to close. The click
 * waits for the dialog's opening animation to end; one still lost to it (the dialog open, its button
 * not busy) is made again.
 */
export async function confirmDialog(page: Page, title: string, button = 'Excluir'): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  const answer = dialog.getByRole('button', { name: button });
  await answer.waitFor();
  await settled(page);
  await answer.click();
  const closed = await dialog
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  if (closed) return;
  const busy = await answer.evaluate((b) => b.classList.contains('ant-btn-loading'), undefined, { timeout: 1_000 }).catch(() => true);
  if (!busy) await answer.click({ timeout: 1_000 }).catch(() => undefined);
  await dialog.waitFor({ state: 'hidden' });
}

/** A screenshot with the pointer out of the way and the animations ended. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await settled(page);
  await screenshot(page, name);
}

/** An option of an open antd list: by its title, or by its whole text when its label is not plain text (a logo beside it). */
function optionOf(open: Locator, label: string): Locator {
  const whole = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  return open.locator(`.ant-select-item-option[title="${label}"]`).or(open.locator('.ant-select-item-option').filter({ hasText: whole }));
}

/**
 * Picks the options titled `labels` of an antd select (one for a single select) and waits until
 * the select shows each. A list still closing from the last choice holds options too: the pick
 * waits until none is open. In a multiple select each option is clicked until it shows selected,
 * so a click lost to the list's opening animation is made again rather than taken for a choice.
 */
export async function chooseOptions(page: Page, select: Locator, labels: string[]): Promise<void> {
  const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await expect.poll(() => open.count()).toBe(0);
  await select.click();
  const field = select.locator('xpath=ancestor-or-self::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');
  const multiple = ((await field.getAttribute('class')) ?? '').includes('ant-select-multiple');
  for (const label of labels) {
    const option = optionOf(open, label);
    if (!multiple) {
      await option.click();
      try {
        await expect.poll(() => field.textContent(), { timeout: 2000 }).toContain(label);
      } catch {
        // A click lost to the list's opening animation: the list is opened again if it closed, and the option clicked again.
        if ((await open.count()) === 0) await select.click();
        await option.click();
      }
      continue;
    }
    const selected = async () => ((await option.getAttribute('class')) ?? '').includes('ant-select-item-option-selected');
    await option.click();
    try {
      await expect.poll(selected, { timeout: 2000 }).toBe(true);
    } catch {
      await option.click();
      await expect.poll(selected).toBe(true);
    }
  }
  for (const label of labels) await expect.poll(() => field.textContent()).toContain(label);
}

export function chooseOption(page: Page, select: Locator, label: string): Promise<void> {
  return chooseOptions(page, select, [label]);
}

/** Types a date (and time) into a date picker, confirms it with Enter and waits for its popup to close and the field to keep the text. */
export async function typeDate(page: Page, picker: Locator, text: string): Promise<void> {
  await picker.click();
  await picker.fill(text);
  await picker.press('Enter');
  await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').waitFor({ state: 'hidden' });
  await expect.poll(() => picker.inputValue()).toBe(text);
}
