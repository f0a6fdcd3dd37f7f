import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { EVENT_API_KEY_HEADER, EVENT_INGEST_PATH } from '../../domain/events/forwarding-rules';
import { addUserWithRole, signupAndLogin, type TestContext, type TestUser } from '../helpers/context';
import { CONDITION_CEILING_MS } from '../helpers/patience';
import { logIn as logInAt, screenshot, watchForErrors } from './browser';
import { type DashboardSuite, startDashboardSuite } from './suite';

// The account's event stream in the built dashboard, in Chromium against the real service (Express, PostgreSQL,
// the Temporal dev server with a real worker, the sandbox cloud). An owner connects a sandbox account: the connect
// step shows the event forwarder's endpoint, header and key (once). After verification the account says it waits
// for the first event; two events are then delivered with that key as EventBridge would (a root console sign-in,
// which sets off a detection, and a security group opened on 443, which sets off none). The overview picks the
// delivery up by itself; the Events tab lists both newest first, the detected one highlighted with a badge that
// opens its finding; "Only detections" leaves one; rotating the key shows a new one that works. A viewer sees the
// timeline without the rotate button. Pages are photographed into test-results/events-screenshots.

const AWS_ID = '123456789012';
const ROOT_SIGN_IN = 'event.root_console_sign_in';
const SHOTS = path.resolve(__dirname, '..', '..', 'test-results', 'events-screenshots');
const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'aws-events');
const MINUTE = 60_000;

let ctx: TestContext;
let browser: Browser;
let base: string;
let suite: DashboardSuite;

beforeAll(async () => {
  suite = await startDashboardSuite({ shots: SHOTS, config: { CLOUD_PROVIDER: 'sandbox' } });
  ({ ctx, base, browser } = suite);
});

afterAll(() => suite?.close());

/** A screenshot into this suite's folder (test-results/). */
const shoot = (page: Page, name: string, options?: { fullPage?: boolean }) => screenshot(page, SHOTS, name, options);

async function logIn(page: Page, user: Pick<TestUser, 'email' | 'password'>): Promise<void> {
  await logInAt(page, base, user);
  await page.waitForURL(`${base}/app`);
}

/** A fixture envelope (test/fixtures/aws-events) as a new event of the account, `minutesAgo` before now. */
function fixtureEvent(name: string, minutesAgo: number): Record<string, unknown> & { id: string } {
  const event = JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown> & {
    detail: Record<string, unknown>;
  };
  const time = new Date(Date.now() - minutesAgo * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    ...event,
    id: randomUUID(),
    account: AWS_ID,
    time,
    detail: { ...event.detail, eventTime: time, eventID: randomUUID() },
  };
}

function deliver(key: string, events: readonly Record<string, unknown>[]) {
  return ctx.http
    .post(EVENT_INGEST_PATH)
    .set(EVENT_API_KEY_HEADER, key)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(events));
}

it('shows the forwarder at connect, waits for the first event, then lists the events with their detections and rotates the key', async () => {
  const owner = await signupAndLogin(ctx, 'Eve Events');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await logIn(page, owner);
  await page.getByRole('banner').getByRole('link', { name: 'Accounts' }).click();
  await page.getByText('No AWS accounts yet').waitFor();

  // Connect: beside the role's templates, the event forwarder's endpoint, header and key, said to be shown once.
  await page.getByLabel('AWS account id').fill(AWS_ID);
  await page.getByLabel('Name (optional)').fill('Events sandbox');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const forwarder = page
    .getByRole('region', { name: 'Set up the role' })
    .getByRole('region', { name: 'Event forwarder' });
  await forwarder.getByTestId('event-key').waitFor();
  const key = (await forwarder.getByTestId('event-key').textContent()) as string;
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(await forwarder.getByTestId('event-key-header').textContent()).toBe(EVENT_API_KEY_HEADER);
  expect(await forwarder.getByTestId('event-endpoint').textContent()).toMatch(
    new RegExp(`^https?://.+${EVENT_INGEST_PATH}$`),
  );
  expect(await forwarder.getByTestId('event-key-once').textContent()).toContain('shown only now');
  expect(await forwarder.textContent()).toContain('The Terraform and the AWS CLI script above already contain it');
  await forwarder.getByRole('button', { name: 'Copy' }).waitFor();
  await shoot(page, '01-connect-forwarder');

  // Verify; the notice links to the account's events, where nothing has come yet.
  await page.getByRole('region', { name: 'Set up the role' }).getByRole('button', { name: 'Verify' }).click();
  const verified = page.getByRole('status').filter({ hasText: `${AWS_ID} verified: the first scan is running.` });
  await verified.waitFor();
  await verified.getByRole('link', { name: 'See its events' }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}/events`);
  const events = page.getByRole('region', { name: 'Events' });
  await events
    .getByTestId('last-event')
    .filter({ hasText: 'No event received yet — set up the event forwarder' })
    .waitFor();
  await events.getByText('No events yet.').waitFor();
  await shoot(page, '02-events-none-yet');

  // The overview waits for the first event, and picks it up by itself once it comes.
  await page.getByRole('navigation', { name: 'Account views' }).getByRole('link', { name: 'Overview' }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}`);
  const status = page.getByTestId('event-status');
  await status.filter({ hasText: 'Waiting for the first event…' }).waitFor();
  await shoot(page, '03-overview-waiting', { fullPage: false });

  // EventBridge delivers a security group opened on 443 (nothing to detect) and, later, a root console sign-in.
  const benign = fixtureEvent('sg-open-https', 10);
  const rootSignIn = fixtureEvent('root-console-sign-in', 2);
  const delivered = await deliver(key, [benign, rootSignIn]).expect(202);
  expect(delivered.body).toMatchObject({ accepted: 2, duplicates: 0 });
  expect(delivered.body.signals_opened).toBeGreaterThanOrEqual(1);

  await status.filter({ hasText: /^Last event received just now/ }).waitFor({ timeout: CONDITION_CEILING_MS });
  expect(await status.locator('time').getAttribute('title')).not.toBe('—');
  await shoot(page, '04-overview-received', { fullPage: false });

  // The timeline: newest first, the detected event highlighted with its badge, the other plain.
  await page.getByRole('navigation', { name: 'Account views' }).getByRole('link', { name: 'Events' }).click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}/events`);
  await events
    .getByTestId('last-event')
    .filter({ hasText: /^Last event received just now/ })
    .waitFor();
  const timeline = events.getByRole('table', { name: 'Event timeline' });
  const rows = timeline.locator('tbody tr[data-event]');
  await rows.nth(1).waitFor();
  expect(await rows.count()).toBe(2);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event')))).toEqual([
    rootSignIn.id,
    benign.id,
  ]);
  const detected = rows.nth(0);
  expect(await detected.getAttribute('class')).toContain('event-detected');
  expect(await detected.textContent()).toContain('ConsoleLogin');
  expect(await detected.textContent()).toContain('aws.signin');
  expect(await detected.textContent()).toContain('198.51.100.7');
  expect(await detected.textContent()).toContain('us-east-1');
  const badge = detected.locator(`a[data-detection="${ROOT_SIGN_IN}"]`);
  expect(await badge.textContent()).toBe('Root user signed in to the console');
  expect(await badge.getAttribute('href')).toBe(`/app/accounts/${AWS_ID}?check=${encodeURIComponent(ROOT_SIGN_IN)}`);
  const plain = rows.nth(1);
  expect(await plain.getAttribute('class')).toBeNull();
  expect(await plain.locator('a[data-detection]').count()).toBe(0);
  expect(await plain.textContent()).toContain('AuthorizeSecurityGroupIngress');
  expect(await plain.textContent()).toContain('arn:aws:iam::123456789012:user/alice');
  // Each time is relative, with the absolute one in its title.
  expect(await plain.locator('time').textContent()).toMatch(/^1\d min ago$/);
  expect(await plain.locator('time').getAttribute('title')).toBe(
    await page.evaluate(`new Date(${JSON.stringify(benign.time)}).toLocaleString()`),
  );
  await shoot(page, '05-events-timeline');

  // Only detections: the sign-in alone.
  await events.getByLabel('Only detections').check();
  await timeline.locator(`tr[data-event="${benign.id}"]`).waitFor({ state: 'detached' });
  await rows.first().waitFor();
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event')))).toEqual([rootSignIn.id]);
  await shoot(page, '06-events-only-detections');

  // The badge opens the finding the detection opened (its check id is the detection's id).
  await badge.click();
  await page.waitForURL(`${base}/app/accounts/${AWS_ID}?check=${encodeURIComponent(ROOT_SIGN_IN)}`);
  const findings = page.getByRole('region', { name: 'Open findings' });
  await findings.getByText(`Showing the findings of the check ${ROOT_SIGN_IN}`).waitFor();
  await findings.locator('.signal').filter({ hasText: 'Root user signed in to the console' }).first().waitFor();

  // Rotate the key (as the owner): the new one is shown once, differs, and works; the old one still works a day.
  await page.getByRole('navigation', { name: 'Account views' }).getByRole('link', { name: 'Events' }).click();
  await rows.first().waitFor();
  page.once('dialog', (dialog) => void dialog.accept());
  await events.getByRole('button', { name: 'Rotate event key' }).click();
  const newKey = events.getByRole('region', { name: 'New event key' });
  await newKey.getByTestId('event-key').waitFor();
  const rotated = (await newKey.getByTestId('event-key').textContent()) as string;
  expect(rotated).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(rotated).not.toBe(key);
  expect(await newKey.getByTestId('event-key-header').textContent()).toBe(EVENT_API_KEY_HEADER);
  expect(await newKey.getByTestId('event-endpoint').textContent()).toMatch(new RegExp(`${EVENT_INGEST_PATH}$`));
  expect(await newKey.getByTestId('previous-key-expires').textContent()).not.toBe('—');
  await shoot(page, '07-events-key-rotated');
  await deliver(rotated, [fixtureEvent('sg-open-https', 1)]).expect(202);
  await deliver(key, [fixtureEvent('sg-open-https', 1)]).expect(202);
  await deliver('not-a-key', [fixtureEvent('sg-open-https', 1)]).expect(401);
  await newKey.getByRole('button', { name: 'Hide the key' }).click();
  await newKey.waitFor({ state: 'detached' });
  await context.close();
  expect(problems).toEqual([]);

  // A viewer reads the timeline, without the rotate button.
  const viewer = await addUserWithRole(ctx, owner.tenantId, 'viewer');
  const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const viewerPage = await viewerContext.newPage();
  const viewerProblems = watchForErrors(viewerPage);
  await logIn(viewerPage, viewer);
  await viewerPage.goto(`${base}/app/accounts/${AWS_ID}/events`);
  const viewerEvents = viewerPage.getByRole('region', { name: 'Events' });
  await viewerEvents.locator(`tr[data-event="${rootSignIn.id}"]`).waitFor();
  expect(await viewerEvents.getByRole('button', { name: 'Rotate event key' }).count()).toBe(0);
  await shoot(viewerPage, '08-events-as-viewer');
  await viewerContext.close();
  expect(viewerProblems).toEqual([]);
});
