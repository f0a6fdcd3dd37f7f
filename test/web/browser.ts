import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (apt-get install chromium, done by .ci/run), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(candidate)) {
    throw new Error(`No Chromium at ${candidate}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return candidate;
}

export function launchChromium(): Promise<Browser> {
  // Chromium refuses to start its sandbox as root (CI containers run as root).
  const asRoot = process.getuid?.() === 0;
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: asRoot ? ['--no-sandbox'] : [] });
}
