import { mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { createHttpServer } from '../../api/http-server';
import { createTestContext, type TestContext } from '../helpers/context';
import { launchChromium } from './browser';
import { buildDashboard } from './build';

// What every browser suite starts: an empty screenshot folder, the built dashboard, the whole service (a real worker
// included) listening on loopback, and Chromium.

export interface DashboardSuite {
  ctx: TestContext;
  /** The service's address, e.g. http://127.0.0.1:45678 (the dashboard is at /app). */
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startDashboardSuite({
  shots,
  config,
}: {
  shots: string;
  config: Record<string, string>;
}): Promise<DashboardSuite> {
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  await buildDashboard();
  const ctx = await createTestContext({ withWorker: true, config });
  const server = createHttpServer(ctx.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  return {
    ctx,
    base,
    browser,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      await ctx.close();
    },
  };
}
