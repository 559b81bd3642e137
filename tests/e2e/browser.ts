import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
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

type OpenOptions = {
  width?: number;
  height?: number;
  args?: string[];
  timezoneId?: string;
  colorScheme?: 'light' | 'dark';
  reducedMotion?: 'reduce' | 'no-preference';
};

/** A chromium launched on a fresh profile folder, and what a later test must know to use it again. */
interface Launched {
  context: BrowserContext;
  dir: string;
  /** What is fixed at launch (flags, time zone): a kept browser serves only a test that asks the same. */
  key: string;
  /** The origins its pages reached: their storage is cleared before another test uses it. */
  origins: Set<string>;
  /** A script was added to every page it opens (addInitScript): no other test may inherit it. */
  scripted: boolean;
  /** The blank page a kept browser waits with. */
  spare?: Page;
}

function launchKey(options: OpenOptions = {}): string {
  return JSON.stringify([options.args ?? [], options.timezoneId ?? null]);
}

/** A fresh chromium profile (its own storage and cookies) in a new folder. */
async function launch(options: OpenOptions = {}): Promise<Launched> {
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
  const launched: Launched = { context, dir, key: launchKey(options), origins: new Set(), scripted: false };
  context.on('request', (request) => {
    const { origin } = new URL(request.url());
    if (origin.startsWith('http')) launched.origins.add(origin);
  });
  const addInitScript = context.addInitScript.bind(context);
  context.addInitScript = ((...args: Parameters<typeof addInitScript>) => {
    launched.scripted = true;
    return addInitScript(...args);
  }) as typeof context.addInitScript;
  return launched;
}

async function quit(launched: Launched): Promise<void> {
  await launched.context.close();
  rmSync(launched.dir, { recursive: true, force: true });
}

/**
 * Makes a used browser as new for the next test: a blank page in place of its pages, and no
 * cookies, permissions or storage of the origins it reached. What stays is the HTTP cache (the
 * app's scripts, compiled once) and the running process. Answers false when it cannot be made so.
 */
async function wipe(launched: Launched): Promise<boolean> {
  if (launched.scripted) return false;
  const { context } = launched;
  const spare = await context.newPage();
  await Promise.all(context.pages().filter((page) => page !== spare).map((page) => page.close()));
  await context.clearCookies();
  await context.clearPermissions();
  const cdp = await context.newCDPSession(spare);
  for (const origin of launched.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  await cdp.detach();
  launched.origins.clear();
  launched.spare = spare;
  return true;
}

/**
 * A browser's page for a test (`spare`: a kept browser's blank page), sized and themed as asked,
 * and its close: `keep` answers whether the browser was kept for another test rather than closed.
 */
async function browserOn(launched: Launched, options: OpenOptions = {}, keep?: (launched: Launched) => Promise<boolean>): Promise<Browser> {
  const { context } = launched;
  let page = launched.spare;
  launched.spare = undefined;
  if (page) {
    await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 800 });
    await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light', reducedMotion: options.reducedMotion ?? 'reduce' });
  } else {
    page = context.pages()[0] ?? (await context.newPage());
  }
  // What the page threw and left uncaught (an exception, a rejected promise): a bug of the app.
  const errors: string[] = [];
  page.on('pageerror', (err) => {
    errors.push(err.message);
    console.error('[browser error]', err.message);
  });
  return {
    context,
    page,
    /** Closes the browser (or wipes it, kept); fails when its page threw something it left uncaught. */
    async close() {
      const kept = keep ? await keep(launched).catch(() => false) : false;
      if (!kept) await quit(launched);
      if (errors.length > 0) throw new Error(`the page threw and left it uncaught: ${errors.join(' · ')}`);
    },
  };
}

/**
 * A fresh chromium profile (its own storage and cookies): one per simulated person. `args` adds
 * chromium flags (e.g. a fake microphone); `timezoneId` puts the browser's clock in another zone;
 * `colorScheme` is the system's theme (light unless said); `reducedMotion` whether the system asks
 * for less motion (yes unless said: dialogs and menus then appear without animating, so a click
 * never lands on one still moving).
 */
export async function openBrowser(options: OpenOptions = {}): Promise<Browser> {
  return browserOn(await launch(options), options);
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

/**
 * The browsers a test file opens (one per simulated person), given back together after each test.
 * A browser given back is wiped (wipe) and kept for the file's next tests, so that a file launches
 * as many browsers as its busiest test uses rather than one per person per test: starting chromium
 * and compiling the app's scripts cost it seconds of CPU each time. The file's last test closes
 * them (afterAll).
 */
export class BrowserPool {
  private readonly opened: Browser[] = [];
  private readonly kept: Launched[] = [];

  constructor() {
    afterAll(() => this.dispose());
  }

  async open(options?: OpenOptions): Promise<Browser> {
    const key = launchKey(options);
    const at = this.kept.findIndex((launched) => launched.key === key);
    const launched = at >= 0 ? this.kept.splice(at, 1)[0]! : await launch(options);
    const browser = await browserOn(launched, options, async (used) => {
      if (!(await wipe(used))) return false;
      this.kept.push(used);
      return true;
    });
    this.opened.push(browser);
    return browser;
  }

  /** A browser's page, whose steps wait up to 15 s. */
  async page(options?: OpenOptions): Promise<Page> {
    const { page } = await this.open(options);
    page.setDefaultTimeout(15_000);
    return page;
  }

  /** Gives every one back, then fails the test if one of them failed (its page threw something it left uncaught). */
  async closeAll(): Promise<void> {
    const closed = await Promise.allSettled(this.opened.splice(0).map((browser) => browser.close()));
    const failed = closed.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Closes the kept browsers (after the file's last test). */
  private async dispose(): Promise<void> {
    await this.closeAll().catch(() => undefined);
    await Promise.all(this.kept.splice(0).map(quit));
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
