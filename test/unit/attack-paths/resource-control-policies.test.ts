import { analyzeAttackPaths } from '../../../domain/attack-paths/analyze';
import { isAdministrator, permissionOracle } from '../../../domain/attack-paths/effective-permissions';
import type { IamAuthorization, PolicyJson, ResourceControlPolicies } from '../../../domain/scans/iam-authorization';
import { ACCOUNT, cleanInventory, LAMBDA_ARN, outcome, part } from '../../helpers/inventory';

// The resource control policies of the account, as the permission oracle weighs them: on every request on one of the
// account's resources, its own principals' and other accounts' alike, and on nothing else; not at all when they
// could not be read; never for a service-linked role or a KMS key whose policy the scan did not read (an AWS managed
// key, which RCPs do not restrict). Then through the whole analysis: an RCP that denies reading secrets closes the
// public function's path to them.

const OTHER = '444455556666';
const doc = (...Statement: Record<string, unknown>[]): PolicyJson => ({ Version: '2012-10-17', Statement });
const user = (name: string, account = ACCOUNT) => `arn:aws:iam::${account}:user/${name}`;
const ADMIN = 'arn:aws:iam::aws:policy/AdministratorAccess';
const SECRET = `arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:prod/db-AbCdEf`;
const FOREIGN_SECRET = `arn:aws:secretsmanager:us-east-1:${OTHER}:secret:shared-AbCdEf`;
const KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
const AWS_MANAGED_KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/0987dcba-09fe-87dc-65ba-ab0987654321`;
const BUCKET = 'arn:aws:s3:::exchange';
const SUPPORT_ROLE = `arn:aws:iam::${ACCOUNT}:role/aws-service-role/support.amazonaws.com/AWSServiceRoleForSupport`;

const full = {
  id: 'p-RCPFullAWSAccess',
  name: 'RCPFullAWSAccess',
  document: doc({ Effect: 'Allow', Principal: '*', Action: '*', Resource: '*' }),
};
const guard = (id: string, ...Action: string[]) => ({
  id,
  name: id,
  document: doc({ Effect: 'Deny', Principal: '*', Action, Resource: '*' }),
});
/**
 * The root and the account at RCPFullAWSAccess alone; the OU between them denies reading secrets, keys and objects,
 * and EC2, which RCPs do not cover: that part denies nothing.
 */
const READ: ResourceControlPolicies = {
  read: true,
  levels: [
    { target: 'r-root', policies: [full] },
    {
      target: 'ou-prod',
      policies: [full, guard('p-no-reads', 'secretsmanager:GetSecretValue', 'kms:Decrypt', 's3:GetObject', 'ec2:*')],
    },
    { target: ACCOUNT, policies: [full] },
  ],
};

function account(resourceControlPolicies: ResourceControlPolicies): IamAuthorization {
  return {
    users: [{ name: 'admin', arn: user('admin'), attached: [ADMIN], inline: [], groups: [], boundary: null }],
    groups: [],
    roles: [],
    policies: [
      { arn: ADMIN, name: 'AdministratorAccess', document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }) },
    ],
    serviceControlPolicies: { read: true, levels: [] },
    resourceControlPolicies,
  };
}

const resourcePolicies = new Map<string, PolicyJson>([
  [KEY, doc({ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: 'kms:*', Resource: '*' })],
  [BUCKET, doc({ Effect: 'Allow', Principal: { AWS: OTHER }, Action: 's3:GetObject', Resource: `${BUCKET}/*` })],
]);
const oracleOf = (rcps: ResourceControlPolicies) => permissionOracle(account(rcps), { resourcePolicies });

describe('resource control policies in the permission oracle', () => {
  const limited = oracleOf(READ);
  const unlimited = oracleOf({ read: true, levels: [] });

  it("limit the account's own principals on its resources, naming the RCP's statement", () => {
    expect(unlimited.evaluate(user('admin'), 'secretsmanager:GetSecretValue', SECRET).decision).toBe('allowed');
    expect(limited.evaluate(user('admin'), 'secretsmanager:GetSecretValue', SECRET)).toEqual({
      decision: 'denied',
      allowedBy: [],
      deniedBy: [{ policy: 'rcp:p-no-reads', index: 0 }],
      undecided: [],
    });
    expect(limited.evaluate(user('admin'), 'kms:Decrypt', KEY).decision).toBe('denied');
    expect(limited.evaluate(user('admin'), 'secretsmanager:PutSecretValue', SECRET).decision).toBe('allowed');
  });

  it("limit another account's principals on the account's resources, whatever the resource's policy allows", () => {
    const partner = user('importer', OTHER);
    // Its identity policies are not known: possible where the bucket lets its account in.
    expect(unlimited.evaluate(partner, 's3:GetObject', `${BUCKET}/f`).decision).toBe('possible');
    expect(limited.evaluate(partner, 's3:GetObject', `${BUCKET}/f`)).toMatchObject({
      decision: 'denied',
      deniedBy: [{ policy: 'rcp:p-no-reads', index: 0 }],
    });
  });

  it('leave alone the resources of other accounts, the actions of services RCPs do not cover, and who is administrator', () => {
    for (const [action, resource] of [
      ['secretsmanager:GetSecretValue', FOREIGN_SECRET],
      ['ec2:RunInstances', '*'],
      ['ec2:TerminateInstances', `arn:aws:ec2:us-east-1:${ACCOUNT}:instance/i-0abc`],
    ] as const)
      expect(limited.evaluate(user('admin'), action, resource)).toEqual(
        unlimited.evaluate(user('admin'), action, resource),
      );
    expect(isAdministrator(limited, user('admin')).decision).toBe('allowed');
  });

  it('are not weighed for a service-linked role, nor on a key whose policy the scan did not read', () => {
    expect(limited.evaluate(SUPPORT_ROLE, 'secretsmanager:GetSecretValue', SECRET)).toEqual(
      unlimited.evaluate(SUPPORT_ROLE, 'secretsmanager:GetSecretValue', SECRET),
    );
    // The scan reads customer managed keys' policies only: this one may be AWS managed, which RCPs do not restrict.
    expect(limited.evaluate(user('admin'), 'kms:Decrypt', AWS_MANAGED_KEY).decision).toBe('possible');
  });

  it('are not weighed when they could not be read: they grant nothing, so nothing shows denied because of them', () => {
    const unread = oracleOf({ read: false, reason: 'The resource control policies: AWS denied ListParents' });
    expect(unread.evaluate(user('admin'), 'secretsmanager:GetSecretValue', SECRET).decision).toBe('allowed');
    expect(unread.evaluate(user('importer', OTHER), 's3:GetObject', `${BUCKET}/f`).decision).toBe('possible');
  });

  it('leave a request possible when one of their documents could not be read', () => {
    const unreadable = oracleOf({
      read: true,
      levels: [{ target: 'r-root', policies: [full, { id: 'p-x', name: 'x', document: null }] }],
    });
    expect(unreadable.evaluate(user('admin'), 'secretsmanager:GetSecretValue', SECRET)).toMatchObject({
      decision: 'possible',
      undecided: ['unread: rcp:p-x'],
    });
  });
});

describe('resource control policies in the attack paths', () => {
  const CHECK = 'attack_path.public_function_reads_secrets';

  /** The clean account with its orders-api function's URL open to anyone, its role reading secrets, under `rcps`. */
  function publicFunctionUnder(rcps: ResourceControlPolicies) {
    const inventory = cleanInventory('2026-12-01T12:00:00.000Z');
    const fn = part(inventory.lambdaFunctions).functions.find((f) => f.arn === LAMBDA_ARN)!;
    fn.urls = { read: true, urls: [{ url: 'https://abc123.lambda-url.us-east-1.on.aws/', authType: 'NONE' }] };
    const iam = part(inventory.iamAuthorization);
    const role = iam.roles.find((r) => r.arn === fn.roleArn)!;
    role.inline.push({
      name: 'read-secrets',
      document: doc({ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: '*' }),
    });
    iam.resourceControlPolicies = rcps;
    return inventory;
  }

  it('finds no path to the secrets that an RCP denies, and the path again when the RCPs could not be read', () => {
    expect(outcome(CHECK, publicFunctionUnder({ read: true, levels: [] }))).toEqual([`${LAMBDA_ARN}@us-east-1`]);
    expect(outcome(CHECK, publicFunctionUnder(READ))).toBe('pass');
    const unread = publicFunctionUnder({ read: false, reason: 'The resource control policies: AccessDenied' });
    expect(outcome(CHECK, unread)).toEqual([`${LAMBDA_ARN}@us-east-1`]);
    expect(analyzeAttackPaths(unread).paths.map((p) => p.rule)).toContain('public_function_reads_secrets');
  });
});
