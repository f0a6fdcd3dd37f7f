import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { SANDBOX_PARTIAL_ACCOUNT_ID, sandboxInventory } from '../../cloud/sandbox/inventory';
import { afterAnswerSettled } from '../../core/after-answer';
import { computeSrs } from '../../domain/scoring/srs';
import { SEVERITIES } from '../../domain/checks/types';
import { type TestContext } from '../helpers/context';
import { CONDITION_CEILING_MS } from '../helpers/patience';
import { watchForErrors } from './browser';
import { type DashboardSuite, startDashboardSuite } from './suite';

// The built dashboard in a real browser (Debian's Chromium through playwright-core) against the real service on
// loopback: Express with the real worker on the Temporal dev server, PostgreSQL, and the sandbox cloud. A new
// tenant signs up, connects and verifies a sandbox account, sees the first scan's score and findings, creates
// an alert rule, scans again, sees the alert and acknowledges it; then invites a teammate who accepts in a
// second browser. Another tenant connects the sandbox's partly readable account, sees what its scan could not
// read, and accepts a finding's risk until a date, then undoes it. Every page is photographed into
// test-results/screenshots. No sleeps: each step waits for what the page shows.

const AWS_ID = '123456789012';
const SHOTS = path.resolve(__dirname, '..', '..', 'test-results', 'screenshots');
const PASSWORD = 'a-long-dashboard-password';
const DAY_MS = 86_400_000;

let ctx: TestContext;
let browser: Browser;
let base: string;
const shots: string[] = [];
let suite: DashboardSuite;

beforeAll(async () => {
  const exportsDir = path.join(process.env.TEST_SCRATCH_DIR as string, 'dashboard-exports');
  suite = await startDashboardSuite({
    shots: SHOTS,
    config: { CLOUD_PROVIDER: 'sandbox', EXPORT_LOCAL_DIR: exportsDir },
  });
  ({ ctx, base, browser } = suite);
});

afterAll(() => suite?.close());

async function shoot(page: Page, name: string): Promise<void> {
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  shots.push(file);
}

it('takes a new tenant from sign-up to an acknowledged alert', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchForErrors(page);
  const email = `dashboard-${Date.now()}@example.com`;

  // A link from an e-mail opens the login page first when signed out.
  await page.goto(`${base}/app/accounts`);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  // The service scans the sandbox: every page says the data is simulated, signed in or not.
  await page.getByRole('note').filter({ hasText: 'Demo data: this Sentinel scans simulated accounts' }).waitFor();
  await shoot(page, '01-login');

  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Your name').fill('Dana Dashboard');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await shoot(page, '02-signup');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(`${base}/app/accounts`);
  await page.getByText('No AWS accounts yet').waitFor();
  // Until the owner verifies the address, a banner says what waits for it; the mailed link verifies it.
  const unverified = page.getByRole('region', { name: 'E-mail not verified' });
  await unverified.waitFor();
  await shoot(page, '03-accounts-empty');
  const verification = await ctx.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where(sql<boolean>`${email} = any(to_addresses)`)
    .where('subject', '=', 'Confirm your e-mail address for Sentinel')
    .executeTakeFirstOrThrow();
  const verifyLink = new URL(
    /https?:\/\/\S+\/app\/verify-email#token=[A-Za-z0-9_-]+/.exec(verification.text_body)?.[0] as string,
  );
  await page.goto(`${base}${verifyLink.pathname}${verifyLink.hash}`);
  await page
    .getByRole('status')
    .filter({ hasText: `${email} is verified.` })
    .waitFor();
  await shoot(page, '03b-email-verified');
  await page.getByRole('link', { name: 'Open the dashboard' }).click();
  await page.getByText('No AWS accounts yet').waitFor();
  expect(await unverified.count()).toBe(0);

  // Tokens: the bearer stays in memory, only the refresh token is stored, and only for this tab.
  // (Page code as a string: this file is type-checked for Node, without the DOM's globals.)
  const storage = await page.evaluate('({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) })');
  expect(storage).toEqual({ local: [], session: ['sentinel.refresh_token'] });

  // Connect: the CloudFormation template (the sandbox publishes none to launch), the Terraform snippet and the CLI
  // script, each with a copy button, and the event forwarder's key with one; then verify.
  await page.getByLabel('AWS account id').fill(AWS_ID);
  await page.getByLabel('Name (optional)').fill('Sandbox production');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const setup = page.getByRole('region', { name: 'Set up the role' });
  await setup.getByRole('heading', { name: 'Terraform', exact: true }).waitFor();
  expect(await setup.locator('pre').first().textContent()).toContain('sts:ExternalId');
  expect(await setup.getByRole('button', { name: 'Copy' }).count()).toBe(4);
  await shoot(page, '04-connect');
  await setup.getByRole('button', { name: 'Verify' }).click();
  await page.getByText(`${AWS_ID} verified: the first scan is running.`).waitFor();

  // The list picks the first score up by itself once the scan lands.
  const row = page.locator(`tr[data-account="${AWS_ID}"]`);
  await row.getByText('ACTIVE').waitFor();
  await row.locator('[data-testid="srs"]').filter({ hasText: /^\d+$/ }).waitFor({ timeout: CONDITION_CEILING_MS });
  await shoot(page, '05-accounts');

  // The account: SRS, history, findings grouped by scenario and severity, the checklist.
  await row.getByRole('link', { name: /Sandbox production/ }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}`);
  const srs = Number(await page.locator('.card [data-testid="srs"]').textContent());
  const [stored] = (
    await sql<{ current_srs: number }>`select current_srs from accounts where aws_account_id = ${AWS_ID}`.execute(
      ctx.db,
    )
  ).rows;
  expect(srs).toBe(stored?.current_srs);
  const findings = page.getByRole('region', { name: 'Open findings' });
  await findings.locator('.signal').first().waitFor();
  const shown = await findings.locator('.signal').count();
  const open = await ctx.db
    .selectFrom('signals')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('resolved_at', 'is', null)
    .executeTakeFirstOrThrow();
  expect(shown).toBe(Number(open.n));
  expect(await findings.locator('.scenario').count()).toBeGreaterThan(0);
  await page.getByRole('region', { name: 'Recovery checklist' }).locator('li').first().waitFor();
  await page.locator('.chart svg circle').first().waitFor();
  await shoot(page, '06-account');

  // Filters narrow the findings on the service side.
  await findings.getByLabel('Severity').selectOption('LOW');
  await findings.locator('.sev-high, .sev-critical, .sev-medium').first().waitFor({ state: 'detached' });
  const lowOnly = await findings.locator('.sev').allTextContents();
  expect(lowOnly.every((s) => s === 'LOW')).toBe(true);
  await findings.getByLabel('Severity').selectOption('');

  // A reload keeps the session (the refresh token in sessionStorage buys a new bearer token).
  await page.reload();
  await page
    .locator('.card [data-testid="srs"]')
    .filter({ hasText: String(srs) })
    .waitFor();

  // Compliance: the account's CIS controls by section, filtered by status, each failing one linking to its findings.
  await page.getByRole('navigation', { name: 'Account views' }).getByRole('link', { name: 'Compliance' }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}/compliance`);
  const compliance = page.getByRole('region', { name: 'Compliance' });
  await compliance.locator('tr[data-control="2.5"]').waitFor();
  expect(await compliance.locator('tr[data-control]').count()).toBe(70);
  await compliance.getByLabel('Status').selectOption('failed');
  await compliance.locator('tr[data-status="passed"]').first().waitFor({ state: 'detached' });
  const failedRows = compliance.locator('tr[data-control]');
  expect(new Set(await failedRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))))).toEqual(
    new Set(['failed']),
  );
  await shoot(page, '06a-compliance');
  // The report downloads as an HTML file.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    compliance.getByRole('button', { name: 'Download the report (HTML)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^sentinel-cis-aws-7\\.0-${AWS_ID}-\\d{4}-\\d{2}-\\d{2}\\.html$`),
  );
  // A failing control's finding link opens the overview on that check's findings only.
  const evidence = failedRows.first().locator('.control-check a').first();
  const checkId = (await failedRows
    .first()
    .locator('.control-check')
    .filter({ has: page.locator('a') })
    .first()
    .locator('code')
    .textContent()) as string;
  await evidence.click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}?check=${encodeURIComponent(checkId)}`);
  await findings.getByText(`Showing the findings of the check ${checkId}`).waitFor();
  const ofCheck = await ctx.db
    .selectFrom('signals')
    .select('title')
    .where('check_id', '=', checkId)
    .where('resolved_at', 'is', null)
    .execute();
  // The filtered list renders after its header: wait for its last row before counting.
  expect(ofCheck.length).toBeGreaterThan(0);
  await findings
    .locator('.signal')
    .nth(ofCheck.length - 1)
    .waitFor();
  await expect(findings.locator('.signal').count()).resolves.toBe(ofCheck.length);
  await findings.getByRole('link', { name: 'Show every finding' }).click();
  await findings.getByText('Showing the findings of the check').waitFor({ state: 'detached' });
  // The tenant-wide table: one row per account with its summary.
  await page.getByRole('banner').getByRole('link', { name: 'Compliance' }).click();
  const byAccount = page.getByRole('table', { name: 'Compliance by account' });
  await byAccount.locator(`tr[data-account="${AWS_ID}"]`).waitFor();
  expect(
    Number(await byAccount.locator(`tr[data-account="${AWS_ID}"] td[data-summary="failed"]`).textContent()),
  ).toBeGreaterThan(0);
  await shoot(page, '06b-compliance-accounts');
  await byAccount.getByRole('link', { name: /Sandbox production/ }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}/compliance`);
  await page.getByRole('navigation', { name: 'Account views' }).getByRole('link', { name: 'Overview' }).click();
  await findings.locator('.signal').first().waitFor();

  // An alert rule, with an e-mail channel, that any score fires.
  await page.getByRole('link', { name: 'Alert rules' }).click();
  await page.getByText('No alert rules yet.').waitFor();
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Name').fill('Any risk at all');
  await form.getByLabel('Fire when the SRS drops below').fill('100');
  await form.getByLabel('Recipients (comma-separated)').fill('oncall@example.com');
  await shoot(page, '07-rule-form');
  await form.getByRole('button', { name: 'Save rule' }).click();
  const rule = page.locator('article.rule').filter({ hasText: 'Any risk at all' });
  await rule.getByText('E-mail to oncall@example.com').waitFor();
  // Disable and enable it again (a changed rule fires on the next scan all the same).
  await rule.getByRole('button', { name: 'Disable' }).click();
  await rule.getByText('Disabled', { exact: true }).waitFor();
  expect((await ctx.db.selectFrom('alert_rules').select('enabled').executeTakeFirstOrThrow()).enabled).toBe(false);
  await rule.getByRole('button', { name: 'Enable' }).click();
  await rule.getByText('Enabled', { exact: true }).waitFor();
  await shoot(page, '08-alert-rules');

  // Scan again: the first scan after a rule is created fires it.
  await page.getByRole('link', { name: 'Accounts' }).click();
  await row.getByRole('button', { name: 'Scan now' }).click();
  await row.getByText('Scan started.').waitFor();

  // The alert shows up on the live list; acknowledge it.
  await page.getByRole('link', { name: 'Alerts', exact: true }).click();
  const alert = page.locator('tr[data-alert]').first();
  await alert.getByRole('button', { name: 'Acknowledge' }).waitFor({ timeout: CONDITION_CEILING_MS });
  expect(await alert.textContent()).toContain(AWS_ID);
  await shoot(page, '09-alerts');
  await alert.getByRole('button', { name: 'Acknowledge' }).click();
  await alert.getByText(/^Acknowledged /).waitFor();
  const [acked] = (
    await sql<{ acknowledged_at: Date | null }>`select acknowledged_at from alert_events`.execute(ctx.db)
  ).rows;
  expect(acked?.acknowledged_at).toBeInstanceOf(Date);
  await shoot(page, '10-alert-acknowledged');
  // The rule's recipient is no user of the tenant: it got one confirmation e-mail, whose link asks before acting.
  const ask = await ctx.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where(sql<boolean>`'oncall@example.com' = any(to_addresses)`)
    .executeTakeFirstOrThrow();
  const confirmLink = new URL(
    /https?:\/\/\S+\/app\/email-preferences#token=confirm\.\S+/.exec(ask.text_body)?.[0] as string,
  );
  const mailReader = await browser.newContext();
  const recipient = await mailReader.newPage();
  await recipient.goto(`${base}${confirmLink.pathname}${confirmLink.hash}`);
  await recipient.getByRole('button', { name: 'Yes, send me these alerts' }).click();
  await recipient
    .getByRole('status')
    .filter({ hasText: 'oncall@example.com will receive the security alerts' })
    .waitFor();
  await shoot(recipient, '10b-recipient-confirmed');
  await mailReader.close();

  // Billing: the plans and the current one (Stripe is not configured here).
  await page.getByRole('link', { name: 'Billing' }).click();
  await page.getByTestId('current-plan').filter({ hasText: 'Solo' }).waitFor();
  await page.getByRole('button', { name: 'Switch to Team' }).waitFor();
  await shoot(page, '11-billing');

  // Team: invite a viewer.
  await page.getByRole('link', { name: 'Team' }).click();
  const invite = page.getByRole('form', { name: 'Invite a user' });
  const inviteeEmail = `viewer-${Date.now()}@example.com`;
  await invite.getByLabel('Name').fill('Vic Viewer');
  await invite.getByLabel('E-mail').fill(inviteeEmail);
  await invite.getByLabel('Role').selectOption('viewer');
  await invite.getByRole('button', { name: 'Invite' }).click();
  await page.locator('tr[data-user]').filter({ hasText: inviteeEmail }).getByText('invited').waitFor();
  await shoot(page, '12-team');

  // The invitee opens the e-mailed link (token in the fragment) in another browser and joins as a viewer.
  const mail = await ctx.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where(sql<boolean>`${inviteeEmail} = any(to_addresses)`)
    .executeTakeFirstOrThrow();
  const link = /https?:\/\/\S+\/app\/accept-invite#token=[A-Za-z0-9_-]+/.exec(mail.text_body)?.[0] as string;
  const other = await browser.newContext();
  const invitee = await other.newPage();
  const inviteeProblems = watchForErrors(invitee);
  await invitee.goto(`${base}${new URL(link).pathname}${new URL(link).hash}`);
  await invitee.getByLabel(/^Choose a password/).fill('invitee-password-1');
  await shoot(invitee, '13-accept-invite');
  await invitee.getByRole('button', { name: 'Accept invitation' }).click();
  await invitee.waitForURL(`${base}/app/accounts`);
  await invitee.locator(`tr[data-account="${AWS_ID}"]`).waitFor();
  // A viewer is shown no buttons that would change anything.
  expect(await invitee.getByRole('form', { name: 'Connect an account' }).count()).toBe(0);
  expect(await invitee.getByRole('button', { name: 'Scan now' }).count()).toBe(0);
  expect(await invitee.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
  await shoot(invitee, '14-accounts-as-viewer');
  // Nor may a viewer accept a finding's risk: the findings show, without the button.
  await invitee.locator(`tr[data-account="${AWS_ID}"]`).getByRole('link').click();
  await invitee.getByRole('region', { name: 'Open findings' }).locator('.signal').first().waitFor();
  expect(await invitee.getByRole('button', { name: 'Accept risk' }).count()).toBe(0);
  await other.close();

  // Log out: back to the login page, with nothing stored.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual([]);
  await context.close();

  expect(problems).toEqual([]);
  expect(inviteeProblems).toEqual([]);
  for (const file of shots) expect(existsSync(file) && statSync(file).size > 1000).toBe(true);
  expect(shots).toHaveLength(18);
});

it("shows every page of an empty tenant, a clear error for a failed verification, and not-found for another tenant's account", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await page.goto(`${base}/app/signup`);
  await page.getByLabel('Your name').fill('Vera Verify');
  const verifyEmail = `verify-${Date.now()}@example.com`;
  await page.getByLabel('E-mail').fill(verifyEmail);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByText('No AWS accounts yet').waitFor();

  // Nothing breaks on an empty tenant: each page says there is nothing yet.
  for (const [link, empty] of [
    ['Compliance', 'No accounts to report on yet'],
    ['Attack paths', 'No connected account here.'],
    ['Alerts', 'No alerts yet.'],
    ['Alert rules', 'No alert rules yet.'],
    ['Detections', 'No detections yet.'],
    ['Team', 'Vera Verify (you)'],
    ['Audit log', 'auth.login_succeeded'],
    ['Billing', 'Current plan'],
  ] as const) {
    await page.getByRole('link', { name: link, exact: true }).click();
    await page.getByText(empty).waitFor();
  }
  // The owner uploads a Sigma rule from the Detections page: one asking for what cannot run is refused, naming it,
  // and nothing is stored; the rule as SigmaHQ publishes it is listed with its title and severity, then disabled.
  const sigma = readFileSync(path.join(__dirname, '../fixtures/sigma/aws_config_disable_recording.yml'), 'utf8');
  await page.getByRole('link', { name: 'Detections', exact: true }).click();
  await page.getByRole('button', { name: 'Add a detection' }).click();
  const upload = page.getByRole('form', { name: 'Add a detection' });
  await upload.getByLabel('Name').fill('Config off');
  await upload
    .getByLabel(/^Sigma rule \(YAML/)
    .fill(sigma.replace("eventSource: 'config.amazonaws.com'", "eventSource|base64offset: 'config.amazonaws.com'"));
  await upload.getByRole('button', { name: 'Upload' }).click();
  await upload.getByRole('alert').filter({ hasText: "the modifier 'base64offset'" }).waitFor();
  await page.getByText('No detections yet.').waitFor();
  await upload
    .getByLabel('Sigma rule file')
    .setInputFiles(path.join(__dirname, '../fixtures/sigma/aws_config_disable_recording.yml'));
  // The file is read in the page: wait until its text is in the form (a string, run in the page, not here).
  await page.waitForFunction(
    "document.querySelector('textarea[name=sigma]').value.includes('StopConfigurationRecorder')",
  );
  expect(await upload.getByLabel(/^Sigma rule \(YAML/).inputValue()).toBe(sigma);
  await upload.getByRole('button', { name: 'Upload' }).click();
  const row = page.locator('tr[data-detection]').filter({ hasText: 'AWS Config Disabling Channel/Recorder' });
  await row.waitFor();
  const stored = await ctx.db
    .selectFrom('tenant_detections')
    .innerJoin('users', 'users.tenant_id', 'tenant_detections.tenant_id')
    .select(['tenant_detections.id', 'tenant_detections.sigma'])
    .where('users.email', '=', verifyEmail)
    .execute();
  expect(stored).toEqual([{ id: await row.getAttribute('data-detection'), sigma }]);
  await row.getByText('HIGH').waitFor();
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.getByText('Disabled').waitFor();
  await shoot(page, '14b-detections');

  await page.goto(`${base}/app/no-such-page`);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await page.getByRole('link', { name: 'Accounts', exact: true }).click();

  // The sandbox's 999999999999 never verifies: the service's reason is shown, the account stays PENDING.
  await page.getByLabel('AWS account id').fill('999999999999');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('region', { name: 'Set up the role' }).getByRole('button', { name: 'Verify' }).click();
  const error = page.getByRole('alert').filter({ hasText: 'Verification failed:' });
  await error.waitFor();
  expect((await error.textContent())?.length).toBeGreaterThan(40);
  await page.locator('tr[data-account="999999999999"]').getByText('PENDING').waitFor();
  await shoot(page, '15-verify-failed');

  // Another tenant's account (the first test's) is simply not found.
  await page.goto(`${base}/app/accounts/${AWS_ID}`);
  await page.getByRole('alert').filter({ hasText: 'Account not found' }).waitFor();
  await shoot(page, '16-account-not-found');
  expect(existsSync(path.join(SHOTS, '16-account-not-found.png'))).toBe(true);
  await context.close();
  // The expected refusals (the refused rule's 400, the failed verification's 422, the other tenant's 404) are the only
  // errors.
  expect(problems.filter((p) => !/status of (400|422|404)/.test(p))).toEqual([]);
});

/**
 * The most severe open signal of an account that is its check's only one: a check counts once in the score
 * however many resources fail it, so accepting this one must change the score.
 */
async function heaviestAlone(awsAccountId: string): Promise<string> {
  const open = await ctx.db
    .selectFrom('signals')
    .innerJoin('accounts', 'accounts.id', 'signals.account_id')
    .select(['signals.id', 'signals.check_id', 'signals.severity', 'signals.scenario'])
    .where('accounts.aws_account_id', '=', awsAccountId)
    .where('signals.resolved_at', 'is', null)
    .execute();
  const rank = (severity: string) => (SEVERITIES as readonly string[]).indexOf(severity);
  const scored = (signals: typeof open) =>
    computeSrs(signals.map((x) => ({ checkId: x.check_id, severity: x.severity, scenario: x.scenario })));
  // The heaviest one whose acceptance moves the score: with several CRITICAL findings open, accepting one may leave
  // the score where the others hold it.
  const [first] = open
    .filter((s) => open.filter((o) => o.check_id === s.check_id).length === 1)
    .filter((s) => scored(open.filter((o) => o.id !== s.id)) !== scored(open))
    .sort((a, b) => rank(a.severity) - rank(b.severity));
  if (!first) throw new Error(`${awsAccountId} has no open signal alone on its check`);
  return first.id;
}

it("shows what a partly readable account's scan could not read, and accepts a finding's risk until a date, then undoes it", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await page.goto(`${base}/app/signup`);
  await page.getByLabel('Your name').fill('Cora Coverage');
  await page.getByLabel('E-mail').fill(`coverage-${Date.now()}@example.com`);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('AWS account id').fill(SANDBOX_PARTIAL_ACCOUNT_ID);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('region', { name: 'Set up the role' }).getByRole('button', { name: 'Verify' }).click();

  // The sandbox's SCP denies two regions and a bucket policy one bucket: the list marks the first score incomplete.
  const row = page.locator(`tr[data-account="${SANDBOX_PARTIAL_ACCOUNT_ID}"]`);
  await row.getByTestId('score-incomplete').waitFor({ timeout: CONDITION_CEILING_MS });
  expect(await row.getByTestId('srs').textContent()).toMatch(/^\d+$/);
  await shoot(page, '17-accounts-incomplete-score');

  // The account: the mark and why beside the score, and a coverage card naming exactly what was not read.
  await row.getByRole('link', { name: SANDBOX_PARTIAL_ACCOUNT_ID }).click();
  await page.getByRole('note').filter({ hasText: 'Demo data:' }).waitFor();
  await page.locator('.card').getByTestId('score-incomplete').waitFor();
  await page.getByText(/^Incomplete: the latest scan could not/).waitFor();
  const coverage = page.getByRole('region', { name: 'Coverage' });
  const evaluatedText = coverage.getByText(/^\d+ of \d+ checks evaluated$/);
  await evaluatedText.waitFor();
  const [, evaluated, total] = (/^(\d+) of (\d+)/.exec((await evaluatedText.textContent()) ?? '') ?? []).map(Number);
  const inventory = sandboxInventory({ awsAccountId: SANDBOX_PARTIAL_ACCOUNT_ID, at: new Date() });
  const denied = [
    ...new Set([inventory.securityGroups, inventory.s3Buckets].flatMap((c) => c.unread ?? []).map((u) => u.scope)),
  ];
  expect(denied).toHaveLength(3);
  expect((await coverage.getByTestId('unread-scope').allTextContents()).sort()).toEqual(denied.sort());
  expect(await coverage.textContent()).toMatch(
    /service control policy[\s\S]*bucket's policy|bucket's policy[\s\S]*service control policy/,
  );

  // Every check of the catalogue, the unevaluated ones as many as the card says, and the partly read ones named.
  const table = page.getByRole('table', { name: 'Check results' });
  expect(await table.locator('tr[data-check]').count()).toBe(total);
  expect(await table.locator('tr[data-status="not_evaluated"]').count()).toBe(
    (total as number) - (evaluated as number),
  );
  const partly = table.locator('tr').filter({ has: page.locator('.check-partial') });
  expect(await partly.count()).toBeGreaterThan(0);
  const bucketCheck = await table.locator('tr[data-check="exposure.s3_bucket_public"]').textContent();
  expect(bucketCheck).toContain('Partly read');
  expect(bucketCheck).toContain(inventory.s3Buckets.unread?.[0]?.scope);

  // Grouped by service, each group with its coverage and failures: the groups with failed checks first.
  const groups = await table.locator('tbody[data-service]').evaluateAll((bodies) =>
    bodies.map((body) => ({
      service: body.getAttribute('data-service'),
      checks: [...body.querySelectorAll('tr[data-check]')].map((row) => row.getAttribute('data-status')),
      coverage: body.querySelector('[data-testid="service-coverage"]')?.textContent,
      failed: body.querySelector('[data-testid="service-failed"]')?.textContent ?? null,
    })),
  );
  expect(groups.map((g) => g.service)).toContain('s3');
  expect(groups.reduce((sum, g) => sum + g.checks.length, 0)).toBe(total);
  for (const group of groups) {
    const failed = group.checks.filter((status) => status === 'failed').length;
    const evaluatedHere = group.checks.filter((status) => status !== 'not_evaluated').length;
    expect(group.coverage).toBe(`${evaluatedHere} of ${group.checks.length} evaluated`);
    expect(group.failed).toBe(failed > 0 ? `${failed} failed` : null);
  }
  const failing = groups.map((g) => g.failed !== null);
  expect(failing.indexOf(false) === -1 || failing.lastIndexOf(true) < failing.indexOf(false)).toBe(true);
  expect(failing[0]).toBe(true);
  const s3Checks = await table
    .locator('tbody[data-service="s3"] tr[data-check]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-check')));
  expect(s3Checks).toContain('exposure.s3_bucket_public');
  await shoot(page, '18-account-coverage');

  // Accept a finding's risk until a date: a blank reason is refused before anything is sent.
  const score = page.locator('.card [data-testid="srs"]');
  const before = Number(await score.textContent());
  const target = await heaviestAlone(SANDBOX_PARTIAL_ACCOUNT_ID);
  const findings = page.getByRole('region', { name: 'Open findings' });
  const item = findings.locator(`li[data-signal="${target}"]`);
  await item.getByRole('button', { name: 'Accept risk' }).click();
  const form = item.getByRole('form', { name: 'Accept this risk' });
  await form.getByLabel('Reason').fill('   ');
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await form.getByRole('alert').filter({ hasText: 'Give the reason this risk is accepted.' }).waitFor();
  const reason = 'Bastion kept open for the migration, reviewed weekly';
  const until = new Date(Date.now() + 30 * DAY_MS);
  await form.getByLabel('Reason').fill(reason);
  await form
    .getByLabel(/^Until/)
    .fill(
      `${until.getFullYear()}-${String(until.getMonth() + 1).padStart(2, '0')}-${String(until.getDate()).padStart(2, '0')}`,
    );
  await shoot(page, '19-accept-form');
  await form.getByRole('button', { name: 'Accept', exact: true }).click();

  // Listed apart as accepted (who, why, until when), and the score, reloaded, leaves it out.
  const acceptedRisks = findings.getByRole('region', { name: 'Accepted risks' });
  const accepted = acceptedRisks.locator(`li[data-signal="${target}"]`);
  await accepted.getByText(reason, { exact: true }).waitFor();
  expect(await accepted.textContent()).toMatch(/by coverage-\d+@example\.com on .+, until (?!undone)/);
  await acceptedRisks.getByText(/^Not counted in the score/).waitFor();
  await score.filter({ hasText: new RegExp(`^(?!${before}$)\\d+$`) }).waitFor();
  const stored = await ctx.db
    .selectFrom('accounts')
    .select('current_srs')
    .where('aws_account_id', '=', SANDBOX_PARTIAL_ACCOUNT_ID)
    .executeTakeFirstOrThrow();
  expect(Number(await score.textContent())).toBe(stored.current_srs);
  expect(stored.current_srs).toBeGreaterThan(before);
  const acceptance = await ctx.db
    .selectFrom('signal_acceptances')
    .select(['reason', 'expires_at'])
    .where('signal_id', '=', target)
    .executeTakeFirstOrThrow();
  expect(acceptance.reason).toBe(reason);
  const daysAhead = ((acceptance.expires_at as Date).getTime() - Date.now()) / DAY_MS;
  expect(daysAhead).toBeGreaterThan(29);
  expect(daysAhead).toBeLessThan(31);
  await shoot(page, '20-accepted-risk');

  // Undo: back among the open findings, and the score as it was.
  await accepted.getByRole('button', { name: 'Undo acceptance' }).click();
  await acceptedRisks.waitFor({ state: 'detached' });
  await item.getByRole('button', { name: 'Accept risk' }).waitFor();
  await score.filter({ hasText: new RegExp(`^${before}$`) }).waitFor();
  await shoot(page, '21-acceptance-undone');
  await context.close();

  expect(problems).toEqual([]);
  for (const file of shots) expect(existsSync(file) && statSync(file).size > 1000).toBe(true);
});

it('resets a forgotten password from the login page through the e-mailed link', async () => {
  const email = `forgetful-${Date.now()}@example.com`;
  await ctx.http.post('/auth/signup').send({ email, password: PASSWORD, name: 'Fern Forgetful' }).expect(201);
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await page.goto(`${base}/app/login`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('form', { name: 'Reset password' }).getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send a reset link' }).click();
  await page.getByRole('status').filter({ hasText: 'a password reset link is on its way' }).waitFor();

  // The e-mail is sent after the answer.
  await afterAnswerSettled();
  const mail = await ctx.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where(sql<boolean>`${email} = any(to_addresses)`)
    .where('subject', '=', 'Reset your Sentinel password')
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/app\/reset-password#token=[A-Za-z0-9_-]+/.exec(mail.text_body)?.[0] as string);
  await page.goto(`${base}${link.pathname}${link.hash}`);
  await page.getByLabel(/^New password/).fill('a-brand-new-password');
  await shoot(page, '22-reset-password');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await page.getByRole('status').filter({ hasText: 'Your password is set' }).waitFor();

  await page.getByRole('link', { name: 'Log in' }).click();
  const login = page.getByRole('form', { name: 'Log in' });
  await login.getByLabel('E-mail').fill(email);
  await login.getByLabel('Password').fill('a-brand-new-password');
  await login.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('No AWS accounts yet').waitFor();
  expect(problems).toEqual([]);
  await context.close();
});
