import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { CONDITION_CEILING_MS, waitFor } from '../helpers/patience';
import { scanResult } from '../helpers/scans';
import { logIn, screenshot, watchForErrors } from './browser';
import { type DashboardSuite, startDashboardSuite } from './suite';

// The Attack paths tab of the built dashboard in Chromium against the real service (Express, PostgreSQL, the
// Temporal dev server with a real worker, the sandbox cloud). An owner connects the sandbox's demo account; once
// its first scan lands, the tab says how the analysis went and lists the paths in the service's order, toxic
// combinations first. Selecting one draws it with Cytoscape (a labelled canvas, as many nodes and edges as the
// path has) above its steps with their evidence; a link to a path opens it drawn. Pages are photographed into
// test-results/attack-paths-screenshots (apart from dashboard.test.ts's folder, which that suite empties).

const AWS_ID = '123456789012';
const OTHER_ID = '123456789013';
const PENDING_ID = '210987654321';
const SHOTS = path.resolve(__dirname, '..', '..', 'test-results', 'attack-paths-screenshots');

interface ApiPath {
  path_id: string;
  aws_account_id: string;
  kind: 'escalation' | 'exposure' | 'toxic_combination';
  title: string;
  certainty: 'certain' | 'possible';
  nodes: { id: string; kind: string; label: string }[];
  edges: { from: string; to: string; label: string; evidence: string[]; certainty: 'certain' | 'possible' }[];
}
interface ApiAnswer {
  analysis: { status: string; unread: { scope: string }[] };
  paths: ApiPath[];
}

/** What each analysis status says first, in bold, above the list. */
const STATUS_TEXT: Record<string, string> = {
  complete: 'Analysis complete.',
  partial: 'Partial analysis.',
  not_evaluated: 'Not evaluated.',
  not_scanned: 'Not analysed yet.',
};

let ctx: TestContext;
let browser: Browser;
let base: string;
let suite: DashboardSuite;

beforeAll(async () => {
  suite = await startDashboardSuite({ shots: SHOTS, config: { CLOUD_PROVIDER: 'sandbox' } });
  ({ ctx, base, browser } = suite);
});

afterAll(() => suite?.close());

const shoot = (page: Page, name: string, options?: { fullPage?: boolean }) => screenshot(page, SHOTS, name, options);

async function connectAndScan(page: Page, owner: TestUser): Promise<void> {
  await logIn(page, base, owner);
  await page.waitForURL(`${base}/app`);
  await page.getByRole('banner').getByRole('link', { name: 'Accounts' }).click();
  await page.getByText('No AWS accounts yet').waitFor();
  await page.getByLabel('AWS account id').fill(AWS_ID);
  await page.getByLabel('Name (optional)').fill('Sandbox production');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('region', { name: 'Set up the role' }).getByRole('button', { name: 'Verify' }).click();
  await page.getByText(`${AWS_ID} verified: the first scan is running.`).waitFor();
  const row = page.locator(`tr[data-account="${AWS_ID}"]`);
  await row.locator('[data-testid="srs"]').filter({ hasText: /^\d+$/ }).waitFor({ timeout: CONDITION_CEILING_MS });
}

/**
 * Waits for ink on the graph's canvases: a blank canvas would pass every DOM check, and Cytoscape paints on the
 * next animation frame after it lays the graph out.
 */
async function waitForInk(page: Page, graph: string): Promise<void> {
  // Page code as a string: this file is type-checked for Node, without the DOM's globals.
  await page.waitForFunction(`[...document.querySelectorAll(${JSON.stringify(`${graph} canvas`)})].some((c) => {
    const { width, height } = c;
    if (!width || !height) return false;
    const pixels = c.getContext('2d').getImageData(0, 0, width, height).data;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) return true;
    return false;
  })`);
}

/** The first path of a kind; the demo estate holds at least one of each kind the test draws. */
function firstOf(answer: ApiAnswer, kind: ApiPath['kind']): ApiPath {
  const found = answer.paths.find((p) => p.kind === kind);
  if (!found)
    throw new Error(
      `The sandbox account ${AWS_ID} has no ${kind} path (analysis ${answer.analysis.status}, ${answer.paths.length} paths)`,
    );
  return found;
}

/** Selects a path in the list and checks its graph and steps against what the API answers for it. */
async function openPath(page: Page, tab: Locator, p: ApiPath): Promise<Locator> {
  const item = tab.locator(`li.path[data-path="${p.path_id}"]`);
  await item.getByRole('link', { name: p.title }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}/attack-paths?path=${encodeURIComponent(p.path_id)}`);
  await checkDrawn(page, item, p);
  return item;
}

async function checkDrawn(page: Page, item: Locator, p: ApiPath): Promise<void> {
  const graph = item.getByTestId('path-graph');
  await item.locator('[data-testid="path-graph"][data-state="drawn"]').waitFor();
  expect(await graph.getAttribute('role')).toBe('img');
  expect(await graph.getAttribute('aria-label')).toMatch(/^Graph of the attack path from .+ to .+/);
  expect(Number(await graph.getAttribute('data-nodes'))).toBe(p.nodes.length);
  expect(Number(await graph.getAttribute('data-edges'))).toBe(p.edges.length);
  expect(await graph.locator('canvas').count()).toBeGreaterThan(0);
  await waitForInk(page, `li.path[data-path="${p.path_id}"] [data-testid="path-graph"]`);

  // The steps are the graph's text: every edge with its label, certainty and evidence.
  const steps = item.getByRole('list', { name: 'Steps of the path' });
  expect(await graph.getAttribute('aria-describedby')).toBe(await steps.getAttribute('id'));
  const rows = steps.locator(':scope > li');
  expect(await rows.count()).toBe(p.edges.length);
  for (const [i, edge] of p.edges.entries()) {
    const row = rows.nth(i);
    const text = (await row.textContent()) as string;
    expect(text).toContain(edge.label);
    expect(await row.getAttribute('data-certainty')).toBe(edge.certainty);
    expect(await row.locator('.possible-badge').count()).toBe(edge.certainty === 'possible' ? 1 : 0);
    for (const evidence of edge.evidence) {
      // A policy statement reference reads "<policy> statement <sid>"; other evidence is shown as it is.
      for (const part of evidence.split('#')) expect(text).toContain(part);
    }
  }
  expect(p.edges.some((e) => e.evidence.length > 0)).toBe(true);
}

it('shows how the analysis went, lists the paths toxic combinations first, and draws a selected path with its evidence', async () => {
  const owner = await signupAndLogin(ctx, 'Ada Attack Paths');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await connectAndScan(page, owner);

  const answer = await ctx.http
    .get(`/accounts/${AWS_ID}/attack-paths?limit=100`)
    .set(owner.auth)
    .expect(200)
    .then((r) => r.body as ApiAnswer);
  const toxic = firstOf(answer, 'toxic_combination');
  const escalation = firstOf(answer, 'escalation');

  await page
    .locator(`tr[data-account="${AWS_ID}"]`)
    .getByRole('link', { name: /Sandbox production/ })
    .click();
  await page.getByRole('navigation', { name: 'Account views' }).getByRole('link', { name: 'Attack paths' }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}/attack-paths`);
  const tab = page.getByRole('region', { name: 'Attack paths' });

  // The analysis' status comes first, in words, as the API has it.
  const status = tab.getByTestId('analysis-status');
  await status.waitFor();
  expect(await status.getAttribute('data-status')).toBe(answer.analysis.status);
  expect(await status.textContent()).toContain(STATUS_TEXT[answer.analysis.status]);
  expect(['complete', 'partial']).toContain(answer.analysis.status);
  for (const u of answer.analysis.unread) expect(await status.textContent()).toContain(u.scope);

  // The list is the API's, in its order: toxic combinations first.
  const items = tab.locator('li.path');
  await items.nth(answer.paths.length - 1).waitFor();
  expect(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-path')))).toEqual(
    answer.paths.map((p) => p.path_id),
  );
  expect(await items.first().getAttribute('data-kind')).toBe('toxic_combination');
  for (const p of answer.paths) {
    const item = tab.locator(`li.path[data-path="${p.path_id}"]`);
    expect(await item.locator('.possible-badge').count()).toBe(p.certainty === 'possible' ? 1 : 0);
  }
  await shoot(page, '01-attack-paths-list');

  // Selecting the toxic combination draws it; selecting the escalation draws that one instead.
  const toxicItem = await openPath(page, tab, toxic);
  await shoot(page, '02-toxic-combination');
  await toxicItem.locator('.path-detail').screenshot({ path: path.join(SHOTS, '02b-toxic-combination-graph.png') });
  await openPath(page, tab, escalation);
  await toxicItem.locator('.path-detail').waitFor({ state: 'detached' });
  expect(await tab.locator('.path-detail').count()).toBe(1);
  await shoot(page, '03-escalation');

  // A link to a path opens the tab with it drawn.
  const link = `${base}/app/accounts/${AWS_ID}/attack-paths?path=${encodeURIComponent(toxic.path_id)}`;
  await page.goto(link);
  await checkDrawn(page, tab.locator(`li.path[data-path="${toxic.path_id}"]`), toxic);
  await context.close();
  expect(problems).toEqual([]);
});

it('lists every account’s paths with how far each was analysed, filters them by kind, severity and account, and draws one', async () => {
  const owner = await signupAndLogin(ctx, 'Tess Tenant Paths');
  // Three accounts: more than the free plan holds.
  await ctx.db.updateTable('tenants').set({ plan: 'team' }).where('id', '=', owner.tenantId).execute();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await connectAndScan(page, owner);
  // A second scanned account, and one connected but never verified (no analysis yet), through the API.
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: OTHER_ID }).expect(201);
  const verified = await ctx.http.post(`/accounts/${OTHER_ID}/verify`).set(owner.auth).expect(200);
  await scanResult(ctx.temporal, verified.body.first_scan_execution_arn);
  await ctx.http.post('/accounts').set(owner.auth).send({ aws_account_id: PENDING_ID }).expect(201);

  const search = async (query: Record<string, string>) =>
    (
      await ctx.http
        .get('/attack-paths')
        .query({ limit: 100, ...query })
        .set(owner.auth)
        .expect(200)
    ).body as {
      analyses: {
        complete: number;
        incomplete_count: number;
        incomplete: { aws_account_id: string; status: string }[];
      };
      paths: ApiPath[];
    };
  const keys = (paths: readonly ApiPath[]) => paths.map((p) => `${p.aws_account_id}/${p.path_id}`);
  const tab = page.getByRole('region', { name: 'Attack paths' });
  const items = tab.locator('li.path');
  const shown = () =>
    items.evaluateAll((lis) => lis.map((li) => `${li.getAttribute('data-account')}/${li.getAttribute('data-path')}`));
  /** Waits for the list to show `expected`'s paths, in its order. */
  async function listed(expected: readonly ApiPath[]) {
    const wanted = keys(expected);
    await waitFor(async () => JSON.stringify(await shown()) === JSON.stringify(wanted));
    expect(await shown()).toEqual(wanted);
  }

  await page.getByRole('banner').getByRole('link', { name: 'Attack paths' }).click();
  await page.waitForURL(`${base}/app/attack-paths`);
  const whole = await search({});
  // How far the accounts were analysed comes first: the pending one is named as not analysed yet.
  const scope = tab.getByTestId('analyses-in-scope');
  await scope.waitFor();
  expect(Number(await scope.getAttribute('data-complete'))).toBe(whole.analyses.complete);
  expect(Number(await scope.getAttribute('data-incomplete'))).toBe(whole.analyses.incomplete_count);
  expect(await scope.locator(`li[data-account="${PENDING_ID}"]`).getAttribute('data-status')).toBe('not_scanned');
  await listed(whole.paths);
  expect(new Set(whole.paths.map((p) => p.aws_account_id))).toEqual(new Set([AWS_ID, OTHER_ID]));
  expect(await items.first().getAttribute('data-kind')).toBe('toxic_combination');
  expect(await items.first().getByTestId('path-account').textContent()).toBe(whole.paths[0]!.aws_account_id);
  await shoot(page, '04-tenant-attack-paths');

  // Each filter narrows the list as the API does, and lands in the URL.
  await tab.getByLabel('Kind').selectOption('toxic_combination');
  await page.waitForURL(`${base}/app/attack-paths?kind=toxic_combination`);
  await listed((await search({ kind: 'toxic_combination' })).paths);
  await tab.getByLabel('Severity').selectOption('CRITICAL');
  await page.waitForURL(`${base}/app/attack-paths?kind=toxic_combination&severity=CRITICAL`);
  await listed((await search({ kind: 'toxic_combination', severity: 'CRITICAL' })).paths);
  await tab.getByLabel('Kind').selectOption('');
  await tab.getByLabel('Severity').selectOption('');
  await page.waitForURL(`${base}/app/attack-paths`);
  await tab.getByLabel('AWS account').fill('1234');
  expect(await tab.getByRole('button', { name: 'Show' }).isDisabled()).toBe(true);
  await tab.getByLabel('AWS account').fill(OTHER_ID);
  await tab.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(`${base}/app/attack-paths?account=${OTHER_ID}`);
  const other = await search({ aws_account_id: OTHER_ID });
  await listed(other.paths);
  expect(other.paths.length).toBeGreaterThan(0);

  // Selecting a path draws it with its evidence, and the link opens the same view.
  const chosen = other.paths.find((p) => p.kind === 'escalation') ?? other.paths[0]!;
  const item = tab.locator(`li.path[data-account="${OTHER_ID}"][data-path="${chosen.path_id}"]`);
  await item.getByRole('link', { name: chosen.title }).click();
  const selectedUrl = `${base}/app/attack-paths?account=${OTHER_ID}&path=${encodeURIComponent(`${OTHER_ID}/${chosen.path_id}`)}`;
  await page.waitForURL(selectedUrl);
  await checkDrawn(page, item, chosen);
  await shoot(page, '05-tenant-attack-path-selected');
  await page.goto(selectedUrl);
  await checkDrawn(page, item, chosen);
  await context.close();
  expect(problems).toEqual([]);
});
