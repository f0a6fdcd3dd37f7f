import { readingOf } from '../../../cloud/aws/collectors/policy-reading';
import { analyzeAttackPaths } from '../../../domain/attack-paths/analyze';
import { resourcePoliciesOf } from '../../../domain/attack-paths/resource-policies';
import type { Inventory } from '../../../domain/scans/inventory';
import { ACCOUNT, cleanInventory, LAMBDA_ARN, outcome, part, unreadBy } from '../../helpers/inventory';

// Resource policies in the attack paths: a secret's own policy can let a public function's role read it where the
// role's policies do not, an explicit Deny there keeps it out, and a policy Sentinel could not read is named, never
// taken for a closed door.

const NOW = '2026-12-01T12:00:00.000Z';
const SECRET = `arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:prod/db-AbCdEf`;
const ORDERS_ROLE = `arn:aws:iam::${ACCOUNT}:role/orders-api`;
const CHECK = 'attack_path.public_function_reads_secrets';

const document = (...Statement: Record<string, unknown>[]) => ({ Version: '2012-10-17', Statement });
const readBy = (principal: string) =>
  document({
    Sid: 'AppReads',
    Effect: 'Allow',
    Principal: { AWS: principal },
    Action: 'secretsmanager:GetSecretValue',
    Resource: '*',
  });

/** The clean account with its orders-api function's URL open to anyone and the secret's policy as given. */
function withSecretPolicy(policy: Record<string, unknown> | { unread: string }): Inventory {
  const inventory = cleanInventory(NOW);
  const fn = part(inventory.lambdaFunctions).functions.find((f) => f.arn === LAMBDA_ARN)!;
  fn.urls = { read: true, urls: [{ url: 'https://abc123.lambda-url.us-east-1.on.aws/', authType: 'NONE' }] };
  const secret = part(inventory.secrets).secrets.find((s) => s.arn === SECRET)!;
  secret.policy =
    'unread' in policy
      ? { read: false, reason: policy.unread as string }
      : { read: true, exposure: { public: [], external: [] }, document: policy };
  return inventory;
}

describe('resource policies in the attack paths', () => {
  it('finds a public function whose role a secret’s own policy lets read it', () => {
    const inventory = withSecretPolicy(readBy(ORDERS_ROLE));
    expect(outcome(CHECK, inventory)).toEqual([`${LAMBDA_ARN}@us-east-1`]);
    const path = analyzeAttackPaths(inventory).paths.find((p) => p.rule === 'public_function_reads_secrets')!;
    expect(path.edges.at(-1)).toMatchObject({ from: ORDERS_ROLE, to: 'secrets', certainty: 'certain' });
    expect(path.edges.at(-1)?.evidence).toEqual([`resource:${SECRET}#AppReads`]);
  });

  it('finds nothing when the secret lets another role in, or denies the function’s role explicitly', () => {
    expect(outcome(CHECK, withSecretPolicy(readBy(`arn:aws:iam::${ACCOUNT}:role/app-server`)))).toBe('pass');
    const denied = withSecretPolicy(
      document(
        { Effect: 'Allow', Principal: { AWS: ORDERS_ROLE }, Action: 'secretsmanager:GetSecretValue', Resource: '*' },
        { Effect: 'Deny', Principal: { AWS: ORDERS_ROLE }, Action: 'secretsmanager:*', Resource: '*' },
      ),
    );
    expect(outcome(CHECK, denied)).toBe('pass');
  });

  it('names a secret whose policy could not be read instead of passing over it', () => {
    const inventory = withSecretPolicy({ unread: 'AccessDeniedException' });
    expect(outcome(CHECK, inventory)).toBe('pass');
    expect(unreadBy(CHECK, inventory)).toContain(SECRET);
    // The other combinations do not depend on who reads the secrets.
    expect(unreadBy('attack_path.external_trust_admin', inventory)).not.toContain(SECRET);
    expect(analyzeAttackPaths(inventory).status).toBe('partial');
  });

  it('gathers every kind of resource policy the scan read, by ARN, and keeps the document a collector read', () => {
    const inventory = cleanInventory(NOW);
    const policy = readBy(ORDERS_ROLE);
    const reading = readingOf(JSON.stringify(policy), ACCOUNT);
    expect(reading).toMatchObject({ read: true, document: policy });
    expect(readingOf(encodeURIComponent(JSON.stringify(policy)), ACCOUNT)).toMatchObject({ document: policy });
    expect(readingOf(undefined, ACCOUNT)).toEqual({ read: true, exposure: { public: [], external: [] } });
    part(inventory.s3Buckets).buckets[0]!.policyDocument = policy;
    part(inventory.sqsQueues).queues[0]!.policy = reading;
    part(inventory.kmsKeyPolicies).keys[0]!.policy = reading;
    part(inventory.secrets).secrets[0]!.policy = reading;
    const fn = part(inventory.lambdaFunctions).functions[0]!;
    fn.policy = { read: true, publicStatements: [], document: policy };
    const arns = [...resourcePoliciesOf(inventory).keys()].sort();
    expect(arns).toEqual(
      [
        `arn:aws:s3:::${part(inventory.s3Buckets).buckets[0]!.name}`,
        part(inventory.sqsQueues).queues[0]!.arn,
        part(inventory.kmsKeyPolicies).keys[0]!.arn,
        SECRET,
        fn.arn,
      ].sort(),
    );
    // A policy not read is left out: the evaluation then treats it as unread, not as absent.
    part(inventory.secrets).secrets[0]!.policy = { read: false, reason: 'AccessDenied' };
    expect(resourcePoliciesOf(inventory).has(SECRET)).toBe(false);
  });
});
