import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStacksCommand,
  type Stack,
} from '@aws-sdk/client-cloudformation';
import {
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
} from '@aws-sdk/client-iam';
import { parsePolicyDocument } from '../../cloud/aws/trust-policy';
import { createAwsProvider } from '../../cloud/aws/provider';
import { createLogger } from '../../config/logger';
import { accountRoleTemplate, EXTERNAL_ID_PARAMETER } from '../../domain/onboarding/cloudformation';
import {
  BILLING_POLICY_NAME,
  billingReadPolicy,
  cliScript,
  ROLE_NAME,
  roleArn,
  SCAN_POLICY_NAME,
  scanReadPolicy,
} from '../../domain/onboarding/role';
import { ORGANIZATION_ROLE_NAME, organizationOnboarding } from '../../domain/onboarding/organization';
import { PROJECT_ROOT } from '../../scripts/tools';
import {
  customerAccount,
  type CustomerAccount,
  customerConfig,
  MOTO_ACCOUNT_ID,
  motoEndpoint,
  randomExternalId,
  REGION,
  runAsCustomer,
  TEST_CREDENTIALS,
} from '../helpers/aws';
import { type RoleDefinition, templateRole } from '../helpers/role-definitions';
import { CONDITION_CEILING_MS } from '../helpers/patience';

// The templates are checked by AWS's own linter, and the roles they create on moto are compared, through IAM,
// with the roles the CLI scripts create: the customer gets the same role whichever way they choose.

const sentinelAccountId = MOTO_ACCOUNT_ID;
const CFN_LINT = path.join(PROJECT_ROOT, '.tools/venv/bin/cfn-lint');

/** Creates a stack as the customer would and waits for it, failing with the stack's reason if it fails. */
async function createStack({
  customer,
  template,
  externalId,
}: {
  customer: CustomerAccount;
  template: string;
  externalId: string;
}): Promise<Stack> {
  const cfn = new CloudFormationClient(customerConfig(customer));
  try {
    const { StackId } = await cfn.send(
      new CreateStackCommand({
        StackName: 'Sentinel',
        TemplateBody: template,
        Parameters: [{ ParameterKey: EXTERNAL_ID_PARAMETER, ParameterValue: externalId }],
        Capabilities: ['CAPABILITY_NAMED_IAM'],
      }),
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: StackId }));
      const stack = Stacks?.[0];
      if (stack?.StackStatus === 'CREATE_COMPLETE') return stack;
      if (!stack?.StackStatus?.endsWith('_IN_PROGRESS') || Date.now() > deadline) {
        throw new Error(`stack ${stack?.StackStatus}: ${stack?.StackStatusReason ?? ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    cfn.destroy();
  }
}

// AWS answers GetRolePolicy with URL-encoded JSON. moto 5.2 answers it so too for a policy put through IAM, but
// for one a stack created, with the Python repr of the document: that one is read back by Python itself.
const PYTHON_LITERAL_TO_JSON = 'import sys, ast, json; print(json.dumps(ast.literal_eval(sys.stdin.read())))';

function inlinePolicyDocument(raw: string): unknown {
  const parsed = parsePolicyDocument(raw);
  if (parsed || !raw.startsWith("{'")) return parsed;
  const run = spawnSync(path.join(PROJECT_ROOT, '.tools/venv/bin/python'), ['-c', PYTHON_LITERAL_TO_JSON], {
    input: raw,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`not a policy document: ${raw}`);
  return JSON.parse(run.stdout);
}

/** The role as IAM has it: trust policy, attached managed policies and inline policy documents. */
async function readRole(customer: CustomerAccount, roleName: string): Promise<RoleDefinition> {
  const { iam } = customer;
  const { Role } = await iam.send(new GetRoleCommand({ RoleName: roleName }));
  const { AttachedPolicies } = await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: roleName }));
  const { PolicyNames } = await iam.send(new ListRolePoliciesCommand({ RoleName: roleName }));
  const inline = await Promise.all(
    (PolicyNames ?? []).map(async (name) => {
      const { PolicyDocument } = await iam.send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName: name }));
      return [name, inlinePolicyDocument(PolicyDocument ?? '')] as const;
    }),
  );
  return {
    roleName: Role?.RoleName ?? '',
    trustPolicy: parsePolicyDocument(Role?.AssumeRolePolicyDocument ?? ''),
    managedPolicyArns: (AttachedPolicies ?? []).map((p) => p.PolicyArn ?? '').sort(),
    inlinePolicies: Object.fromEntries(inline),
  };
}

// moto 5.2 creates a stack's role with its trust policy and inline policies but does not attach the role's
// ManagedPolicyArns (AWS does): those are compared as the template declares them, with what the script attached.
function withoutManagedPolicies({
  managedPolicyArns: _managed,
  ...rest
}: RoleDefinition): Omit<RoleDefinition, 'managedPolicyArns'> {
  return rest;
}

function declaredManagedPolicies(template: string, externalId: string): string[] {
  return [...templateRole(template, { [EXTERNAL_ID_PARAMETER]: externalId }).managedPolicyArns].sort();
}

describe('cfn-lint', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sentinel-cfn-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds nothing to report in the account role, management role and member StackSet templates', () => {
    const organization = organizationOnboarding({ sentinelAccountId, externalId: randomExternalId() });
    const files = Object.entries({
      'account-role.yaml': accountRoleTemplate({ sentinelAccountId }),
      'management-role.yaml': organization.management_role.cloudformation_template,
      'member-stackset.yaml': organization.member_stackset_template,
    }).map(([name, body]) => {
      writeFileSync(path.join(dir, name), body);
      return path.join(dir, name);
    });
    const run = spawnSync(CFN_LINT, ['--', ...files], { encoding: 'utf8', timeout: CONDITION_CEILING_MS });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('reports a broken template, so a clean run means something', () => {
    const broken = path.join(dir, 'broken.yaml');
    writeFileSync(
      broken,
      accountRoleTemplate({ sentinelAccountId }).replace('ce:GetCostAndUsage', 'ce:GetCostAndUsag'),
    );
    const run = spawnSync(CFN_LINT, ['--', broken], { encoding: 'utf8', timeout: CONDITION_CEILING_MS });
    expect(run.stdout).toMatch(/getcostandusag/i);
    expect(run.status).not.toBe(0);
  });
});

describe('account role stack on moto', () => {
  it('creates the same role as the CLI script, and outputs its ARN', async () => {
    const externalId = randomExternalId();
    const [viaStack, viaScript] = await Promise.all([customerAccount(), customerAccount()]);
    const template = accountRoleTemplate({ sentinelAccountId });
    const stack = await createStack({ customer: viaStack, template, externalId });
    await runAsCustomer({ script: cliScript({ sentinelAccountId, externalId }), customer: viaScript });

    const created = await readRole(viaStack, ROLE_NAME);
    const scripted = await readRole(viaScript, ROLE_NAME);
    expect(withoutManagedPolicies(created)).toEqual(withoutManagedPolicies(scripted));
    expect(created.inlinePolicies).toEqual({
      [BILLING_POLICY_NAME]: billingReadPolicy(),
      [SCAN_POLICY_NAME]: scanReadPolicy(),
    });
    expect(declaredManagedPolicies(template, externalId)).toEqual(scripted.managedPolicyArns);
    expect(scripted.managedPolicyArns).toHaveLength(2);
    expect(stack.Outputs).toEqual([
      expect.objectContaining({ OutputKey: 'RoleArn', OutputValue: roleArn(viaStack.accountId) }),
    ]);
  });

  it('trusts Sentinel with the ExternalId the stack was given, and with no other', async () => {
    const externalId = randomExternalId();
    const customer = await customerAccount();
    await createStack({ customer, template: accountRoleTemplate({ sentinelAccountId }), externalId });
    const provider = createAwsProvider({
      region: REGION,
      endpointUrl: motoEndpoint(),
      sentinelAccountId,
      credentials: TEST_CREDENTIALS,
      log: createLogger({ level: 'silent', name: 'test' }),
    });
    const target = { tenantId: 'tnt_test', awsAccountId: customer.accountId, roleName: ROLE_NAME };
    await expect(provider.checkAccess({ ...target, externalId })).resolves.toEqual({ ok: true });
    await expect(provider.checkAccess({ ...target, externalId: randomExternalId() })).resolves.toMatchObject({
      ok: false,
      code: 'external_id_mismatch',
    });
  });
});

describe('management role stack on moto', () => {
  it('creates the same role as the management role CLI script', async () => {
    const externalId = randomExternalId();
    const onboarding = organizationOnboarding({ sentinelAccountId, externalId });
    const [viaStack, viaScript] = await Promise.all([customerAccount(), customerAccount()]);
    await createStack({ customer: viaStack, template: onboarding.management_role.cloudformation_template, externalId });
    await runAsCustomer({ script: onboarding.management_role.cli_script, customer: viaScript });

    const created = await readRole(viaStack, ORGANIZATION_ROLE_NAME);
    expect(created).toEqual(await readRole(viaScript, ORGANIZATION_ROLE_NAME));
    expect(created.managedPolicyArns).toEqual([]);
    expect(Object.keys(created.inlinePolicies)).toHaveLength(1);
  });
});
