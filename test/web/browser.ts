import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CONDITION_CEILING_MS } from '../helpers/patience';

/** Debian's chromium (apt-get install chromium, done by .ci/run), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(candidate)) {
    throw new Error(
      `No Chromium at ${candidate}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  return candidate;
}

export async function launchChromium(): Promise<Browser> {
  // Chromium refuses to start its sandbox as root (CI containers run as root).
  const asRoot = process.getuid?.() === 0;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: asRoot ? ['--no-sandbox'] : [],
  });
  // Every action and wait of its pages is bounded by the suite's hang ceiling, not Playwright's 30 seconds: on a
  // busy machine a page may take longer than that to render what it waits for.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(CONDITION_CEILING_MS);
    return context;
  };
  return browser;
}

/** The page's console errors and failed requests, collected from now on: a working dashboard has none. */
export function watchForErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  return problems;
}

/** Fills the dashboard's login form and submits it (where it leads is the caller's to wait for). */
export async function logIn(page: Page, base: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/app/login`);
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('E-mail').fill(user.email);
  await form.getByLabel('Password').fill(user.password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

/** A screenshot into `dir`, checked to hold an image: the whole page, or the window only (`fullPage: false`). */
export async function screenshot(page: Page, dir: string, name: string, { fullPage = true } = {}): Promise<void> {
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  if (!existsSync(file) || statSync(file).size <= 1000) throw new Error(`the screenshot ${file} is empty`);
}
