import { saveScanResult } from '../../core/scans/save-scan';
import { TRUNCATED } from '../../domain/bounded-text';
import { evaluateInventory } from '../../domain/checks/evaluate';
import { SIGNAL_TEXT_BYTES } from '../../domain/signals/bounds';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { CHECKS_NOW, cleanInventory, part } from '../helpers/inventory';

// A resource's name comes from the customer's account: a bucket named with 200 KB made a 391 KB signal, in every
// page that lists it and every alert. A scan's findings keep each text field within its bound (domain/signals/bounds.ts),
// and the next scan finds the same signal open by the same bounded fingerprint.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insertInto('tenants').values({ id: 'ten_1', name: 'T' }).execute();
  await database.db
    .insertInto('accounts')
    .values({
      id: 'acc_1',
      tenant_id: 'ten_1',
      aws_account_id: '111122223333',
      display_name: null,
      tags: [],
      external_id: 'e'.repeat(32),
      role_name: 'SentinelReadOnly',
      workflow_id: 'wf-acc_1',
      status: 'ACTIVE',
    })
    .execute();
});
afterAll(() => database.drop());

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

async function scan(n: number) {
  const scanId = `scan_${n}`;
  const at = new Date(Date.parse(CHECKS_NOW) + n * 3_600_000);
  await database.db
    .insertInto('scans')
    .values({
      id: scanId,
      tenant_id: 'ten_1',
      account_id: 'acc_1',
      trigger: 'scheduled',
      status: 'running',
      started_at: at,
    })
    .execute();
  const inventory = cleanInventory(CHECKS_NOW);
  // A public bucket, with no Block Public Access (its own or the account's) and no TLS-only policy, whose name is 200 KB.
  part(inventory.s3AccountBlockPublicAccess).settings = null;
  part(inventory.s3Buckets).buckets.push({
    name: `huge-${'b'.repeat(200_000)}`,
    region: 'eu-west-1',
    publicViaAcl: true,
    publicViaPolicy: true,
    blockPublicAccess: null,
    deniesInsecureTransport: false,
    publicAclPermissions: ['READ'],
    publicWriteStatements: [],
    crossAccountPrincipals: [],
  });
  const evaluation = evaluateInventory(inventory, { now: CHECKS_NOW });
  return saveScanResult({
    db: database.db,
    result: { scanId, tenantId: 'ten_1', accountId: 'acc_1', observedAt: at, evaluation },
  });
}

it("keeps a scan's signals of a resource with a 200 KB name within their bounds, and finds them again by the next scan", async () => {
  const first = await scan(1);
  const signals = await database.db
    .selectFrom('signals')
    .select(['id', 'check_id', 'title', 'description', 'resource', 'fingerprint'])
    .where('resource', 'like', 'huge-%')
    .execute();
  expect(signals.map((s) => s.check_id)).toEqual(
    expect.arrayContaining(['exposure.s3_bucket_public', 'exposure.s3_bucket_allows_http']),
  );
  for (const signal of signals) {
    expect(signal.resource.endsWith(TRUNCATED)).toBe(true);
    expect(bytes(signal.resource)).toBeLessThanOrEqual(SIGNAL_TEXT_BYTES.resource);
    expect(bytes(signal.description)).toBeLessThanOrEqual(SIGNAL_TEXT_BYTES.description);
    expect(bytes(signal.title)).toBeLessThanOrEqual(SIGNAL_TEXT_BYTES.title);
    expect(bytes(signal.fingerprint)).toBeLessThan(2 * SIGNAL_TEXT_BYTES.resource);
  }
  expect(first.newFingerprints).toEqual(expect.arrayContaining(signals.map((s) => s.fingerprint)));

  // The same bucket in the next scan is the same finding: nothing opened, nothing resolved.
  const second = await scan(2);
  expect(second).toMatchObject({ newFingerprints: [], resolvedFingerprints: [] });
});
