import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { newId } from '../../domain/ids';
import type { MemberAwsStatus, MemberState } from '../../domain/accounts/organizations';
import { TEST_CREDENTIALS } from '../helpers/aws';
import { addUserWithRole, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { logIn as logInAt, screenshot, watchForErrors } from './browser';
import { type DashboardSuite, startDashboardSuite } from './suite';

// The fleet pages of the built dashboard in Chromium against the real service (Express, PostgreSQL, Temporal, the
// AWS provider on moto): a tenant's accounts, scores, findings, scans and an AWS Organization are written straight
// into the database, so every figure the pages show is known. The overview counts them and links to the worst
// account; the accounts list filters by tag and status, sorts by score and pages; connecting offers CloudFormation
// first, with or without a published template; the organization page nests the accounts by OU. Pages are
// photographed into test-results/fleet-screenshots (apart from dashboard.test.ts's folder, which that suite empties).

const SHOTS = path.resolve(__dirname, '..', '..', 'test-results', 'fleet-screenshots');
const TEMPLATE_BUCKET = `sentinel-templates-${Date.now()}`;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let ctx: TestContext;
let browser: Browser;
let base: string;
let suite: DashboardSuite;

beforeAll(async () => {
  // The template bucket is created only once the first connect has shown the dashboard without a published template.
  suite = await startDashboardSuite({ shots: SHOTS, config: { CLOUDFORMATION_TEMPLATE_BUCKET: TEMPLATE_BUCKET } });
  ({ ctx, base, browser } = suite);
});

afterAll(() => suite?.close());

/** A screenshot into this suite's folder (test-results/). */
const shoot = (page: Page, name: string, options?: { fullPage?: boolean }) => screenshot(page, SHOTS, name, options);
const logIn = (page: Page, user: Pick<TestUser, 'email' | 'password'>) => logInAt(page, base, user);

const ago = (ms: number) => new Date(Date.now() - ms);
const day = (daysAgo: number) =>
  ago(daysAgo * DAY)
    .toISOString()
    .slice(0, 10);

// Connected in this order (oldest first); by score the order is Payments, Web, Dev, then the unscored one.
const DEV = { aws: '333333333333', name: 'Dev sandbox', tags: ['dev'], srs: 91, connected: 4 * DAY };
const WEB = { aws: '222222222222', name: 'Web prod', tags: ['prod'], srs: 72, connected: 3 * DAY };
const FRESH = { aws: '444444444444', name: 'Fresh account', tags: ['dev'], srs: null, connected: 2 * DAY };
const PAYMENTS = {
  aws: '111111111111',
  name: 'Payments prod',
  tags: ['prod', 'payments'],
  srs: 35,
  connected: 1 * DAY,
};
const MANAGEMENT_ID = '555555555555';

/**
 * Four accounts (three scored: critical, fair and good; one pending), four open findings (one per severity; two
 * of them new today) and one resolved today, Web's partial coverage, Dev's failed last scan, two days of scores,
 * and an organization holding three of the accounts and two that Sentinel does not monitor.
 */
async function seedFleet(tenantId: string): Promise<Record<string, string>> {
  await ctx.db.updateTable('tenants').set({ plan: 'agency' }).where('id', '=', tenantId).execute();
  const orgId = newId('organization');
  await ctx.db
    .insertInto('organizations')
    .values({
      id: orgId,
      tenant_id: tenantId,
      management_account_id: MANAGEMENT_ID,
      aws_organization_id: 'o-acme12345',
      display_name: 'Acme',
      external_id: 'o'.repeat(40),
      role_name: 'SentinelOrganizationReadOnly',
      status: 'ACTIVE',
      workflow_id: `organization:${tenantId}:${MANAGEMENT_ID}`,
      last_sync_at: ago(10 * 60_000),
      last_sync_error: 'Account 999988887777 could not be described: AccessDenied',
      updated_at: new Date(),
    })
    .execute();
  const ids: Record<string, string> = { org: orgId };
  for (const a of [DEV, WEB, FRESH, PAYMENTS]) {
    const id = newId('account');
    ids[a.aws] = id;
    const scored = a.srs !== null;
    await ctx.db
      .insertInto('accounts')
      .values({
        id,
        tenant_id: tenantId,
        aws_account_id: a.aws,
        display_name: a.name,
        tags: a.tags,
        status: scored ? 'ACTIVE' : 'PENDING',
        external_id: `${a.aws}${'x'.repeat(28)}`,
        role_name: 'SentinelReadOnly',
        workflow_id: `account:${tenantId}:${a.aws}`,
        current_srs: a.srs,
        connected_at: ago(a.connected),
        created_at: ago(a.connected),
        updated_at: new Date(),
        last_scan_at: scored ? ago(HOUR) : null,
        last_successful_scan_at: scored ? ago(HOUR) : null,
        coverage_evaluated: scored ? (a === WEB ? 60 : 67) : null,
        coverage_total: scored ? 67 : null,
        score_complete: scored ? a !== WEB : null,
        organization_id: a === DEV ? null : orgId,
      })
      .execute();
    if (!scored) continue;
    const history = a === PAYMENTS ? [40, 35] : a === WEB ? [70, 72] : [91, 91];
    for (const [i, srs] of history.entries()) {
      const scanId = newId('scan');
      await ctx.db
        .insertInto('scans')
        .values({
          id: scanId,
          tenant_id: tenantId,
          account_id: id,
          trigger: 'scheduled',
          status: 'succeeded',
          srs,
          started_at: ago((1 - i) * DAY + HOUR),
          finished_at: ago((1 - i) * DAY + HOUR),
        })
        .execute();
      await ctx.db
        .insertInto('score_history')
        .values({
          account_id: id,
          day: day(1 - i),
          srs,
          complete: a !== WEB,
          scan_id: scanId,
          recorded_at: ago((1 - i) * DAY + HOUR),
        })
        .execute();
    }
  }
  await ctx.db
    .insertInto('scans')
    .values({
      id: newId('scan'),
      tenant_id: tenantId,
      account_id: ids[DEV.aws] as string,
      trigger: 'scheduled',
      status: 'failed',
      srs: null,
      failure_reason: 'The role could not be assumed: AccessDenied',
      started_at: ago(30 * 60_000),
      finished_at: ago(29 * 60_000),
    })
    .execute();
  const signal = (
    aws: string,
    severity: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW',
    scenario: 'exposure' | 'iam' | 'detection',
    detected: number,
    resolved?: number,
  ) => ({
    id: newId('signal'),
    tenant_id: tenantId,
    account_id: ids[aws] as string,
    check_id: `${scenario}.seeded_${severity.toLowerCase()}`,
    fingerprint: `${aws}-${severity}-${detected}`,
    scenario,
    severity,
    title: `${severity} seeded finding`,
    description: 'Seeded for the fleet pages.',
    resource: `arn:aws:iam::${aws}:role/seeded-${severity.toLowerCase()}`,
    region: 'us-east-1',
    detected_at: ago(detected),
    resolved_at: resolved === undefined ? null : ago(resolved),
  });
  await ctx.db
    .insertInto('signals')
    .values([
      signal(PAYMENTS.aws, 'CRITICAL', 'exposure', 2 * HOUR),
      signal(PAYMENTS.aws, 'HIGH', 'exposure', 2 * HOUR),
      signal(PAYMENTS.aws, 'LOW', 'detection', 10 * DAY),
      signal(PAYMENTS.aws, 'MEDIUM', 'iam', 10 * DAY, 3 * HOUR),
      signal(WEB.aws, 'MEDIUM', 'iam', 5 * DAY),
    ])
    .execute();
  const member = (
    aws: string,
    name: string,
    ouPath: string,
    state: MemberState,
    extra: { aws_status?: MemberAwsStatus; reason?: string } = {},
  ) => ({
    tenant_id: tenantId,
    organization_id: orgId,
    aws_account_id: aws,
    name,
    ou_path: ouPath,
    aws_status: 'ACTIVE' as MemberAwsStatus,
    state,
    reason: null as string | null,
    last_seen_at: ago(10 * 60_000),
    ...extra,
  });
  await ctx.db
    .insertInto('organization_accounts')
    .values([
      member(MANAGEMENT_ID, 'management', 'Root', 'management_account', {
        reason: 'The StackSet does not reach the management account: connect it on its own',
      }),
      member(PAYMENTS.aws, 'payments-prod', 'Root/Workloads/Prod', 'monitored'),
      member(WEB.aws, 'web-prod', 'Root/Workloads/Prod', 'monitored'),
      member(FRESH.aws, 'fresh', 'Root/Sandbox', 'awaiting_role', {
        reason: 'The member role is not in the account yet',
      }),
      member('666666666666', 'closed-team', 'Root/Workloads/Dev', 'disconnected', {
        aws_status: 'SUSPENDED',
        reason: 'Suspended in AWS',
      }),
    ])
    .execute();
  return ids;
}

it("shows the fleet: the overview's figures, the accounts filtered and sorted, CloudFormation first, the organization tree", async () => {
  const owner = await signupAndLogin(ctx);
  await seedFleet(owner.tenantId);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchForErrors(page);

  // Logging in opens the overview, the home page.
  await logIn(page, owner);
  await page.waitForURL(`${base}/app`);
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  const byStatus = page.getByRole('region', { name: 'Accounts by status' });
  await byStatus.locator('[data-figure="accounts-total"]').filter({ hasText: /^4$/ }).waitFor();
  expect(await byStatus.locator('li[data-status="ACTIVE"] strong').textContent()).toBe('3');
  expect(await byStatus.locator('li[data-status="PENDING"] strong').textContent()).toBe('1');
  expect(await byStatus.locator('li[data-status="DISCONNECTED"] strong').textContent()).toBe('0');
  // The distribution chart: one account in each of critical, fair and good, and the unscored one.
  const bands = page.getByRole('region', { name: 'Accounts by SRS band' });
  const bar = async (band: string) => bands.locator(`g[data-bar="${band}"] text.value`).textContent();
  expect(await Promise.all(['critical', 'poor', 'fair', 'good', 'unscored'].map(bar))).toEqual([
    '1',
    '0',
    '1',
    '1',
    '1',
  ]);
  // Web prod's score (fair) could not read every core source.
  expect(await bands.locator('[data-figure="incomplete-scores"]').textContent()).toBe(
    'Incomplete scores (not every core source read): Fair 1',
  );
  const findings = page.getByRole('region', { name: 'Open findings' });
  expect(await findings.locator('[data-figure="open-findings"]').textContent()).toBe('4');
  expect(await findings.locator('li[data-severity] strong').allTextContents()).toEqual(['1', '1', '1', '1']);
  expect(await findings.locator('li[data-scenario="exposure"] strong').textContent()).toBe('2');
  expect(await findings.locator('li[data-scenario="iam"] strong').textContent()).toBe('1');
  // Two days of the average score, the worst account first, today's changes, and what needs attention.
  expect(await page.locator('.chart svg[aria-label^="Average SRS"] circle').count()).toBe(2);
  const worst = page.getByRole('table', { name: 'Worst accounts' });
  expect(
    await worst.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-account'))),
  ).toEqual([PAYMENTS.aws, WEB.aws, DEV.aws]);
  expect(
    await worst
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.querySelector('[data-testid="score-incomplete"]') !== null)),
  ).toEqual([false, true, false]);
  // Both days average an incomplete score (Web prod's): hollow dots.
  expect(await page.locator('.chart svg[aria-label^="Average SRS"] circle.dot-incomplete').count()).toBe(2);
  const changes = page.getByRole('region', { name: 'Last 24 hours' });
  expect(await changes.locator('[data-figure="new-signals"]').textContent()).toBe('2');
  expect(await changes.locator('[data-figure="resolved-signals"]').textContent()).toBe('1');
  expect(
    await changes.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-account'))),
  ).toEqual([PAYMENTS.aws]);
  const attention = page.getByRole('region', { name: 'Needs attention' });
  await attention
    .locator(`li[data-account="${DEV.aws}"]`)
    .filter({ hasText: 'The role could not be assumed: AccessDenied' })
    .waitFor();
  await attention.locator(`li[data-account="${WEB.aws}"]`).filter({ hasText: '60 of 67 checks evaluated' }).waitFor();
  await shoot(page, '01-overview');
  await worst.getByRole('link', { name: `${PAYMENTS.name} (${PAYMENTS.aws})` }).click();
  await page.waitForURL(`${base}/app/accounts/${PAYMENTS.aws}`);
  await page.locator('.card [data-testid="srs"]').filter({ hasText: '35' }).waitFor();

  // The accounts: in connection order; a tag narrows them, sorting puts the lowest score first.
  await page.getByRole('banner').getByRole('link', { name: 'Accounts', exact: true }).click();
  const rows = page.getByRole('table', { name: 'Accounts' }).locator('tbody tr');
  const shown = () => rows.evaluateAll((trs) => trs.map((r) => r.getAttribute('data-account')));
  await rows.nth(3).waitFor();
  expect(await shown()).toEqual([DEV.aws, WEB.aws, FRESH.aws, PAYMENTS.aws]);
  const filters = page.getByRole('form', { name: 'Filter accounts' });
  await filters.getByLabel('Tag').fill('prod');
  await filters.getByLabel('Tag').press('Enter');
  await page.getByTestId('accounts-total').filter({ hasText: '2 accounts match' }).waitFor();
  expect(await shown()).toEqual([WEB.aws, PAYMENTS.aws]);
  await filters.getByLabel('Sort').selectOption('srs');
  await page.locator(`tbody tr[data-account="${PAYMENTS.aws}"] + tr[data-account="${WEB.aws}"]`).waitFor();
  expect(await shown()).toEqual([PAYMENTS.aws, WEB.aws]);
  await shoot(page, '02-accounts-filtered');
  await filters.getByLabel('Tag').fill('');
  await filters.getByLabel('Tag').press('Enter');
  await rows.nth(3).waitFor();
  expect(await shown()).toEqual([PAYMENTS.aws, WEB.aws, DEV.aws, FRESH.aws]);
  await filters.getByLabel('Status').selectOption('PENDING');
  await page.getByTestId('accounts-total').filter({ hasText: '1 account match' }).waitFor();
  expect(await shown()).toEqual([FRESH.aws]);
  await filters.getByLabel('Status').selectOption('');

  // Connecting offers CloudFormation first. No template is published yet (its bucket does not exist): the page
  // says so and offers the template itself.
  await page.getByLabel('AWS account id').fill('210987654321');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const setup = page.getByRole('region', { name: 'Set up the role' });
  await setup.getByRole('region', { name: 'AWS CloudFormation' }).waitFor();
  expect(await setup.locator('h3').allTextContents()).toEqual([
    'AWS CloudFormation',
    'Or with Terraform or the AWS CLI',
    'Event forwarder',
  ]);
  await setup.getByTestId('no-quick-create').waitFor();
  expect(await setup.getByRole('link', { name: 'Launch in AWS CloudFormation' }).count()).toBe(0);
  expect(await setup.getByRole('link', { name: /Launch the forwarder/ }).count()).toBe(0);
  expect(await setup.locator('pre').first().textContent()).toContain('AWSTemplateFormatVersion');
  // The template, the Terraform, the CLI script and the event forwarder's key.
  expect(await setup.getByRole('button', { name: 'Copy' }).count()).toBe(4);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    setup.getByRole('button', { name: 'Download the template' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('sentinel-role-210987654321.yaml');
  await shoot(page, '03-connect-template');
  // Once the bucket exists, the next connect publishes the template and links to the console's quick-create page.
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: process.env.TEST_AWS_ENDPOINT,
    forcePathStyle: true,
    credentials: TEST_CREDENTIALS,
  });
  await s3.send(new CreateBucketCommand({ Bucket: TEMPLATE_BUCKET }));
  s3.destroy();
  await page.getByLabel('AWS account id').fill('210987654322');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const launch = setup.getByRole('link', { name: 'Launch in AWS CloudFormation' });
  await launch.waitFor();
  const { external_id: externalId } = await ctx.db
    .selectFrom('accounts')
    .select('external_id')
    .where('tenant_id', '=', owner.tenantId)
    .where('aws_account_id', '=', '210987654322')
    .executeTakeFirstOrThrow();
  const href = new URL((await launch.getAttribute('href')) as string);
  expect(href.origin).toBe('https://console.aws.amazon.com');
  expect(href.hash).toContain('/stacks/quickcreate?');
  expect(decodeURIComponent(href.hash)).toContain(externalId);
  // The event forwarder's own stack, in us-east-1, with the key the page shows filled in.
  const forwarderLaunch = setup.getByRole('link', { name: 'Launch the forwarder in AWS CloudFormation (us-east-1)' });
  const forwarderHref = new URL((await forwarderLaunch.getAttribute('href')) as string);
  expect(forwarderHref.searchParams.get('region')).toBe('us-east-1');
  const shownKey = await setup.getByRole('region', { name: 'Event forwarder' }).getByTestId('event-key').textContent();
  expect(
    new URLSearchParams(forwarderHref.hash.slice(forwarderHref.hash.indexOf('?') + 1)).get('param_EventApiKey'),
  ).toBe(shownKey);
  expect(decodeURIComponent(href.hash)).toContain(TEMPLATE_BUCKET);
  expect(await launch.getAttribute('target')).toBe('_blank');
  await shoot(page, '04-connect-quick-create');

  // Organizations: the list counts each one's accounts; its page nests them by OU.
  await page.getByRole('banner').getByRole('link', { name: 'Organizations' }).click();
  const org = page.locator('tr[data-org]').filter({ hasText: 'Acme' });
  await org.waitFor();
  const count = (name: string) => org.locator(`td[data-count="${name}"]`).textContent();
  expect(await Promise.all(['total', 'monitored', 'awaiting_role', 'disconnected'].map(count))).toEqual([
    '5',
    '2',
    '1',
    '1',
  ]);
  await shoot(page, '05-organizations');
  await org.getByRole('link', { name: 'Acme' }).click();
  const tree = page.getByRole('list', { name: 'Organization tree' });
  await tree.waitFor();
  const ou = (ouPath: string) => tree.locator(`li.ou[data-ou="${ouPath}"]`);
  const members = (ouPath: string) =>
    ou(ouPath)
      .locator(':scope > ul > li.member')
      .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-account')));
  expect(await members('Root')).toEqual([MANAGEMENT_ID]);
  expect(await members('Root/Workloads/Prod')).toEqual([PAYMENTS.aws, WEB.aws]);
  expect(await members('Root/Sandbox')).toEqual([FRESH.aws]);
  expect(
    await ou('Root/Workloads')
      .locator(':scope > ul > li.ou')
      .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-ou'))),
  ).toEqual(['Root/Workloads/Dev', 'Root/Workloads/Prod']);
  // A monitored account links to its page with its score; the others say why they are not monitored.
  const payments = tree.locator(`li[data-account="${PAYMENTS.aws}"]`);
  expect(await payments.getAttribute('data-state')).toBe('monitored');
  expect(await payments.getByTestId('srs').textContent()).toBe('35');
  expect(await tree.locator(`li[data-account="${FRESH.aws}"] a`).count()).toBe(0);
  await tree
    .locator(`li[data-account="666666666666"]`)
    .filter({ hasText: 'Suspended in AWS' })
    .filter({ hasText: 'AWS: SUSPENDED' })
    .waitFor();
  await page
    .getByRole('alert')
    .filter({ hasText: 'The last sync failed: Account 999988887777 could not be described' })
    .waitFor();
  await page.getByRole('button', { name: 'Sync now' }).waitFor();
  await page.getByRole('button', { name: 'Disconnect' }).waitFor();
  await page.getByLabel('Also disconnect its 2 monitored accounts').waitFor();
  await shoot(page, '06-organization');
  await payments.getByRole('link').click();
  await page.waitForURL(`${base}/app/accounts/${PAYMENTS.aws}`);

  // Connecting an organization: the management role three ways and the members' StackSet template, then Verify.
  await page.getByRole('banner').getByRole('link', { name: 'Organizations' }).click();
  const connect = page.getByRole('form', { name: 'Connect an organization' });
  await connect.getByLabel('Management account id').fill('123456789013');
  await connect.getByLabel('Name (optional)').fill('Globex');
  await connect.getByRole('button', { name: 'Connect' }).click();
  const orgSetup = page.getByRole('region', { name: 'Set up the organization' });
  await orgSetup.getByRole('heading', { name: 'StackSet template' }).waitFor();
  expect(await orgSetup.locator('.copy-block h4').allTextContents()).toEqual([
    'CloudFormation template',
    'Terraform',
    'AWS CLI script',
    'StackSet template',
  ]);
  expect(await orgSetup.getByRole('button', { name: 'Copy' }).count()).toBe(4);
  await orgSetup.getByRole('button', { name: 'Verify' }).waitFor();
  const globex = page.locator('tr[data-org]').filter({ hasText: 'Globex' });
  await globex.waitFor();
  await shoot(page, '07-organization-connect');
  // Not verified yet, so nothing to sync; disconnecting it (after confirming) leaves it listed as disconnected.
  await globex.getByRole('link', { name: 'Globex' }).click();
  await page.getByText('No accounts listed yet').waitFor();
  expect(await page.getByRole('button', { name: 'Sync now' }).count()).toBe(0);
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await page.waitForURL(`${base}/app/organizations`);
  await globex.getByText('DISCONNECTED').waitFor();
  const stored = await ctx.db
    .selectFrom('organizations')
    .select('status')
    .where('tenant_id', '=', owner.tenantId)
    .where('display_name', '=', 'Globex')
    .executeTakeFirstOrThrow();
  expect(stored.status).toBe('DISCONNECTED');
  await context.close();
  expect(problems).toEqual([]);

  // A viewer sees the same pages without a button that would change anything.
  const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  const viewerProblems = watchForErrors(viewerPage);
  await logIn(viewerPage, viewer);
  await viewerPage.getByRole('heading', { name: 'Overview' }).waitFor();
  await viewerPage.getByRole('banner').getByRole('link', { name: 'Organizations' }).click();
  await viewerPage.locator('tr[data-org]').filter({ hasText: 'Acme' }).getByRole('link').click();
  await viewerPage.getByRole('list', { name: 'Organization tree' }).waitFor();
  expect(await viewerPage.getByRole('button', { name: /Sync now|Disconnect/ }).count()).toBe(0);
  await viewerPage.getByRole('link', { name: '← Organizations' }).click();
  await viewerPage.locator('tr[data-org]').first().waitFor();
  expect(await viewerPage.getByRole('form', { name: 'Connect an organization' }).count()).toBe(0);
  await viewerContext.close();
  expect(viewerProblems).toEqual([]);
});

it('pages through the accounts 25 at a time', async () => {
  const owner = await signupAndLogin(ctx);
  await ctx.db.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', owner.tenantId).execute();
  const ids = Array.from({ length: 27 }, (_, i) => String(700000000000 + i));
  await ctx.db
    .insertInto('accounts')
    .values(
      ids.map((aws, i) => ({
        id: newId('account'),
        tenant_id: owner.tenantId,
        aws_account_id: aws,
        display_name: null,
        tags: [],
        status: 'PENDING' as const,
        external_id: `${aws}${'p'.repeat(28)}`,
        role_name: 'SentinelReadOnly',
        workflow_id: `account:${owner.tenantId}:${aws}`,
        created_at: ago((100 - i) * 60_000),
        updated_at: new Date(),
      })),
    )
    .execute();
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await logIn(page, owner);
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  await page.getByRole('banner').getByRole('link', { name: 'Accounts', exact: true }).click();
  const rows = page.getByRole('table', { name: 'Accounts' }).locator('tbody tr');
  await rows.nth(24).waitFor();
  expect(await rows.count()).toBe(25);
  expect(await rows.first().getAttribute('data-account')).toBe(ids[0]);
  await page.getByTestId('accounts-total').filter({ hasText: '27 accounts' }).waitFor();
  expect(await page.getByRole('button', { name: 'Previous page' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.locator(`tr[data-account="${ids[25]}"]`).waitFor();
  expect(await rows.evaluateAll((trs) => trs.map((r) => r.getAttribute('data-account')))).toEqual(ids.slice(25));
  expect(await page.getByRole('button', { name: 'Next page' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Previous page' }).click();
  await page.locator(`tr[data-account="${ids[0]}"]`).waitFor();
  expect(await rows.count()).toBe(25);
  await context.close();
  expect(problems).toEqual([]);
});
